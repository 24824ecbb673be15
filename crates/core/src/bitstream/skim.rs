//! The skim: reads a bitstream's entries as the decoder does, bit for bit, but
//! makes no nodes. It serves two ends:
//!
//! - **Totals** ([`Decoder::skim_stream`]): the counts an eager decode would show
//!   on the root (blocks, records, abbreviation definitions), for a decode that
//!   leaves most blocks lazy.
//! - **Pages** ([`Decoder::skim_pages`]): where every `n`-th entry of a block's
//!   body starts and which abbreviations are in force there, so that each page
//!   of entries can be decoded on its own.
//!
//! A skim is strict: it gives up (returns `None`) wherever the decoder would
//! record an error (a field running past its block, an undefined or malformed
//! abbreviation, a `NumWords` that does not match the `END_BLOCK`, a
//! `METADATA_STRINGS` or `STRTAB` blob that does not hold what its records say,
//! BLOCKINFO records out of order, blocks nested too deep, and bodies whose
//! records would make more nodes than the builder's budget allows). So a stream
//! it accepts decodes without an error, and the decoder only leaves parts lazy
//! in a stream the skim accepted when it is asked for exact totals: a lazy node
//! then never hides damage.

use super::abbrev::{Abbrev, AbbrevOp, BlockInfo, Encoding, MAX_FIXED_WIDTH, MAX_VBR_WIDTH};
use super::context::{
    PageIndex, PageMark, Pages, DEFINE_ABBREV, END_BLOCK, ENTER_SUBBLOCK, UNABBREV_RECORD,
};
use super::decode::{Decoder, Scan, Stats, MAX_DEPTH};
use super::names;
use crate::tree::BitSpan;
use std::sync::Arc;

/// Nodes per byte a skimmed stream may make at most; beyond it the decoder
/// decodes eagerly (its node budget, 12 a byte, is then what bounds it). Real
/// bitcode makes about 1.2.
const MAX_NODES_PER_BYTE: u64 = 6;

/// What a skim tracks besides the position.
struct State {
    stats: Stats,
    /// Approximate node count, to stay clear of the builder's budget.
    nodes: u64,
    /// Whether nested blocks are read (totals) or skipped by `NumWords` (pages).
    deep: bool,
    /// The module's `VERSION` and the string-table names its records use.
    module_version: u64,
    strtab_refs: Vec<(u64, u64)>,
    /// With a page size: the pages of every body below the top level that holds
    /// more entries than a page, by the bit its body starts at.
    pages: Option<(u32, PageIndex)>,
}

impl State {
    /// Nothing counted yet; `deep`: nested blocks are read; `pages`: the page
    /// size whose pages are gathered.
    fn new(deep: bool, pages: Option<u32>) -> State {
        State {
            stats: Stats::default(),
            nodes: 0,
            deep,
            module_version: 0,
            strtab_refs: Vec::new(),
            pages: pages.map(|n| (n.max(1), PageIndex::new())),
        }
    }
}

/// Whether a body of this block may be paged: not BLOCKINFO (which later blocks
/// depend on), the module (whose records the string table names) or the string
/// table.
fn pageable(block_id: u64) -> bool {
    !matches!(
        block_id,
        names::BLOCKINFO_BLOCK | names::MODULE_BLOCK | names::STRTAB_BLOCK
    )
}

