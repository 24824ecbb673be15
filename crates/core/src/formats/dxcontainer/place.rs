//! Placing structures reached by offset, shared by the RTS0, RDAT and RDEF
//! decoders.
//!
//! A part whose structures are found through offsets (root signature parameters,
//! RDAT sub-parts, RDEF tables) lays them out with [`Claims`] and [`place`]: each
//! byte range is given to one node only, so two references to the same bytes decode
//! them once and overlapping structures are reported on the offset that led there
//! instead of being decoded on top of each other. [`fit`] bounds a declared table to
//! what the part holds. Offsets here are absolute.

use std::sync::Arc;

use crate::builder::{Builder, DResult};
use crate::tree::{Kind, Name, NodeId};

/// Byte ranges (absolute) of a part already given to nodes, with what they hold.
pub(super) type Claims = crate::claims::Claims<String>;

/// A claimed range that a new structure would overlap: start, end, what it holds.
pub(super) type Clash = crate::claims::Clash<String>;

/// Says that `what` at `[start, end)` would overlap `clash`.
pub(super) fn clash_msg(what: &str, start: u64, end: u64, clash: &Clash) -> String {
    format!(
        "{what} at 0x{start:X}..0x{end:X} would overlap {} at 0x{:X}..0x{:X}; not decoded",
        clash.2, clash.0, clash.1
    )
}

/// A structure reached by offset: absolute start, length, and the index it is
/// shown under (`[index]`).
pub(super) struct Block {
    pub start: u64,
    pub len: u64,
    pub index: u64,
    pub what: String,
}

impl Block {
    /// Says that this block would overlap `clash`.
    pub(super) fn clash_msg(&self, clash: &Clash) -> String {
        clash_msg(&self.what, self.start, self.start + self.len, clash)
    }
}

/// Places `blocks` as `[index]` regions inside one `name` container spanning them,
/// decoding each with `f(builder, block)`. If that container would overlap bytes
/// already claimed or the start of a structure planned for later
/// ([`Claims::plan`]), each block becomes its own region `name[index]` instead. Blocks
/// that overlap claimed bytes or an earlier block are not decoded; they are returned
/// with what they overlap, for the caller to report on the offset that led there.
pub(super) fn place<'a>(
    b: &mut Builder,
    claims: &mut Claims,
    name: &'static str,
    blocks: &'a [Block],
    mut f: impl FnMut(&mut Builder, &Block) -> DResult<()>,
) -> Vec<(&'a Block, Clash)> {
    place_with(b, claims, name, blocks, |b, n, blk| {
        b.region(n, Kind::Struct, blk.start, blk.len, |b| f(b, blk));
    })
}

/// [`place`], with each block decoded when it is opened (see
/// [`super::lazy_part`]) by `f(builder, block index)`; `label(block)` gives
/// what the block shows until then and, if any, its comparison key (see
/// `Tree::key`).
pub(super) fn place_lazy<'a, F>(
    b: &mut Builder,
    claims: &mut Claims,
    name: &'static str,
    blocks: &'a [Block],
    label: impl Fn(&Builder, &Block) -> (String, Option<&'static str>),
    f: F,
) -> Vec<(&'a Block, Clash)>
where
    F: Fn(&mut Builder, u64) -> DResult<()> + Send + Sync + 'static,
{
    let f = Arc::new(f);
    place_with(b, claims, name, blocks, |b, n, blk| {
        let f = Arc::clone(&f);
        let index = blk.index;
        let (shown, key) = label(b, blk);
        super::lazy_part(b, n, blk.start, blk.len, shown, move |b| f(b, index));
        if let Some(k) = key {
            b.key(k);
        }
    })
}

/// [`place`], with `region(builder, name, block)` making each block's region.
fn place_with<'a>(
    b: &mut Builder,
    claims: &mut Claims,
    name: &'static str,
    blocks: &'a [Block],
    mut region: impl FnMut(&mut Builder, Name, &Block),
) -> Vec<(&'a Block, Clash)> {
    let mut local = Claims::default();
    let mut ok: Vec<&Block> = Vec::new();
    let mut rejected = Vec::new();
    for blk in blocks {
        let end = blk.start.saturating_add(blk.len);
        if blk.len == 0 {
            continue;
        }
        if let Some(c) = claims
            .clash(blk.start, end)
            .or_else(|| local.clash(blk.start, end))
        {
            rejected.push((blk, c));
            continue;
        }
        local.add(blk.start, end, blk.what.clone());
        ok.push(blk);
    }
    let (Some(lo), Some(hi)) = (
        ok.iter().map(|k| k.start).min(),
        ok.iter().map(|k| k.start + k.len).max(),
    ) else {
        return rejected;
    };
    let mut own: Vec<u64> = ok.iter().map(|k| k.start).collect();
    crate::sorted::sort(&mut own);
    if claims.clash(lo, hi).is_none() && !claims.foreign_start(lo, hi, &own) {
        b.region(name, Kind::Array, lo, hi - lo, |b| {
            for blk in &ok {
                region(b, index_name(blk.index), blk);
            }
            Ok(())
        });
        claims.add(lo, hi, name);
    } else {
        for blk in &ok {
            let n = format!("{name}[{}]", blk.index);
            region(b, n.into(), blk);
            claims.add(blk.start, blk.start + blk.len, blk.what.clone());
        }
    }
    rejected
}

/// Claims `[start, start + len)` for `what`, or reports on `off_id` what it overlaps.
pub(super) fn claim(
    b: &mut Builder,
    claims: &mut Claims,
    start: u64,
    len: u64,
    what: &str,
    off_id: Option<NodeId>,
) -> bool {
    let end = start.saturating_add(len);
    if let Some(c) = claims.clash(start, end) {
        if let Some(id) = off_id {
            b.set_error(id, clash_msg(what, start, end, &c));
        }
        return false;
    }
    claims.add(start, end, what);
    true
}

/// `[i]` as a node name (indices past `u32::MAX` are shown as `u32::MAX`).
pub(super) fn index_name(i: u64) -> Name {
    Name::Index(i.min(u32::MAX as u64) as u32)
}

/// How many `elem`-byte entries of a `count`-entry table at offset `off` fit in a
/// part of `size` bytes. If not all do, an error goes on `count_id` (or on `off_id`
/// when the offset itself is past the end).
#[allow(clippy::too_many_arguments)]
pub(super) fn fit(
    b: &mut Builder,
    count: u64,
    elem: u64,
    off: u64,
    size: u64,
    count_id: Option<NodeId>,
    off_id: Option<NodeId>,
    what: &str,
) -> u64 {
    if count == 0 || elem == 0 {
        return 0;
    }
    if off > size {
        if let Some(id) = off_id.or(count_id) {
            b.set_error(
                id,
                format!("{what} at offset 0x{off:X} start past the end of the part ({size} bytes)"),
            );
        }
        return 0;
    }
    let room = (size - off) / elem;
    if count > room {
        if let Some(id) = count_id {
            b.set_error(
                id,
                format!(
                    "{count} {what} of {elem} bytes at offset 0x{off:X} need {} bytes, but only {} bytes remain in the part; decoding {room}",
                    count.saturating_mul(elem),
                    size - off
                ),
            );
        }
    }
    count.min(room)
}

/// `n` and `what`, with an `s` unless `n` is 1.
pub(super) fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
