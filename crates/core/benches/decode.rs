//! Decoding speed of the core on large generated files, one benchmark group per
//! format: bytes/s and nodes/s of `hexlens_core::decode` (the whole tree, eager).
//!
//! The inputs are written by the generators of `hexlens_testkit::generators`
//! (`crates/testkit`); they are valid files: each is checked to decode with the
//! expected format and without any error before it is timed. Their sizes are
//! moderate so `cargo bench -p hexlens-core` finishes in a few minutes;
//! `HEXLENS_BENCH_SCALE=10` (any positive number) multiplies them, e.g. a .dyno
//! of 1,000,000 symbols and a cDAC blob of 100,000 types at 10.
//!
//! Criterion prints each group's time with both throughputs (`elem/s` = tree nodes
//! a second); the line before each group gives the input's size and node count.
//! Run: `cargo bench -p hexlens-core --bench decode` (filter groups by name:
//! `-- dyno`). `HEXLENS_BENCH_WRITE=DIR` also writes each input to `DIR/<group>.bin`
//! (for timing the CLI or the web app on the same files).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::{Duration, Instant};

use hexlens_testkit::generators::{cdac, dxil, dyno, llvm1};

/// `HEXLENS_BENCH_SCALE`, or 1.
fn scale() -> f64 {
    std::env::var("HEXLENS_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(1.0)
}

fn scaled(n: usize) -> usize {
    ((n as f64 * scale()) as usize).max(1)
}

/// One generated input.
struct Input {
    /// Benchmark group name.
    group: &'static str,
    /// The decoder expected to claim it.
    format: &'static str,
    /// What the file holds, for the report line.
    what: String,
    make: Box<dyn Fn() -> Vec<u8>>,
}

fn inputs() -> Vec<Input> {
    let dxil_bytes = scaled(4 << 20);
    let bitcode_bytes = scaled(4 << 20);
    let symbols = scaled(100_000);
    let types = scaled(10_000);
    let functions = scaled(10_000);
    let mut real = Vec::new();
    // Real bitcode (e.g. bench/dense.sh's clang-19 build of sqlite3.c):
    // HEXLENS_BENCH_BITCODE=FILE.
    if let Some(p) = std::env::var_os("HEXLENS_BENCH_BITCODE") {
        let path = std::path::PathBuf::from(p);
        real.push(Input {
            group: "bitcode-real",
            format: "bitcode",
            what: path.display().to_string(),
            make: Box::new(move || std::fs::read(&path).expect("HEXLENS_BENCH_BITCODE")),
        });
    }
    real.into_iter()
        .chain(vec![
            Input {
                group: "dxcontainer",
                format: "dxcontainer",
                what: format!("DXIL part with {} MiB of bitcode", dxil_bytes >> 20),
                make: Box::new(move || dxil::container(dxil_bytes, false)),
            },
            Input {
                group: "bitcode",
                format: "bitcode",
                what: format!("{} MiB LLVM bitstream", bitcode_bytes >> 20),
                make: Box::new(move || dxil::bitcode(bitcode_bytes, false)),
            },
            Input {
                group: "dyno",
                format: "chapel-dyno",
                what: format!("{symbols} symbols"),
                make: Box::new(move || dyno::dense(symbols)),
            },
            Input {
                group: "cdac",
                format: "cdac",
                what: format!("{types} types"),
                make: Box::new(move || cdac::dense(types)),
            },
            Input {
                group: "llvm1",
                format: "llvm1-bytecode",
                what: format!("{functions} functions"),
                make: Box::new(move || llvm1::dense(functions)),
            },
        ])
        .collect()
}

/// Decodes `data` once and checks it is what the generator meant: the expected
/// format, no error anywhere. Returns the node count.
fn check(input: &Input, data: &[u8]) -> u64 {
    let d = hexlens_core::decode_bytes(data);
    assert_eq!(d.format, input.format, "{}: wrong decoder", input.group);
    let errors = d.tree.errors();
    if let Some(&first) = errors.first() {
        let n = d.tree.node(first);
        panic!(
            "{}: the generated file decodes with {} error(s); first at {}: {}",
            input.group,
            errors.len(),
            d.tree.path(first),
            n.error.as_deref().unwrap_or("")
        );
    }
    d.tree.len() as u64
}

fn decode(c: &mut Criterion) {
    for input in inputs() {
        if !c_filter_matches(input.group) {
            continue;
        }
        let t = Instant::now();
        let data = (input.make)();
        let made = t.elapsed();
        if let Ok(dir) = std::env::var("HEXLENS_BENCH_WRITE") {
            let path = std::path::Path::new(&dir).join(format!("{}.bin", input.group));
            std::fs::write(&path, &data).expect("HEXLENS_BENCH_WRITE: cannot write the input");
            eprintln!("wrote {}", path.display());
        }
        let before = peak_rss_kib();
        let nodes = check(&input, &data);
        let after = peak_rss_kib();
        eprintln!(
            "{}: {} ({} bytes, {} nodes, generated in {:.1?}; scale {}; peak RSS {} -> {} MiB)",
            input.group,
            input.what,
            data.len(),
            nodes,
            made,
            scale(),
            before / 1024,
            after / 1024
        );
        let mut g = c.benchmark_group(input.group);
        g.throughput(Throughput::ElementsAndBytes {
            elements: nodes,
            bytes: data.len() as u64,
        });
        g.bench_function("decode", |b| {
            b.iter(|| hexlens_core::decode_bytes(black_box(&data)).tree.len())
        });
        g.finish();
    }
}

/// The process's peak resident memory so far (Linux `VmHWM`), in KiB; 0 elsewhere.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Generating the big inputs takes seconds: skip those whose group the command
/// line's filter (`cargo bench -- NAME`) leaves out.
fn c_filter_matches(group: &str) -> bool {
    // Criterion's options that take a value (the value is not a filter).
    const WITH_VALUE: &[&str] = &[
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--profile-time",
        "--output-format",
        "--color",
        "--plotting-backend",
        "--format",
    ];
    let mut filters = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            filters.push(a);
        }
    }
    filters.is_empty()
        || filters
            .iter()
            .any(|f| group.contains(f.as_str()) || f.contains(group))
}

