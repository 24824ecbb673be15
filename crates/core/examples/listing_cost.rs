//! What a module's text costs in pieces, as the viewer asks for it
//! (`dis::ProgramText`): opening it (the module's records read, its bodies
//! left for later, what the module itself numbers numbered), the first
//! screen (the header and the first named types, which read the first
//! bodies), each function in order (its body read and numbered, then its
//! text), the tail; and, opened afresh, the last function first (every
//! body before it read). `bench/dis.sh` runs it on the dense modules:
//! `cargo run --release -p hexlens-core --example listing_cost FILE.bc`.
use hexlens_core::dis::ProgramText;
use std::time::{Duration, Instant};

fn main() {
    let p = std::env::args().nth(1).expect("a bitcode file");
    let bc = std::fs::read(&p).unwrap();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;

    let t = Instant::now();
    let mut text = ProgramText::bitcode(&bc, 0, &p, None);
    let open = t.elapsed();
    let bodies = text.module_unread().unwrap_or(0);
    let first_fn = text.function_piece(0);
    // The first screen: the header and the first types piece.
    let t = Instant::now();
    let screen = text.piece(0).len() + text.piece(1).len();
    let screen_t = t.elapsed();
    let read_for_screen = bodies - text.module_unread().unwrap_or(0);
    let t = Instant::now();
    let head: usize = (0..first_fn).map(|k| text.piece(k).len()).sum();
    let head_t = t.elapsed() + screen_t;
    // Each function's piece, in order: (time, lines, name).
    let mut each: Vec<(Duration, usize, String)> = Vec::new();
    for f in 0..text.functions() {
        let k = text.function_piece(f);
        let name = text.piece_name(k).unwrap_or("").to_string();
        let t = Instant::now();
        let n = text.piece(k).len();
        each.push((t.elapsed(), n, name));
    }
    let t = Instant::now();
    let tail: usize = (first_fn + text.functions()..text.pieces())
        .map(|k| text.piece(k).len())
        .sum();
    let tail_t = t.elapsed();

    // Afresh: the last function first.
    let mut fresh = ProgramText::bitcode(&bc, 0, &p, None);
    let t = Instant::now();
    let last = fresh.function_piece(fresh.functions().saturating_sub(1));
    let last_n = fresh.piece(last).len();
    let last_t = t.elapsed();

    let all: Duration = each.iter().map(|e| e.0).sum();
    let lines: usize = each.iter().map(|e| e.1).sum();
    let mut by_time = each.clone();
    by_time.sort_by_key(|e| e.0);
    let at = |q: f64| by_time[((by_time.len() - 1) as f64 * q) as usize].0;
    let (big_t, big_n, big) = each.iter().max_by_key(|e| e.1).cloned().unwrap_or_default();
    println!(
        "open: {:.1} ms ({bodies} bodies left to read, {} pieces)",
        ms(open),
        text.pieces()
    );
    println!(
        "first screen (header, first types): {screen} lines in {:.1} ms, {read_for_screen} bodies read",
        ms(screen_t)
    );
    println!("head: {head} lines in {:.1} ms", ms(head_t));
    println!(
        "functions: {} ({lines} lines) in {:.1} ms; each: median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        each.len(),
        ms(all),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(by_time.last().map_or(Duration::ZERO, |e| e.0))
    );
    println!("largest: {big} ({big_n} lines) in {:.3} ms", ms(big_t));
    println!("tail: {tail} lines in {:.1} ms", ms(tail_t));
    println!(
        "afresh, the last function first: {last_n} lines in {:.1} ms",
        ms(last_t)
    );
}
