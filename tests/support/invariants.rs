//! Structural invariants every decoded tree must satisfy, whatever the input, and a
//! small deterministic random generator for corruption sweeps. Shared by the
//! per-format damage tests through `#[path = "support/invariants.rs"] mod invariants;`.

#![allow(dead_code)]

use hexlens_core::{BitSpan, Decoded, Kind};

/// Checks a tree decoded from `len` bytes: the root spans the file; every span and
/// reference lies inside the file; every child lies inside its parent and points
/// back at it; derived nodes claim no bytes; errors are non-empty and every
/// ancestor of an error is marked damaged. Returns the first violation.
pub fn check(d: &Decoded, len: u64) -> Result<(), String> {
    let t = &d.tree;
    let file = BitSpan::bytes(0, len);
    let root = t.node(t.root());
    if root.span != file {
        return Err(format!(
            "root span {:?} is not the file {:?}",
            root.span, file
        ));
    }
    let mut any_error = false;
    for (i, n) in t.nodes().iter().enumerate() {
        let path = || t.path(i as u32);
        if !file.contains(&n.span) {
            return Err(format!("{} {:?} lies outside the file", path(), n.span));
        }
        if let Some(r) = n.reference {
            if !file.contains(&r) {
                return Err(format!("{} refers outside the file", path()));
            }
        }
        if n.kind == Kind::Derived && !n.span.is_empty() {
            return Err(format!("{} is derived but claims bytes", path()));
        }
        if let Some(e) = &n.error {
            any_error = true;
            if e.trim().is_empty() {
                return Err(format!("{} has an empty error", path()));
            }
            let mut p = n.parent;
            while let Some(pid) = p {
                if !t.node(pid).damaged {
                    return Err(format!(
                        "{} has an error but ancestor {} is not marked",
                        path(),
                        t.path(pid)
                    ));
                }
                p = t.node(pid).parent;
            }
        }
        for &c in &n.children {
            let cs = t.node(c).span;
            let inside = if cs.is_empty() {
                cs.start >= n.span.start && cs.start <= n.span.end
            } else {
                n.span.contains(&cs)
            };
            if !inside {
                return Err(format!(
                    "child {} {:?} is outside its parent {:?}",
                    t.path(c),
                    cs,
                    n.span
                ));
            }
            if t.node(c).parent != Some(i as u32) {
                return Err(format!(
                    "child {} does not point back at its parent",
                    t.path(c)
                ));
            }
        }
    }
    if any_error != root.damaged {
        return Err("root damaged flag disagrees with the errors present".into());
    }
    Ok(())
}

/// Checks that the JSON rendering of `d` parses and its error entries are well formed.
pub fn check_json(d: &Decoded) -> Result<(), String> {
    let json = hexlens_core::output::to_json(d);
    let v: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| format!("invalid JSON: {e}"))?;
    for err in v["errors"].as_array().ok_or("no errors array")? {
        if !(err["start"].is_u64()
            && err["end"].is_u64()
            && err["message"].is_string()
            && err["path"].is_string())
        {
            return Err(format!("malformed error entry {err}"));
        }
    }
    Ok(())
}

/// xorshift64*: deterministic, so a failing corruption reproduces.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Corrupts 1–6 bytes: small bit flips mixed with hostile 0x00 / 0xFF bytes.
    pub fn corrupt(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut m = bytes.to_vec();
        if m.is_empty() {
            return m;
        }
        for _ in 0..1 + self.below(6) {
            let at = self.below(m.len());
            m[at] = match self.below(4) {
                0 => 0xFF,
                1 => 0x00,
                _ => m[at] ^ (1 << self.below(8)),
            };
        }
        m
    }
}
