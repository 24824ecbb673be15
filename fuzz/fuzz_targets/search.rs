//! Parses a search query cut from the fuzz input (every mode and option) and
//! searches the rest of the input with it: the byte matches must be exactly
//! those a naive scan finds, and a structure search's hits must lie in the file
//! (see `hexlens_fuzz::query::check`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = hexlens_fuzz::query::check(data) {
        panic!("search: {e}");
    }
});
