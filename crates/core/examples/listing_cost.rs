//! What a module's text costs in pieces, as the viewer asks for it: reading
//! the module and numbering what its text numbers (once), then each
//! function's text alone. `bench/dis.sh` runs it on the dense modules:
//! `cargo run --release -p hexlens-core --example listing_cost FILE.bc`.
use std::time::{Duration, Instant};

fn main() {
    let p = std::env::args().nth(1).expect("a bitcode file");
    let bc = std::fs::read(&p).unwrap();
    let t = Instant::now();
    let m = hexlens_core::llvmir::read(&bc);
    let read = t.elapsed();
    let t = Instant::now();
    let mut l = hexlens_core::llvmir::write::Listing::new(m);
    let number = t.elapsed();
    let t = Instant::now();
    let head = l.head(&p).len();
    let head_t = t.elapsed();
    // Each function's text, timed alone: (time, lines, name).
    let mut each: Vec<(Duration, usize, String)> = Vec::new();
    for k in 0..l.functions() {
        let name = l.function_name(k).unwrap_or("").to_string();
        let t = Instant::now();
        let n = l.function(k).len();
        each.push((t.elapsed(), n, name));
    }
    let t = Instant::now();
    let tail = l.tail().len();
    let tail_t = t.elapsed();
    let all: Duration = each.iter().map(|e| e.0).sum();
    let lines: usize = each.iter().map(|e| e.1).sum();
    let mut by_time = each.clone();
    by_time.sort_by_key(|e| e.0);
    let at = |q: f64| by_time[((by_time.len() - 1) as f64 * q) as usize].0;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (big_t, big_n, big) = each.iter().max_by_key(|e| e.1).cloned().unwrap_or_default();
    println!(
        "module: read {:.1} ms, numbered {:.1} ms (once)",
        ms(read),
        ms(number)
    );
    println!(
        "head: {head} lines in {:.1} ms; tail: {tail} lines in {:.1} ms",
        ms(head_t),
        ms(tail_t)
    );
    println!(
        "functions: {} ({lines} lines) in {:.1} ms; each: median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        each.len(),
        ms(all),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(by_time.last().map_or(Duration::ZERO, |e| e.0))
    );
    println!("largest: {big} ({big_n} lines) in {:.3} ms", ms(big_t));
}
