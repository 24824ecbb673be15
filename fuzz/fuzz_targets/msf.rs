//! Decodes any input with the `msf` decoder (skipping its probe) and checks
//! the tree invariants and the allocation bound.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    hexlens_fuzz::run(data, |d| hexlens_fuzz::decode_for_target("msf", d));
});
