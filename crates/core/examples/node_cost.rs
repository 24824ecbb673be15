//! What an eager tree costs: decodes each FILE eagerly (as `decode_bytes` does),
//! and prints its node count, the decode time and nodes a second, and the peak
//! memory the tree holds (a counting allocator) per node.
//!
//! ```text
//! cargo run --release -p hexlens-core --example node_cost -- FILE...
//! ```

use hexlens_testkit::alloc;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

fn main() {
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).expect("read the file");
        let before = alloc::live();
        let t = std::time::Instant::now();
        let (d, peak) = alloc::measure(|| hexlens_core::decode_bytes(&data));
        let secs = t.elapsed().as_secs_f64();
        let nodes = d.tree.len();
        let held = alloc::live().saturating_sub(before);
        println!(
            "{path}: {} bytes, {nodes} nodes, {secs:.3} s ({:.2} M nodes/s), tree holds {} bytes ({:.0} bytes a node), peak {:.0} bytes a node",
            data.len(),
            nodes as f64 / secs / 1e6,
            held,
            held as f64 / nodes as f64,
            peak as f64 / nodes as f64,
        );
    }
}
