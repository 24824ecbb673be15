//! The tree invariants every decode must satisfy, whatever the input, and a small
//! deterministic random generator for corruption sweeps, for the per-format
//! damage tests.
//!
//! The checks themselves live in one place, [`checks`](crate::checks) (the fuzz
//! targets run them after every input), so the damage sweeps hold every tree to
//! the same, stricter invariants: spans inside the file and nested in their
//! parents, one parent per node (a tree, no cycles), errors marking themselves
//! and all their ancestors damaged, the node-count bound, and a JSON rendering
//! that parses, spans the file and lists every error.

use crate::checks;

/// Checks the structure of a tree decoded from `len` bytes
/// ([`checks::check_tree`]); returns the first violation.
pub use checks::check_tree as check;

/// Checks that the JSON rendering parses, spans the file and lists every error of
/// the tree with a byte offset inside the file ([`checks::check_json`]).
pub use checks::check_json;

/// xorshift64*: deterministic, so a failing corruption reproduces.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
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
