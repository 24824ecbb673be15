//! The decode worker for .NET cDAC data descriptors, and any file no other module's probe recognises: module `cdac` of
//! `hexlens_core::formats::modules()`, built with the `cdac` feature alone
//! (see `src/worker.rs`).

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
