//! Compares two inputs by their structure (`hexlens_core::diff`), the two cut
//! from one fuzz input (see `hexlens_fuzz::pair`), and checks what the
//! comparison reports against the bytes (see `hexlens_fuzz::compare::check`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (a, b) = hexlens_fuzz::pair(data);
    if let Err(e) = hexlens_fuzz::compare::check(a, b) {
        panic!("diff: {e}");
    }
});
