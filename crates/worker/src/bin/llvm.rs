//! The decode worker for DXContainer and LLVM bitcode: module `llvm` of
//! `hexlens_core::formats::modules()`, built with the `llvm` feature alone
//! (see `src/worker.rs`).

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
