//! Resource bounds of every decode, measured deterministically: a counting global
//! allocator (per thread, so parallel tests measure only their own decodes)
//! records the peak bytes allocated while decoding each curated fixture, each
//! shared sample, each hostile file and each fuzz regression, and the test asserts
//! peak ≤ ALLOC_PER_BYTE · len + ALLOC_BASE and nodes ≤ NODES_PER_BYTE · len +
//! NODES_BASE (the constants and their measurement are in `crates/testkit/src/checks.rs` and
//! `fuzz/REPORT.md`). Run with `--nocapture` to see the measured figures.

use hexlens_testkit::repo::{dxcontainer_samples, files_under};
use hexlens_testkit::{alloc, checks, decoders, generators::hostile as gen, repo};
use std::path::Path;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// The worst figures seen over a set of decodes.
#[derive(Default)]
struct Worst {
    decodes: usize,
    /// Largest peak/len over inputs of at least 256 bytes, and where.
    per_byte: (f64, String),
    /// Largest peak on any input, and where.
    peak: (usize, String),
    /// Largest node count per byte over inputs of at least 256 bytes.
    nodes_per_byte: (f64, String),
    failures: Vec<String>,
}

impl Worst {
    fn measure(&mut self, target: &str, label: &str, data: &[u8]) {
        let len = data.len() as u64;
        let (d, peak) = alloc::measure(|| decoders::decode_for_target(target, data));
        self.decodes += 1;
        let at = format!("{target} {label} ({len} bytes)");
        if peak > self.peak.0 {
            self.peak = (peak, at.clone());
        }
        if len >= 256 {
            let r = peak as f64 / len as f64;
            if r > self.per_byte.0 {
                self.per_byte = (r, at.clone());
            }
            let n = d.tree.len() as f64 / len as f64;
            if n > self.nodes_per_byte.0 {
                self.nodes_per_byte = (n, at.clone());
            }
        }
        if let Err(e) = checks::check_alloc(peak, len) {
            self.failures.push(format!("{at}: {e}"));
        }
        if let Err(e) = checks::check_tree(&d, len) {
            self.failures.push(format!("{at}: {e}"));
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} decodes; peak allocation per byte (inputs >= 256 B) max {:.0} at {}; \
             largest peak {} bytes at {}; nodes per byte max {:.2} at {}",
            self.decodes,
            self.per_byte.0,
            self.per_byte.1,
            self.peak.0,
            self.peak.1,
            self.nodes_per_byte.0,
            self.nodes_per_byte.1
        );
        assert!(
            self.failures.is_empty(),
            "{} of {} decodes broke a bound:\n{}",
            self.failures.len(),
            self.decodes,
            self.failures.join("\n")
        );
    }
}

/// The fuzz target whose decoder a fixture is for: the folder a kept seed lies
/// in (`seeds/TARGET/HASH`), the start of its name (`TARGET-HASH`; the hostile
/// files `bitstream-…` are bitcode), or the fixture folder it is in.
fn target_for(path: &Path) -> String {
    let s = path.to_string_lossy();
    let targets: Vec<String> = decoders::targets().into_iter().map(|(t, _)| t).collect();
    let dir = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    if let Some(t) = targets.iter().find(|t| Some(t.as_str()) == dir.as_deref()) {
        return t.clone();
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("bitstream-") {
        return "bitcode".into();
    }
    for t in &targets {
        if name.starts_with(&format!("{t}-")) || name.starts_with(&format!("{t}_")) {
            return t.clone();
        }
    }
    if s.contains("/dxcontainer/") || s.contains("/generated/") {
        "dxcontainer"
    } else if s.contains("/dyno/") {
        "chapel_dyno"
    } else if s.contains("/cdac/") {
        "cdac"
    } else if s.contains("/llvm1/") {
        "llvm1_bytecode"
    } else if s.contains("/msf/") {
        "msf"
    } else {
        "detect"
    }
    .into()
}

#[test]
fn fixtures_and_regressions_decode_within_the_allocation_and_node_bounds() {
    let mut files = files_under(&repo::fixtures());
    // The fuzz campaigns' seed sets have a test of their own (below).
    files.retain(|p| !p.to_string_lossy().contains("fuzz-regressions/seeds/"));
    assert!(
        files.len() > 50,
        "expected the test fixtures, found {} files",
        files.len()
    );
    let mut w = Worst::default();
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let label = p
            .strip_prefix(repo::root())
            .unwrap_or(p)
            .display()
            .to_string();
        let target = target_for(p);
        let target = target.as_str();
        w.measure(target, &label, &data);
        if target != "detect" {
            w.measure("detect", &label, &data);
        }
    }
    w.report("fixtures");
}

