//! The decode worker for formats the user describes (Kaitai Struct `.ksy`
//! files): the interpreter alone, built with the `ksy` feature (see
//! `src/worker.rs`). The page fetches it when a `.ksy` is first used.

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
