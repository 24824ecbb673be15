//! The decode worker for PDB / MSF files (and the DXContainer a shader PDB
//! holds): module `pdb` of `hexlens_core::formats::modules()`, built with the
//! `pdb` feature alone (see `src/worker.rs`).

#[path = "../worker.rs"]
mod decode_worker;

fn main() {
    decode_worker::main()
}
