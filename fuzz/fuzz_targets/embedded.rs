//! Decodes any input with the `embedded` decoder (the scan for containers inside
//! another file, each found one decoded in place), skipping its probe, and checks
//! the tree invariants and the allocation bound.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    hexlens_fuzz::run(data, |d| hexlens_fuzz::decode(Some("embedded"), d));
});