/// What the fuzz campaigns kept (`tests/fixtures/fuzz-regressions`: the inputs
/// a target failed on and a minimised seed set per target), each decoded as its
/// fuzz target decodes (the comparison's and the search's inputs through
/// detection) and through detection: the inputs most likely to find a cost
/// that grows faster than the file.
#[test]
fn kept_fuzz_inputs_decode_within_the_allocation_and_node_bounds() {
    let dir = repo::fixtures().join("fuzz-regressions");
    let files = files_under(&dir);
    assert!(
        files.len() >= 10,
        "expected the kept fuzz inputs in {}, found {} files",
        dir.display(),
        files.len()
    );
    let mut w = Worst::default();
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let label = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
        let target = target_for(p);
        let target = target.as_str();
        w.measure(target, &label, &data);
        if target != "detect" {
            w.measure("detect", &label, &data);
        }
    }
    w.report("kept fuzz inputs");
}

#[test]
fn shared_samples_decode_within_the_allocation_and_node_bounds() {
    let files = files_under(&dxcontainer_samples());
    assert!(
        files.len() > 1000,
        "expected the DXContainer corpus, found {} files",
        files.len()
    );
    let mut w = Worst::default();
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let label = p.file_name().unwrap().to_string_lossy().into_owned();
        w.measure("detect", &label, &data);
    }
    w.report("shared samples");
}

/// The costliest input per byte that we know: an abbreviation of 2,000 literal
/// operands used by 3-bit records, so every few bits make thousands of derived
/// nodes until the builder's node budget (4096 + 12 · len) stops it. Its peak
/// allocation per byte is what the allocation bound must allow; it must still
/// fit, and come within a factor of the bound (so the bound is not vacuous).
#[test]
fn node_budget_exhaustion_is_the_worst_case_and_fits_the_allocation_bound() {
    let mut worst = 0f64;
    for records in [2_000usize, 20_000, 100_000] {
        let mut w = gen::Bits::bitcode();
        let at = w.enter(8, 3);
        w.fixed(2, 3).vbr(2000, 5);
        for _ in 0..2000 {
            w.fixed(1, 1).vbr(1, 8);
        }
        for _ in 0..records {
            w.fixed(4, 3);
        }
        w.end_block(3, at);
        let f = w.finish();
        let len = f.len() as u64;
        let (d, peak) = alloc::measure(|| decoders::decode_for_target("bitstream", &f));
        checks::check_tree(&d, len).unwrap();
        checks::check_alloc(peak, len).unwrap();
        assert!(
            d.tree.errors().iter().any(|&id| d
                .tree
                .node(id)
                .error
                .as_deref()
                .is_some_and(|e| e.contains("node budget"))),
            "the node budget was not reached"
        );
        let per_byte = peak as f64 / len as f64;
        println!(
            "node budget exhaustion: {len} bytes, {} nodes, peak {peak} bytes ({per_byte:.0} per byte)",
            d.tree.len()
        );
        worst = worst.max(per_byte);
    }
    // Within 4x of the per-byte constant: a bound far above any real cost would
    // not catch an allocation that grows with a count.
    assert!(
        worst * 4.0 > checks::ALLOC_PER_BYTE as f64,
        "worst case {worst:.0} bytes per byte is far below the bound"
    );
}
