//! The names of a module's functions and global values, read ahead of the
//! decoder (LLVM "LLVM Bitcode File Format": MODULE_BLOCK, VALUE_SYMTAB_BLOCK,
//! STRTAB_BLOCK; the reader's handling of `MODULE_CODE_FUNCTION` and of the
//! module-level symbol table in `llvm/lib/Bitcode/Reader/BitcodeReader.cpp`).
//!
//! A `FUNCTION_BLOCK` does not say which function it holds: the module's
//! `FUNCTION` records whose `isproto` operand is 0 (the functions with bodies)
//! are matched, in record order, with the module's `FUNCTION_BLOCK`s in order.
//! A function's name lies
//! - from `VERSION` 2 on, in the `STRTAB_BLOCK` after the module: the record's
//!   first two operands are the name's offset and size in the string table
//!   (`[strtab_offset, strtab_size, type, callingconv, isproto, …]`);
//! - before (LLVM 3.x, and DXIL, which is LLVM 3.7 bitcode), in the module-level
//!   `VALUE_SYMTAB_BLOCK`: `ENTRY [valueid, namechar…]` and, from LLVM 3.8,
//!   `FNENTRY [valueid, offset, namechar…]`, where value IDs count the module's
//!   `GLOBALVAR`, `FUNCTION`, `ALIAS` and `IFUNC` records in record order
//!   (`[type, callingconv, isproto, …]`).
//!
//! The string table follows the module and LLVM 3.8 to 4.0 write the symbol
//! table after the function blocks, so the decoder cannot learn a name before
//! it meets the block. [`Decoder::module_names`] is run as the module block is
//! entered: it reads the module body's own records up to its first
//! `FUNCTION_BLOCK` (LLVM writes every `FUNCTION` record before the bodies, and
//! its reader matches only those), skipping sub-blocks by their `NumWords`
//! except BLOCKINFO (whose abbreviations the symbol table uses) and the symbol
//! table; then it skips the top-level blocks after the module up to the string
//! table. Only when the names are in a symbol table not yet met does it read
//! on to the module's end. It makes no nodes and reports nothing: where it
//! cannot read on, the names found so far stand and the rest are not known.
//! The decoder then gives the `k`-th `FUNCTION_BLOCK` of the module the `k`-th
//! name ([`ModuleNames::function`]), the same in an eager, a lazy and a
//! streamed decode.

use super::abbrev::{char6, Abbrev, AbbrevOp, Encoding};
use super::context::{ModuleNames, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, UNABBREV_RECORD};
use super::decode::{Decoder, Scan};
use super::names::{self, FUNCTION_BLOCK};
use crate::tree::BitSpan;
use std::sync::Arc;

/// Bytes of a name kept. Labels show a name's first 80 characters (then `…`),
/// and 400 bytes hold more than 80 characters whatever their UTF-8 length, so
/// a label is the same as with the whole name, while a hostile module whose
/// records all name one long string cannot make the pre-pass hold much.
const MAX_NAME: usize = 400;

/// Bytes of symbol-table names kept at most: a symbol table beyond it (far
/// beyond any real module's) is not read further, so a hostile one cannot make
/// the pre-pass hold more than this.
const NAME_BUDGET: usize = 16 << 20;

/// A record read whole by the pre-pass: its code, its first operands (arrays
/// flattened) and where its blob lies (bit, bytes).
struct Record {
    code: u64,
    ops: Vec<u64>,
    blob: Option<(u64, u64)>,
}

/// What the walk over the module body gathers.
#[derive(Default)]
struct Gathered {
    version: u64,
    /// Global value records seen (the next value ID).
    values: u64,
    /// Functions with bodies: value ID, and name in the string table (offset,
    /// size) from `VERSION` 2 on.
    defined: Vec<(u64, Option<(u64, u64)>)>,
    /// Before `VERSION` 2, the symbol table's names by value ID (only for the
    /// values counted when it is met) and the bits of the records giving them.
    symbols: Vec<Option<(Arc<str>, BitSpan)>>,
    /// A symbol table was read.
    symtab: bool,
    /// Bytes of names the symbol table may still add (see [`NAME_BUDGET`]).
    budget: usize,
}

