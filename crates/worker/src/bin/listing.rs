//! The listing module of the decode worker: every decoder and the program
//! text (`hexlens dis`), for the listing pane (built with the `listing`
//! feature; see `src/worker.rs`). The page fetches it only when the pane is
//! first opened.

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
