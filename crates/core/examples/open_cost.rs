//! What opening a file and its groups costs when decoding on demand: decodes
//! each FILE with `stream::streaming_options()` (the root and its children, lazy
//! groups left closed), then opens lazy groups breadth first, one at a time, as
//! a viewer would, and prints the time to open the file, the slowest group
//! openings and the median.
//!
//! With `--viewer`, decodes as a viewer does instead: lazy groups and pages of
//! `STREAM_PAGE` entries, but no first pass over the whole file for exact
//! totals (counts a viewer shows as not yet known until a group is opened).
//!
//! With `--open PATH` (a path as the JSON contract writes it), opens only the
//! lazy groups on the way to PATH and PATH itself, five times from a fresh
//! decode, and prints each time PATH took to open: for profiling one group.
//!
//! ```text
//! cargo run --release -p hexlens-core --example open_cost -- [--groups N] [--viewer] [--open PATH] FILE...
//! ```

use hexlens_core::stream::streaming_options;
use hexlens_core::tree::NodeId;
use std::collections::VecDeque;
use std::time::Instant;

fn main() {
    let mut groups = 300usize;
    let mut files = Vec::new();
    let mut opts = streaming_options();
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--groups" {
            groups = args
                .next()
                .and_then(|n| n.parse().ok())
                .expect("--groups N");
        } else if a == "--open" {
            only = Some(args.next().expect("--open PATH"));
        } else if a == "--viewer" {
            opts.exact_totals = false;
        } else {
            files.push(a);
        }
    }
    for path in files {
        let data = std::fs::read(&path).expect("read the file");
        let src = data.as_slice();
        if let Some(target) = &only {
            open_one(&src, &opts, target);
            continue;
        }
        let t = Instant::now();
        let mut d = hexlens_core::decode_with(&src, &opts);
        let open = t.elapsed().as_secs_f64() * 1e3;
        println!(
            "{path}: {} bytes; open {open:.1} ms, {} nodes",
            data.len(),
            d.tree.len()
        );
        let mut queue: VecDeque<NodeId> = (0..d.tree.len() as NodeId)
            .filter(|&id| d.tree.is_lazy(id))
            .collect();
        let mut times: Vec<(f64, String, usize)> = Vec::new();
        while let Some(id) = queue.pop_front() {
            if times.len() >= groups {
                break;
            }
            let t = Instant::now();
            let Ok(made) = hexlens_core::expand(&src, &mut d.tree, id) else {
                continue;
            };
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let what = format!(
                "{}{}",
                d.tree.path(id),
                if d.tree.is_page(id) { " (page)" } else { "" }
            );
            times.push((ms, what, made.len()));
            queue.extend(made.filter(|&k| d.tree.is_lazy(k)));
        }
        if times.is_empty() {
            println!("  no lazy groups");
            continue;
        }
        let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
        sorted.sort_by(f64::total_cmp);
        println!(
            "  {} groups opened: median {:.2} ms, max {:.1} ms",
            times.len(),
            sorted[sorted.len() / 2],
            sorted[sorted.len() - 1]
        );
        times.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (ms, what, n) in times.iter().take(3) {
            println!("  {ms:8.1} ms  {what} ({n} nodes)");
        }
    }
}

/// Opens the lazy groups on the way to `target`, then `target`, five times from
/// a fresh decode; prints the time of the last step.
fn open_one(src: &&[u8], opts: &hexlens_core::Options, target: &str) {
    let steps: Vec<&str> = target.split('/').collect();
    for _ in 0..5 {
        let mut d = hexlens_core::decode_with(src, opts);
        let mut id = d.tree.root();
        let mut last = 0.0;
        for step in &steps {
            if d.tree.is_lazy(id) {
                let t = Instant::now();
                let _ = hexlens_core::expand(src, &mut d.tree, id);
                last = t.elapsed().as_secs_f64() * 1e3;
            }
            let Some(next) = d.tree.child_named(id, step) else {
                println!("  no {step} under {}", d.tree.path(id));
                return;
            };
            id = next;
        }
        if d.tree.is_lazy(id) {
            let t = Instant::now();
            let made = hexlens_core::expand(src, &mut d.tree, id).map_or(0, |m| m.len());
            last = t.elapsed().as_secs_f64() * 1e3;
            println!("  {target}: {last:.1} ms ({made} nodes)");
        } else {
            println!("  {target} is not a lazy group (last step {last:.1} ms)");
        }
    }
}