impl Decoder<'_> {
    /// The names of the functions and global values of the module whose body
    /// runs from bit `body` to `end` with abbreviation IDs of `width` bits;
    /// `top_limit` ends the top-level blocks (where the string table is looked
    /// for). `None` when it learns no name. The BLOCKINFO state is left as it
    /// was.
    pub(super) fn module_names(
        &mut self,
        body: u64,
        end: u64,
        width: u64,
        top_limit: u64,
    ) -> Option<Arc<ModuleNames>> {
        let saved = Arc::clone(&self.info);
        let mut g = Gathered {
            budget: NAME_BUDGET,
            ..Gathered::default()
        };
        // A walk that stops early keeps what it gathered.
        let _ = self.walk_module(body, end, width, &mut g);
        let strtab = if g.version >= 2 && !g.defined.is_empty() {
            self.find_strtab(end, top_limit)
        } else {
            None
        };
        self.info = saved;
        let mut out = ModuleNames::default();
        if g.version < 2 {
            out.values = g.symbols;
        }
        for &(id, strtab_ref) in &g.defined {
            let name = if g.version >= 2 {
                match (strtab, strtab_ref) {
                    (Some(blob), Some(r)) => self.strtab_name(blob, r),
                    _ => None,
                }
            } else {
                out.value(id).map(|(n, _)| n)
            };
            out.functions.push(name);
        }
        let known =
            out.functions.iter().any(Option::is_some) || out.values.iter().any(Option::is_some);
        known.then(|| Arc::new(out))
    }

    /// Reads the module body's entries into `g` up to its first
    /// `FUNCTION_BLOCK` (to its `END_BLOCK` when the names are in a symbol
    /// table not yet read); `None` where it cannot read on.
    fn walk_module(&mut self, mut pos: u64, end: u64, width: u64, g: &mut Gathered) -> Option<()> {
        let mut abbrevs: Vec<Arc<Abbrev>> = self.info.abbrevs(names::MODULE_BLOCK).to_vec();
        loop {
            if pos.saturating_add(width) > end {
                return None;
            }
            match self.peek(pos, width) {
                END_BLOCK => return Some(()),
                ENTER_SUBBLOCK => {
                    let (bid, w, body, sub_end) = self.block_header(pos, width, end)?;
                    match bid {
                        names::BLOCKINFO_BLOCK => self.skim_blockinfo(w, body, sub_end)?,
                        // From VERSION 2 on, names are in the string table.
                        names::VALUE_SYMTAB_BLOCK if g.version < 2 => {
                            // One slot per value counted so far: the module's
                            // records (which the decoder makes nodes of) bound it.
                            let n = usize::try_from(g.values).ok()?;
                            if g.symbols.len() < n {
                                g.symbols.resize(n, None);
                            }
                            // A damaged symbol table keeps the names before the damage.
                            let _ = self.walk_symtab(body, sub_end, w, g);
                            g.symtab = true;
                        }
                        FUNCTION_BLOCK if g.version >= 2 || g.symtab => return Some(()),
                        _ => {}
                    }
                    pos = sub_end;
                }
                DEFINE_ABBREV => {
                    let (a, p) = self.read_define(pos + width, end)?;
                    abbrevs.push(a);
                    pos = p;
                }
                id => {
                    // Only VERSION's and FUNCTION's first operands are needed.
                    let keep = |code| match code {
                        1 => 1,
                        8 => 5,
                        _ => 0,
                    };
                    let (r, p) = self.read_record(pos + width, end, id, &abbrevs, keep)?;
                    pos = p;
                    match (r.code, r.ops.as_slice()) {
                        (1, [v, ..]) => g.version = *v,
                        (8, ops) => {
                            let (isproto, name) = if g.version >= 2 {
                                let name = match ops {
                                    [o, s, ..] => Some((*o, *s)),
                                    _ => None,
                                };
                                (ops.get(4), name)
                            } else {
                                (ops.get(2), None)
                            };
                            if isproto == Some(&0) {
                                g.defined.push((g.values, name));
                            }
                            g.values += 1;
                        }
                        // GLOBALVAR, ALIAS_OLD, ALIAS, IFUNC: values too.
                        (7 | 9 | 14 | 18, _) => g.values += 1,
                        _ => {}
                    }
                }
            }
        }
    }

    /// The names a `VALUE_SYMTAB_BLOCK` body gives (`ENTRY`, `FNENTRY`) to the
    /// values `g` has slots for; `None` where it cannot read on or the names
    /// exceed the budget.
    fn walk_symtab(&mut self, mut pos: u64, end: u64, width: u64, g: &mut Gathered) -> Option<()> {
        let mut abbrevs: Vec<Arc<Abbrev>> = self.info.abbrevs(names::VALUE_SYMTAB_BLOCK).to_vec();
        loop {
            if pos.saturating_add(width) > end {
                return None;
            }
            match self.peek(pos, width) {
                END_BLOCK => return Some(()),
                ENTER_SUBBLOCK => pos = self.block_header(pos, width, end)?.3,
                DEFINE_ABBREV => {
                    let (a, p) = self.read_define(pos + width, end)?;
                    abbrevs.push(a);
                    pos = p;
                }
                id => {
                    let (r, p) =
                        self.read_record(pos + width, end, id, &abbrevs, |_| MAX_NAME + 2)?;
                    let from = match r.code {
                        1 => 1,
                        3 => 2,
                        _ => usize::MAX,
                    };
                    let slot = r
                        .ops
                        .first()
                        .and_then(|&id| usize::try_from(id).ok())
                        .and_then(|id| g.symbols.get_mut(id));
                    if let (Some(slot), Some(chars)) = (slot, r.ops.get(from..)) {
                        if !chars.is_empty() {
                            g.budget = g.budget.checked_sub(chars.len())?;
                            let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
                            let name: Arc<str> = String::from_utf8_lossy(&bytes).into();
                            *slot = Some((name, BitSpan { start: pos, end: p }));
                        }
                    }
                    pos = p;
                }
            }
        }
    }

    /// Where the string table's blob lies (bit, bytes): the first `STRTAB_BLOCK`
    /// among the top-level blocks from bit `pos` to `limit`.
    fn find_strtab(&mut self, mut pos: u64, limit: u64) -> Option<(u64, u64)> {
        while pos.saturating_add(2) <= limit {
            if self.peek(pos, 2) != ENTER_SUBBLOCK {
                return None;
            }
            let (bid, width, body, end) = self.block_header(pos, 2, limit)?;
            if bid == names::STRTAB_BLOCK {
                return self.strtab_blob(body, end, width);
            }
            pos = end;
        }
        None
    }

    /// The blob of the first `BLOB` record of a `STRTAB_BLOCK` body.
    fn strtab_blob(&mut self, mut pos: u64, end: u64, width: u64) -> Option<(u64, u64)> {
        let mut abbrevs: Vec<Arc<Abbrev>> = self.info.abbrevs(names::STRTAB_BLOCK).to_vec();
        loop {
            if pos.saturating_add(width) > end {
                return None;
            }
            match self.peek(pos, width) {
                END_BLOCK => return None,
                ENTER_SUBBLOCK => pos = self.block_header(pos, width, end)?.3,
                DEFINE_ABBREV => {
                    let (a, p) = self.read_define(pos + width, end)?;
                    abbrevs.push(a);
                    pos = p;
                }
                id => {
                    let (r, p) = self.read_record(pos + width, end, id, &abbrevs, |_| 0)?;
                    if let (1, Some(blob)) = (r.code, r.blob) {
                        return Some(blob);
                    }
                    pos = p;
                }
            }
        }
    }

    /// The name `(offset, size)` in the string table blob `(bit, bytes)`;
    /// `None` when it does not lie inside the blob or is empty.
    fn strtab_name(&self, (at, len): (u64, u64), (offset, size): (u64, u64)) -> Option<Arc<str>> {
        if size == 0 || offset.checked_add(size)? > len {
            return None;
        }
        let n = size.min(MAX_NAME as u64);
        let from = at.checked_add(offset.checked_mul(8)?)?;
        let mut bytes = Vec::with_capacity(n as usize);
        let mut k = 0;
        while k < n {
            let take = (n - k).min(8);
            let word = self.peek(from + k * 8, take * 8);
            bytes.extend((0..take).map(|i| (word >> (8 * i)) as u8));
            k += take;
        }
        Some(String::from_utf8_lossy(&bytes).into())
    }

    /// A `DEFINE_ABBREV` whose `NumOps` is at bit `pos`: the abbreviation and
    /// the bit after it; `None` if it is malformed.
    fn read_define(&self, pos: u64, limit: u64) -> Option<(Arc<Abbrev>, u64)> {
        let Scan::Ok(n, w) = self.scan_vbr(pos, 5, 32, limit) else {
            return None;
        };
        let mut p = pos + w;
        if n == 0 || n.saturating_mul(4) > limit.saturating_sub(p) {
            return None;
        }
        let mut ops = Vec::new();
        for _ in 0..n {
            let start = p;
            let enc = self.skim_abbrev_op(&mut p, limit)?;
            ops.push(AbbrevOp {
                enc,
                def: BitSpan { start, end: p },
            });
        }
        if Abbrev::validate(&ops).is_some() {
            return None;
        }
        let a = Abbrev {
            ops,
            def: BitSpan { start: pos, end: p },
            problem: None,
        };
        Some((Arc::new(a), p))
    }

    /// Skips `n` `vbr6` operands from bit `p`, ten chunks at a time: where the
    /// last one ends, or `None` where [`Decoder::scan_vbr`] (up to 64 bits of
    /// value) would not read one of them (past `limit`, or 13 chunks that all
    /// say more follow).
    pub(super) fn skip_vbr6s(&self, mut p: u64, mut n: u64, limit: u64) -> Option<u64> {
        /// Bit 5 (the continuation bit) of each of ten 6-bit chunks.
        const MORE: u64 = 0x0820_8208_2082_0820;
        /// Continuation chunks after which a `vbr6` carries 64 bits of value.
        const MAX_RUN: u64 = 13;
        // Continuation chunks since the last operand ended.
        let mut run = 0u64;
        while n > 0 {
            let chunks = (limit.saturating_sub(p) / 6).min(10);
            if chunks == 0 {
                return None;
            }
            let word = self.peek(p, chunks * 6);
            let mut ends = !word & MORE & ((1u64 << (chunks * 6)) - 1);
            let mut used = 0u64;
            while ends != 0 && n > 0 {
                let c = ends.trailing_zeros() as u64 / 6;
                if run + (c - used) >= MAX_RUN {
                    return None;
                }
                run = 0;
                used = c + 1;
                n -= 1;
                ends &= ends - 1;
            }
            if n == 0 {
                return Some(p + used * 6);
            }
            run += chunks - used;
            if run >= MAX_RUN {
                return None;
            }
            p += chunks * 6;
        }
        Some(p)
    }

    /// One scalar field at `*p` (a char6 field gives its character).
    fn read_scalar(&self, p: &mut u64, enc: Encoding, limit: u64) -> Option<u64> {
        let v = self.skim_scalar(p, enc, limit)?;
        Some(if enc == Encoding::Char6 {
            char6(v) as u64
        } else {
            v
        })
    }

    /// The record with abbreviation ID `id` whose fields start at bit `pos`
    /// (after the ID), keeping as many of its first operand values as `keep`
    /// says for its code: the record and the bit after it; `None` if it
    /// cannot be read.
    fn read_record(
        &self,
        pos: u64,
        limit: u64,
        id: u64,
        abbrevs: &[Arc<Abbrev>],
        keep: impl Fn(u64) -> usize,
    ) -> Option<(Record, u64)> {
        let mut p = pos;
        let mut ops: Vec<u64> = Vec::new();
        let mut blob = None;
        if id == UNABBREV_RECORD {
            let Scan::Ok(code, w) = self.scan_vbr(p, 6, 32, limit) else {
                return None;
            };
            p += w;
            let Scan::Ok(n, w) = self.scan_vbr(p, 6, 32, limit) else {
                return None;
            };
            p += w;
            if n.saturating_mul(6) > limit.saturating_sub(p) {
                return None;
            }
            let keep = (keep(code) as u64).min(n);
            for _ in 0..keep {
                let Scan::Ok(v, w) = self.scan_vbr(p, 6, 64, limit) else {
                    return None;
                };
                ops.push(v);
                p += w;
            }
            p = self.skip_vbr6s(p, n - keep, limit)?;
            return Some((Record { code, ops, blob }, p));
        }
        let a = abbrevs.get(usize::try_from(id.checked_sub(4)?).ok()?)?;
        if a.problem.is_some() {
            return None;
        }
        let code = match a.ops.first()?.enc {
            Encoding::Literal(v) => v,
            enc => self.read_scalar(&mut p, enc, limit)?,
        };
        let keep = keep(code);
        let mut k = 1;
        while let Some(op) = a.ops.get(k) {
            match op.enc {
                Encoding::Literal(v) => {
                    if ops.len() < keep {
                        ops.push(v);
                    }
                }
                Encoding::Array => {
                    let elt = a.ops.get(k + 1)?.enc;
                    let Scan::Ok(n, w) = self.scan_vbr(p, 6, 32, limit) else {
                        return None;
                    };
                    p += w;
                    if n.saturating_mul(elt.min_bits()) > limit.saturating_sub(p) {
                        return None;
                    }
                    for _ in 0..n {
                        if ops.len() < keep {
                            ops.push(self.read_scalar(&mut p, elt, limit)?);
                            continue;
                        }
                        // The value is not needed: only where the element ends.
                        p = match elt {
                            Encoding::Vbr(6) => self.skip_vbr6(p, limit)?,
                            Encoding::Fixed(w) => {
                                Some(p.saturating_add(w)).filter(|&e| e <= limit)?
                            }
                            _ => {
                                self.read_scalar(&mut p, elt, limit)?;
                                p
                            }
                        };
                    }
                    k += 1;
                }
                Encoding::Blob => {
                    let Scan::Ok(n, w) = self.scan_vbr(p, 6, 32, limit) else {
                        return None;
                    };
                    p += w;
                    p = p.checked_add(self.align_gap(p))?;
                    let pad = (4 - n % 4) % 4;
                    if n.saturating_add(pad) > limit.saturating_sub(p) / 8 {
                        return None;
                    }
                    blob = Some((p, n));
                    p += (n + pad) * 8;
                }
                enc => {
                    let v = self.read_scalar(&mut p, enc, limit)?;
                    if ops.len() < keep {
                        ops.push(v);
                    }
                }
            }
            k += 1;
        }
        Some((Record { code, ops, blob }, p))
    }
}

