//! The decode worker for Chapel .dyno libraries: module `dyno` of
//! `hexlens_core::formats::modules()`, built with the `dyno` feature alone
//! (see `src/worker.rs`).

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
