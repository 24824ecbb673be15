//! The tools module of the decode worker: every decoder, the streaming dump
//! and the structure search, for exports, subtrees copied as JSON and
//! structure searches (built with the `tools` feature; see `src/worker.rs`).
//! The page fetches it only when one of these is first asked for.

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
