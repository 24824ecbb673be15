//! Writes the dense inputs of `bench/dense.sh`: a DirectX Container whose DXIL
//! part holds a given bitcode file (real bitcode, e.g. clang's), a `.dyno`
//! library with a million symbols, and a cDAC blob with 100,000 types.
//!
//! ```text
//! cargo run --release -p hexlens-core --example dense_inputs -- OUT_DIR BITCODE
//! ```

use hexlens_testkit::generators::{cdac, dxil, dyno};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, bitcode] = args.as_slice() else {
        eprintln!("usage: dense_inputs OUT_DIR BITCODE");
        std::process::exit(2);
    };
    let out = std::path::Path::new(out);
    std::fs::create_dir_all(out).expect("create the output folder");
    let bc = std::fs::read(bitcode).expect("read the bitcode");
    let write = |name: &str, data: Vec<u8>| {
        std::fs::write(out.join(name), &data).expect("write an input");
        println!("{name}: {} bytes", data.len());
    };
    write("dxil-container.dxbc", dxil::container_of(bc));
    write("dyno-1m-symbols.dyno", dyno::dense(1_000_000));
    write("cdac-100k-types.bin", cdac::dense(100_000));
}
