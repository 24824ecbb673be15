fn main() {
    let p = std::env::args().nth(1).unwrap();
    let bc = std::fs::read(&p).unwrap();
    let m = hexlens_core::llvmir::read(&bc);
    for e in &m.errors {
        eprintln!("error: {e:?}");
    }
    for l in hexlens_core::llvmir::write::module(&m, &p) {
        println!("{}", l.text);
    }
}