impl Decoder<'_> {
    /// Skims the top-level blocks of the stream from bit `pos` to `limit` (the
    /// end of `Blocks`) and returns what an eager decode would count, or `None`
    /// where the decoder would record an error. The BLOCKINFO state is left as
    /// it was.
    /// With `page_size`, it also returns the pages of every body that a page
    /// does not hold (see [`PageIndex`]).
    pub(crate) fn skim_stream(
        &mut self,
        pos: u64,
        limit: u64,
        page_size: Option<u32>,
    ) -> Option<(Stats, PageIndex)> {
        let saved = Arc::clone(&self.info);
        let mut st = State::new(true, page_size);
        let r = self.skim_top(pos, limit, &mut st);
        self.info = saved;
        let bytes = limit.saturating_sub(pos) / 8;
        let fits = st.nodes
            <= bytes
                .saturating_mul(MAX_NODES_PER_BYTE)
                .saturating_add(4096);
        (r.is_some() && fits).then(|| (st.stats, st.pages.map(|p| p.1).unwrap_or_default()))
    }

    fn skim_top(&mut self, mut pos: u64, limit: u64, st: &mut State) -> Option<()> {
        loop {
            if pos >= limit {
                return Some(());
            }
            let id = self.peek(pos, 2);
            if id == END_BLOCK && self.all_zero(pos, limit) {
                return Some(());
            }
            if id != ENTER_SUBBLOCK {
                return None;
            }
            pos = self.skim_block(pos, 2, 1, limit, st)?;
        }
    }

    /// Skims the body of a block (block ID `block_id`, abbreviation IDs of
    /// `width` bits, `depth` deep, body from bit `body` to `limit`, the BLOCKINFO
    /// state `info` in force where it starts) and marks a page every `page_size`
    /// entries. Nested blocks are skipped by their `NumWords`; a body holding a
    /// BLOCKINFO block, or anything the decoder would report, gives `None`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn skim_pages(
        &mut self,
        block_id: u64,
        width: u64,
        depth: u32,
        body: u64,
        limit: u64,
        info: &Arc<BlockInfo>,
        page_size: u32,
    ) -> Option<Pages> {
        if !pageable(block_id) {
            return None;
        }
        let mut st = State::new(false, None);
        let mut marks = Vec::new();
        let saved = Arc::clone(&self.info);
        let r = self.skim_entries(
            block_id,
            width,
            depth,
            body,
            limit,
            info,
            &mut st,
            Some((page_size.max(1), &mut marks)),
        );
        self.info = saved;
        let (end, entries) = r?;
        let bytes = limit.saturating_sub(body) / 8;
        if st.nodes
            > bytes
                .saturating_mul(MAX_NODES_PER_BYTE)
                .saturating_add(4096)
        {
            return None;
        }
        Some(Pages {
            marks,
            entries,
            end,
        })
    }

    /// Reads the body of a BLOCKINFO block (abbreviation IDs of `width` bits,
    /// from bit `body` to `end`, directly inside the module) into the decoder's
    /// BLOCKINFO state as the decoder would; `None` where the decoder would
    /// report something (the state is then what was read before it).
    pub(super) fn skim_blockinfo(&mut self, width: u64, body: u64, end: u64) -> Option<()> {
        let mut st = State::new(true, None);
        let info = Arc::clone(&self.info);
        let (e, _) = self.skim_entries(
            names::BLOCKINFO_BLOCK,
            width,
            2,
            body,
            end,
            &info,
            &mut st,
            None,
        )?;
        (e == end).then_some(())
    }

    /// Bits `p` must skip to reach the next multiple of 32 from the stream start.
    pub(super) fn align_gap(&self, p: u64) -> u64 {
        let rel = p.wrapping_sub(self.align_base) % 32;
        if rel == 0 {
            0
        } else {
            32 - rel
        }
    }

    /// The header of the block whose `ENTER_SUBBLOCK` (an abbreviation ID of
    /// `outer_width` bits) is at bit `pos`: its block ID, abbreviation width,
    /// and the bits where its body starts and ends, inside `limit`. The one
    /// reading of a block header that makes no nodes (the skim's and the
    /// symbol gathering's); the decoder's own records each field as a node.
    pub(super) fn block_header(
        &self,
        pos: u64,
        outer_width: u64,
        limit: u64,
    ) -> Option<(u64, u64, u64, u64)> {
        let mut p = pos.checked_add(outer_width)?;
        let Scan::Ok(bid, n) = self.scan_vbr(p, 8, 32, limit) else {
            return None;
        };
        p += n;
        let Scan::Ok(width, n) = self.scan_vbr(p, 4, 32, limit) else {
            return None;
        };
        p += n;
        if width == 0 || width > MAX_VBR_WIDTH {
            return None;
        }
        p = p.checked_add(self.align_gap(p))?;
        if p.saturating_add(32) > limit {
            return None;
        }
        let words = self.peek(p, 32);
        p += 32;
        let end = p.checked_add(words.checked_mul(32)?)?;
        (end <= limit).then_some((bid, width, p, end))
    }

    /// A block from its `ENTER_SUBBLOCK` at `pos`; returns the bit after it.
    fn skim_block(
        &mut self,
        pos: u64,
        outer_width: u64,
        depth: u32,
        limit: u64,
        st: &mut State,
    ) -> Option<u64> {
        let (bid, width, p, end) = self.block_header(pos, outer_width, limit)?;
        if depth > MAX_DEPTH {
            return None;
        }
        st.stats.blocks += 1;
        // Block header nodes: the group, AbbrevID, BlockID, AbbrevWidth, Align,
        // NumWords, Body, END_BLOCK and its two fields.
        st.nodes += 10;
        if bid == names::MODULE_BLOCK {
            st.module_version = 0;
        }
        if st.deep || bid == names::BLOCKINFO_BLOCK {
            if !st.deep {
                // A BLOCKINFO block inside a paged body would change what the
                // blocks after it mean: such a body is decoded whole.
                return None;
            }
            let info = Arc::clone(&self.info);
            let page = match st.pages {
                Some((n, _)) if depth >= 2 && pageable(bid) => Some(n),
                _ => None,
            };
            let mut marks = Vec::new();
            let (e, entries) = self.skim_entries(
                bid,
                width,
                depth,
                p,
                end,
                &info,
                st,
                page.map(|n| (n, &mut marks)),
            )?;
            if e != end {
                return None;
            }
            if let (Some(n), Some((_, index))) = (page, st.pages.as_mut()) {
                if entries > n as u64 {
                    index.insert(
                        p,
                        Arc::new(Pages {
                            marks,
                            entries,
                            end,
                        }),
                    );
                }
            }
        }
        Some(end)
    }

    /// The entries of a body up to its `END_BLOCK`: returns the bit after it and
    /// the number of entries before it.
    #[allow(clippy::too_many_arguments)]
    fn skim_entries(
        &mut self,
        block_id: u64,
        width: u64,
        depth: u32,
        mut pos: u64,
        limit: u64,
        info: &Arc<BlockInfo>,
        st: &mut State,
        mut pages: Option<(u32, &mut Vec<PageMark>)>,
    ) -> Option<(u64, u64)> {
        if block_id == names::BLOCKINFO_BLOCK {
            self.info = Arc::new(BlockInfo::default());
        }
        let mut abbrevs: Vec<Arc<Abbrev>> = info.abbrevs(block_id).to_vec();
        let mut cur_bid: Option<u64> = None;
        let mut i = 0u64;
        loop {
            if pos.saturating_add(width) > limit {
                return None;
            }
            let id = self.peek(pos, width);
            if id == END_BLOCK {
                let p = pos + width;
                let p = p.checked_add(self.align_gap(p))?;
                if p > limit {
                    return None;
                }
                return Some((p, i));
            }
            if let Some((n, marks)) = pages.as_mut() {
                if i.is_multiple_of(*n as u64) {
                    marks.push(PageMark {
                        index: u32::try_from(i).ok()?,
                        bit: pos,
                        abbrevs: abbrevs.clone(),
                    });
                }
            }
            pos = match id {
                ENTER_SUBBLOCK => self.skim_block(pos, width, depth + 1, limit, st)?,
                DEFINE_ABBREV => {
                    self.skim_define(pos, width, limit, block_id, &mut abbrevs, cur_bid, st)?
                }
                UNABBREV_RECORD => {
                    self.skim_unabbreviated(pos, width, limit, block_id, &mut cur_bid, st)?
                }
                id => self.skim_abbreviated(pos, width, limit, block_id, id, &abbrevs, st)?,
            };
            i += 1;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn skim_define(
        &mut self,
        pos: u64,
        width: u64,
        limit: u64,
        block_id: u64,
        abbrevs: &mut Vec<Arc<Abbrev>>,
        cur_bid: Option<u64>,
        st: &mut State,
    ) -> Option<u64> {
        let mut p = pos + width;
        let Scan::Ok(n, w) = self.scan_vbr(p, 5, 32, limit) else {
            return None;
        };
        p += w;
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
        st.nodes += 3 + n;
        let a = Arc::new(Abbrev {
            ops,
            def: BitSpan { start: pos, end: p },
            problem: None,
        });
        if block_id == names::BLOCKINFO_BLOCK {
            Arc::make_mut(&mut self.info).add_abbrev(cur_bid?, a);
        } else {
            abbrevs.push(a);
        }
        st.stats.abbrev_defs += 1;
        Some(p)
    }

    /// One operand definition of a `DEFINE_ABBREV` (as `Decoder::abbrev_op`).
    pub(super) fn skim_abbrev_op(&self, p: &mut u64, limit: u64) -> Option<Encoding> {
        let pos = *p;
        if pos.saturating_add(1) > limit {
            return None;
        }
        if self.peek(pos, 1) == 1 {
            let Scan::Ok(v, n) = self.scan_vbr(pos + 1, 8, 64, limit) else {
                return None;
            };
            *p = pos + 1 + n;
            return Some(Encoding::Literal(v));
        }
        if pos.saturating_add(4) > limit {
            return None;
        }
        let e = self.peek(pos + 1, 3);
        let enc = match e {
            1 | 2 => {
                let Scan::Ok(w, n) = self.scan_vbr(pos + 4, 5, 64, limit) else {
                    return None;
                };
                *p = pos + 4 + n;
                if w == 0 {
                    return Some(Encoding::Literal(0));
                }
                if e == 1 {
                    if w > MAX_FIXED_WIDTH {
                        return None;
                    }
                    return Some(Encoding::Fixed(w));
                }
                if !(2..=MAX_VBR_WIDTH).contains(&w) {
                    return None;
                }
                return Some(Encoding::Vbr(w));
            }
            3 => Encoding::Array,
            4 => Encoding::Char6,
            5 => Encoding::Blob,
            _ => return None,
        };
        *p = pos + 4;
        Some(enc)
    }

    fn skim_unabbreviated(
        &mut self,
        pos: u64,
        width: u64,
        limit: u64,
        block_id: u64,
        cur_bid: &mut Option<u64>,
        st: &mut State,
    ) -> Option<u64> {
        let mut p = pos + width;
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
        // Only the first operands matter to what follows; the rest are skipped.
        let mut first = [0u64; 2];
        let mut vals: Vec<u64> = Vec::new();
        let keep_all = block_id == names::BLOCKINFO_BLOCK;
        for k in 0..n {
            if k >= 2 && !keep_all {
                p = self.skip_vbr6(p, limit)?;
                continue;
            }
            let Scan::Ok(v, w) = self.scan_vbr(p, 6, 64, limit) else {
                return None;
            };
            p += w;
            if k < 2 {
                first[k as usize] = v;
            }
            if keep_all {
                vals.push(v);
            }
        }
        st.nodes += 5 + n;
        if !keep_all {
            vals.extend_from_slice(&first[..(n.min(2) as usize)]);
        }
        self.skim_finish(block_id, code, &vals, n, cur_bid, st)?;
        Some(p)
    }

    /// Skips a `vbr6` operand at `p` whose value is not needed: where it ends,
    /// or `None` where [`Decoder::scan_vbr`] (up to 64 bits) would not read it.
    /// The continuation bits of up to ten chunks are tested at once.
    pub(super) fn skip_vbr6(&self, p: u64, limit: u64) -> Option<u64> {
        /// Bit 5 of each of ten 6-bit chunks.
        const MORE: u64 = 0x0820_8208_2082_0820;
        let chunks = (limit.saturating_sub(p) / 6).min(10);
        if chunks > 0 {
            let word = self.peek(p, chunks * 6);
            let last = !word & MORE & ((1u64 << (chunks * 6)) - 1);
            if last != 0 {
                return Some(p + last.trailing_zeros() as u64 + 1);
            }
        }
        match self.scan_vbr(p, 6, 64, limit) {
            Scan::Ok(_, w) => Some(p + w),
            _ => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn skim_abbreviated(
        &mut self,
        pos: u64,
        width: u64,
        limit: u64,
        block_id: u64,
        id: u64,
        abbrevs: &[Arc<Abbrev>],
        st: &mut State,
    ) -> Option<u64> {
        let a = abbrevs.get(usize::try_from(id - 4).ok()?)?;
        if a.problem.is_some() {
            return None;
        }
        let mut p = pos + width;
        let code = match a.ops[0].enc {
            Encoding::Literal(v) => v,
            enc => self.skim_scalar(&mut p, enc, limit)?,
        };
        let mut vals: Vec<u64> = Vec::new();
        let mut count = 0u64;
        let mut k = 1;
        while k < a.ops.len() {
            match a.ops[k].enc {
                Encoding::Literal(v) => {
                    vals.push(v);
                    count += 1;
                }
                Encoding::Array => {
                    let elt = a.ops[k + 1].enc;
                    let Scan::Ok(n, w) = self.scan_vbr(p, 6, 32, limit) else {
                        return None;
                    };
                    p += w;
                    if n.saturating_mul(elt.min_bits()) > limit.saturating_sub(p) {
                        return None;
                    }
                    for _ in 0..n {
                        if block_id != names::BLOCKINFO_BLOCK && vals.len() >= 2 {
                            // The value is not needed: only where the element ends.
                            match elt {
                                Encoding::Vbr(6) => {
                                    p = self.skip_vbr6(p, limit)?;
                                    continue;
                                }
                                Encoding::Fixed(w) => {
                                    if p.saturating_add(w) > limit {
                                        return None;
                                    }
                                    p += w;
                                    continue;
                                }
                                _ => {}
                            }
                        }
                        let v = self.skim_scalar(&mut p, elt, limit)?;
                        if block_id == names::BLOCKINFO_BLOCK || vals.len() < 2 {
                            vals.push(v);
                        }
                    }
                    count += n;
                    st.nodes += 2;
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
                    let at = p;
                    p += (n + pad) * 8;
                    match (block_id, code) {
                        (names::STRTAB_BLOCK, 1) => {
                            let refs = std::mem::take(&mut st.strtab_refs);
                            if refs
                                .iter()
                                .any(|&(o, s)| o.checked_add(s).is_none_or(|e| e > n))
                            {
                                return None;
                            }
                            st.nodes += 2 * refs.len() as u64 + 2;
                        }
                        (names::METADATA_BLOCK, 35) if vals.len() == 2 => {
                            let strings = self.skim_metadata_strings(at, n, vals[0], vals[1])?;
                            st.nodes += 2 * strings + 4;
                        }
                        _ => {}
                    }
                    st.nodes += 5;
                }
                enc => {
                    let v = self.skim_scalar(&mut p, enc, limit)?;
                    vals.push(v);
                    count += 1;
                }
            }
            k += 1;
        }
        st.nodes += 3 + count;
        let mut none = None;
        self.skim_finish(block_id, code, &vals, count, &mut none, st)?;
        Some(p)
    }

    /// One fixed, vbr or char6 field at `*p`.
    pub(super) fn skim_scalar(&self, p: &mut u64, enc: Encoding, limit: u64) -> Option<u64> {
        let (v, w) = match enc {
            Encoding::Fixed(w) => {
                if p.saturating_add(w) > limit {
                    return None;
                }
                (self.peek(*p, w), w)
            }
            Encoding::Char6 => {
                if p.saturating_add(6) > limit {
                    return None;
                }
                (self.peek(*p, 6), 6)
            }
            Encoding::Vbr(w) => match self.scan_vbr(*p, w, 64, limit) {
                Scan::Ok(v, n) => (v, n),
                _ => return None,
            },
            _ => return None,
        };
        *p += w;
        Some(v)
    }

    /// Checks a `METADATA_STRINGS` blob of `n` bytes at bit `at` as the decoder
    /// does; returns the number of strings.
    fn skim_metadata_strings(&self, at: u64, n: u64, count: u64, offset: u64) -> Option<u64> {
        if offset > n {
            return None;
        }
        let lim = at + offset * 8;
        let mut p = at;
        let mut total = 0u64;
        for _ in 0..count {
            let Scan::Ok(v, w) = self.scan_vbr(p, 6, 32, lim) else {
                return None;
            };
            total = total.saturating_add(v);
            p += w;
        }
        (total <= n - offset).then_some(count)
    }

    /// What the decoder's `finish_record` does that matters to the rest of the
    /// stream: BLOCKINFO's SETBID / BLOCKNAME / SETRECORDNAME and the module's
    /// string-table names. `vals` holds at least the first two operands (all of
    /// them in BLOCKINFO); `n` is the operand count.
    fn skim_finish(
        &mut self,
        block_id: u64,
        code: u64,
        vals: &[u64],
        n: u64,
        cur_bid: &mut Option<u64>,
        st: &mut State,
    ) -> Option<()> {
        st.stats.records += 1;
        st.stats.operands += n;
        if block_id == names::MODULE_BLOCK {
            match (code, vals) {
                (1, [v, ..]) => st.module_version = *v,
                (7 | 8 | 12 | 14 | 18, [offset, size, ..]) if st.module_version >= 2 => {
                    st.strtab_refs.push((*offset, *size))
                }
                _ => {}
            }
        }
        if block_id == names::BLOCKINFO_BLOCK {
            let text = |v: &[u64]| -> String { v.iter().map(|&c| (c as u8) as char).collect() };
            match code {
                1 => *cur_bid = Some(*vals.first()?),
                2 => Arc::make_mut(&mut self.info).set_block_name((*cur_bid)?, text(vals)),
                3 => {
                    let bid = (*cur_bid)?;
                    let (&c, name) = vals.split_first()?;
                    Arc::make_mut(&mut self.info).set_record_name(bid, c, text(name));
                }
                _ => {}
            }
        }
        Some(())
    }
}

/// `n` pseudo-random bytes (xorshift on `x`) for the operand-skipping tests;
/// with `long`, `vbr` continuation bits are set often, so long and
/// unterminated values occur.
#[cfg(test)]
pub(super) fn noisy_bytes(x: &mut u64, n: usize, long: bool) -> Vec<u8> {
    (0..n)
        .map(|_| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x as u8) | if long { 0xA2 } else { 0 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::decode::{Decoder, Scan};
    use super::noisy_bytes;
    use crate::builder::Builder;

    /// Skipping a `vbr6` operand ends where reading it does, and fails where
    /// reading it fails (the stream's end, more than 64 bits of value), for
    /// every bit position and end of many pseudo-random streams.
    #[test]
    fn skipping_a_vbr6_ends_where_reading_it_ends() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for round in 0..200 {
            let bytes = noisy_bytes(&mut x, 24, round % 3 == 0);
            let src = bytes.as_slice();
            let b = Builder::new(&src, "t");
            let d = Decoder::new(&b, 0, bytes.len() as u64, 0);
            let bits = bytes.len() as u64 * 8;
            for p in 0..bits {
                for limit in [
                    bits,
                    bits - (round % 40) as u64,
                    p + 6 * (round % 12) as u64,
                ] {
                    let want = match d.scan_vbr(p, 6, 64, limit) {
                        Scan::Ok(_, w) => Some(p + w),
                        _ => None,
                    };
                    assert_eq!(
                        d.skip_vbr6(p, limit),
                        want,
                        "round {round}, bit {p}, limit {limit}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000);
    }
}
