//! Prints a bitcode module's LLVM text (what `hexlens dis` prints for a bare
//! `.bc`), for comparing with llvm-dis and profiling the reader and writer:
//! `cargo run --release -p hexlens-core --example llvm_text FILE.bc`.
use std::io::Write as _;

fn main() {
    let p = std::env::args().nth(1).expect("a bitcode file");
    let bc = std::fs::read(&p).unwrap();
    let m = hexlens_core::llvmir::read(&bc);
    drop(bc);
    for e in &m.errors {
        eprintln!("error: {e:?}");
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    hexlens_core::llvmir::write::module_to(m, &p, &mut |l| {
        let _ = out.write_all(l.text.as_bytes());
        let _ = out.write_all(b"\n");
    });
    let _ = out.flush();
}
