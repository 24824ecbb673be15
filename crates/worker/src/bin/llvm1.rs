//! The decode worker for LLVM 1.x bytecode: module `llvm1` of
//! `hexlens_core::formats::modules()`, built with the `llvm1` feature alone
//! (see `src/worker.rs`).

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
