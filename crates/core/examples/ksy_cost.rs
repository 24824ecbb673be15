//! Times decoding a file with a `.ksy` format: the whole tree, every
//! instance read (what `hexlens dump --ksy` builds), after the file is in
//! memory and the format compiled. Prints the median of RUNS runs in ms and
//! the tree's node count and heap size.
//!
//! With LAZY, parts of at least LAZY bytes are left to be decoded when
//! opened and long lists come in pages, as the viewer decodes: what its
//! first screen waits for.
//!
//! `cargo run --release -p hexlens-core --example ksy_cost -- FORMAT.ksy FILE [RUNS [LAZY]]`

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: ksy_cost FORMAT.ksy FILE [RUNS [LAZY]]");
        std::process::exit(2);
    }
    let runs: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(5);
    let spec = hexlens_core::ksy::load_file(args[1].as_ref(), &[]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let format = hexlens_core::formats::register(hexlens_core::ksy::format(spec, 0));
    let bytes = std::fs::read(&args[2]).expect("the file reads");
    let opts = match args.get(4).and_then(|l| l.parse().ok()) {
        Some(lazy) => hexlens_core::Options {
            lazy_threshold: Some(lazy),
            page_size: Some(1000),
            ..Default::default()
        },
        None => hexlens_core::Options::default(),
    };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let d = hexlens_core::decode_as_with(format, &bytes.as_slice(), &opts);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        last = Some(d);
    }
    let d = last.expect("one run");
    println!(
        "{{\"parse_ms\":{:.3},\"first_ms\":{:.3},\"runs\":{runs},\"nodes\":{},\"tree_bytes\":{},\"clean\":{}}}",
        {
            let mut t = times.clone();
            t.sort_by(f64::total_cmp);
            t[runs / 2]
        },
        times[0],
        d.tree.len(),
        d.tree.heap_bytes(),
        d.is_clean()
    );
}
