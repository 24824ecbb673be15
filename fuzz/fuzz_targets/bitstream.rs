//! Decodes any input as bare LLVM bitcode with the bitstream decoder the DXIL part
//! uses, and checks the tree invariants and the allocation bound.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    hexlens_fuzz::run(data, hexlens_fuzz::decode_bitstream);
});
