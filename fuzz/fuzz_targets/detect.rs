//! Decodes any input through format detection (`hexlens_core::decode`), as the
//! CLI and the web app do, and checks the tree invariants and the allocation bound.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    hexlens_fuzz::run(data, |d| hexlens_fuzz::decode(None, d));
});
