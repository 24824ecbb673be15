//! Figures for a dense DirectX Container (not a test): writes one, or times
//! opening one as a streaming dump does.
//!
//! ```text
//! cargo run --release -p hexlens-core --example dense_container -- write DIR
//! cargo run --release -p hexlens-core --example dense_container -- time FILE
//! ```
//!
//! `write` makes `DIR/dense.dxbc` (1,000,000 SYM0 symbols and STR0 strings,
//! 100,000 SHDR instructions, 5,000 ISG1 parameters, 50,000 RDAT and PSV0
//! resources; the generator is the tests' own, `hexlens_testkit::generators::dxcontainer`)
//! and a signed copy, `DIR/dense-signed.dxbc` (opening it checks the digest over
//! every byte). `time` decodes FILE with `stream::streaming_options()` (the root
//! and its children), then opens every lazy node one at a time, depth first,
//! releasing each after its descendants, and prints the time to open the file,
//! the total and the slowest opening. `examples/open_cost.rs` gives the same
//! figures breadth first, for any format.

use hexlens_core::{decode_with, stream::streaming_options, Decoded};
use hexlens_testkit::generators::dxcontainer as gen;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, dir] if cmd == "write" => write(&PathBuf::from(dir)),
        [cmd, file] if cmd == "time" => time(&PathBuf::from(file)),
        _ => {
            eprintln!("usage: dense_container write DIR | time FILE");
            std::process::exit(2);
        }
    }
}

fn write(dir: &std::path::Path) {
    let bytes = gen::dense_container(&gen::Dense {
        symbols: 1_000_000,
        suffix_every: 1000,
        instructions: 100_000,
        parameters: 5000,
        resources: 50_000,
    });
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("dense.dxbc");
    std::fs::write(&path, &bytes).unwrap();
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    let mut signed = bytes;
    gen::sign(&mut signed);
    let path = dir.join("dense-signed.dxbc");
    std::fs::write(&path, &signed).unwrap();
    println!("wrote {} ({} bytes)", path.display(), signed.len());
}

/// The slowest opening so far: its time, the node's path and the nodes made.
type Slowest = (Duration, String, usize);

fn time(file: &std::path::Path) {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let t = Instant::now();
    let mut d = decode_with(&bytes.as_slice(), &streaming_options());
    println!(
        "open: {:.2?}, {} nodes, {} lazy",
        t.elapsed(),
        d.tree.len(),
        d.tree.lazy_count()
    );
    let mut slowest: Slowest = (Duration::ZERO, String::new(), 0);
    let mut opened = 0;
    let t = Instant::now();
    let lazy: Vec<u32> = (0..d.tree.len() as u32)
        .filter(|&k| d.tree.node(k).lazy)
        .collect();
    for k in lazy {
        open_everything(&bytes, &mut d, k, &mut slowest, &mut opened);
    }
    println!(
        "opened {opened} lazy nodes one at a time in {:.2?}; slowest: {} in {:.2?} ({} nodes)",
        t.elapsed(),
        slowest.1,
        slowest.0,
        slowest.2
    );
}

/// Opens lazy node `id`, then each lazy node it made, then releases it.
fn open_everything(
    src: &[u8],
    d: &mut Decoded,
    id: u32,
    slowest: &mut Slowest,
    opened: &mut usize,
) {
    let t = Instant::now();
    let made = hexlens_core::expand(&src, &mut d.tree, id).unwrap();
    let took = t.elapsed();
    *opened += 1;
    if took > slowest.0 {
        *slowest = (took, d.tree.path(id), made.len());
    }
    let lazy: Vec<u32> = made.filter(|&k| d.tree.node(k).lazy).collect();
    for k in lazy {
        open_everything(src, d, k, slowest, opened);
    }
    hexlens_core::release(&mut d.tree, id).unwrap();
}