#[cfg(test)]
mod tests {
    use super::super::decode::{Decoder, Scan};
    use super::super::skim::noisy_bytes;
    use crate::builder::Builder;

    /// Skipping `n` `vbr6` operands at once ends where reading them one by
    /// one does, and fails where that fails, for many positions, counts and
    /// ends of pseudo-random streams (long and unterminated values included).
    #[test]
    fn skipping_many_vbr6_ends_where_reading_them_one_by_one_ends() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for round in 0..120 {
            let bytes = noisy_bytes(&mut x, 40, round % 2 == 0);
            let src = bytes.as_slice();
            let b = Builder::new(&src, "t");
            let d = Decoder::new(&b, 0, bytes.len() as u64, 0);
            let bits = bytes.len() as u64 * 8;
            for p in (0..bits).step_by(3) {
                for n in [0, 1, 2, 5, 9, 10, 11, 23] {
                    let limit = bits - (round % 30) as u64;
                    let mut want = Some(p);
                    for _ in 0..n {
                        want = want.and_then(|q| match d.scan_vbr(q, 6, 64, limit) {
                            Scan::Ok(_, w) => Some(q + w),
                            _ => None,
                        });
                    }
                    assert_eq!(
                        d.skip_vbr6s(p, n, limit),
                        want,
                        "round {round}, bit {p}, {n} operands, limit {limit}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000);
    }
}