/// Lazy decoding (`Options::lazy_threshold`) of DirectX Containers whose DXIL part
/// grows 8-fold, its module holding eight big function blocks: blocks of 1 MiB and
/// more become lazy nodes, so the tree (and the memory it takes) does not grow
/// with the part; the time left is reading the part table and checking the two
/// digests, which read every byte.
fn decode_lazy(c: &mut Criterion) {
    if !c_filter_matches("dxcontainer-lazy") {
        return;
    }
    let opts = hexlens_core::Options {
        lazy_threshold: Some(1 << 20),
        ..Default::default()
    };
    let mut g = c.benchmark_group("dxcontainer-lazy");
    for mib in [16, 128] {
        let bytes = scaled(mib << 20);
        let t = Instant::now();
        let data = dxil::container(bytes, true);
        let made = t.elapsed();
        let d = hexlens_core::decode_with(&data.as_slice(), &opts);
        assert_eq!(d.format, "dxcontainer");
        assert!(d.tree.errors().is_empty(), "the lazy tree holds errors");
        let nodes = d.tree.len() as u64;
        let lazy = d.tree.nodes().iter().filter(|n| n.lazy).count();
        drop(d);
        eprintln!(
            "dxcontainer-lazy: DXIL part with {} MiB of bitcode ({} bytes, {} nodes of which {} lazy, generated in {:.1?}; scale {})",
            bytes >> 20,
            data.len(),
            nodes,
            lazy,
            made,
            scale()
        );
        g.throughput(Throughput::ElementsAndBytes {
            elements: nodes,
            bytes: data.len() as u64,
        });
        g.bench_function(format!("decode_with/{}MiB", bytes >> 20), |b| {
            b.iter(|| {
                hexlens_core::decode_with(&black_box(data.as_slice()), &opts)
                    .tree
                    .len()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // Few samples of a few seconds each: every iteration decodes megabytes.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = decode, decode_lazy
}
criterion_main!(benches);
