//! Long Strings Table Section (spec §"Long Strings Table Section"): magic, a count N
//! of 4-byte offsets, the offsets, then the string bytes. String `i` (1 ≤ i < N-1)
//! runs from offset `i` to offset `i+1`; index 0 (where the data starts) and the last
//! index (just after the last string) name no string. The offsets are relative to
//! the table (spec, 2024 writer) or to the module header (2023 writer).

use super::layout::Layout;
use super::module::Ctx;
use super::prim::LongStrings;
use super::{magic, LONG_STRINGS_MAGIC};
use crate::builder::{Builder, DResult};
use crate::tree::{Name, NodeId};

/// Size of the table header (magic, count).
const HEADER: u64 = 8;

/// Finds every usable string's bytes without creating nodes, so the uAST (which
/// may come first in the file) can resolve its long-string references.
pub fn scan(b: &Builder, s: u64, e: u64, base: u64) -> LongStrings {
    let mut ls = LongStrings {
        present: true,
        ..Default::default()
    };
    let Some(count) = b.peek_uint(s + 4, 4) else {
        return ls;
    };
    ls.count = count;
    let fit = e.saturating_sub(s + HEADER) / 4;
    let n = count.min(fit);
    let offs: Vec<u64> = (0..n)
        .map_while(|i| b.peek_uint(s + HEADER + 4 * i, 4))
        .collect();
    let data = s + HEADER + 4 * count.min(fit);
    ls.spans = vec![None; offs.len()];
    for i in 1..offs.len().saturating_sub(1) {
        let (a, z) = (
            base.saturating_add(offs[i]),
            base.saturating_add(offs[i + 1]),
        );
        if a <= z && a >= data && z <= e {
            ls.spans[i] = Some((a, z));
        }
    }
    ls
}

/// Decodes the table (cursor at its start, region bounded by its end).
pub fn decode(b: &mut Builder, ctx: &mut Ctx) -> DResult<()> {
    let s = b.pos();
    let e = b.limit();
    let base = if ctx.layout == Layout::Writer2023 {
        ctx.m
    } else {
        s
    };
    let mut count = 0u64;
    let mut count_node = None;
    b.group("Header", |b| {
        magic(b, 4, LONG_STRINGS_MAGIC, "long strings table")?;
        count = b.u32("Count")? as u64;
        count_node = b.last();
        b.display(format!(
            "{count} offsets: strings #1..#{} (index 0 and the last index name no string)",
            count.saturating_sub(2)
        ));
        Ok(())
    })?;
    let fit = e.saturating_sub(b.pos()) / 4;
    if count > fit {
        if let Some(id) = count_node {
            b.set_error(
                id,
                format!(
                    "{count} offsets need {} bytes, but only {} bytes of the table follow its header",
                    count.saturating_mul(4),
                    e.saturating_sub(b.pos())
                ),
            );
        }
    }
    let n = count.min(fit);
    let data = b.pos() + 4 * n;
    let mut offs: Vec<(u64, NodeId)> = Vec::new();
    b.array("Offsets", |b| {
        for i in 0..n {
            let o = b.u32(Name::Index(i as u32))? as u64;
            let id = b.last().expect("offset node");
            let at = base.saturating_add(o);
            b.display(if i == 0 {
                format!("index 0, unused: 0x{at:X}, where the string data starts")
            } else if i + 1 == count {
                format!("last index, unused: 0x{at:X}, just after string #{}", i - 1)
            } else {
                format!("string #{i} starts at 0x{at:X}")
            });
            if let Some(&(p, _)) = offs.last() {
                if o < p {
                    b.error(format!(
                        "offset 0x{o:X} is smaller than the one before it (0x{p:X}): strings would have negative lengths"
                    ));
                }
            }
            offs.push((o, id));
        }
        Ok(())
    })?;
    b.array("Strings", |b| {
        for i in 1..offs.len().saturating_sub(1) {
            let (a, z) = (
                base.saturating_add(offs[i].0),
                base.saturating_add(offs[i + 1].0),
            );
            if a > z {
                continue; // reported on the offset
            }
            if a < data || z > e {
                b.set_error(
                    offs[i].1,
                    format!(
                        "string #{i} would span 0x{a:X}-0x{z:X}, outside the string data (0x{data:X}-0x{e:X})"
                    ),
                );
                continue;
            }
            if a < b.pos() {
                continue; // overlaps the previous string: its offsets are reported
            }
            b.seek(a);
            b.fixed_str(Name::Index(i as u32), z - a)?;
            b.display(format!("long string #{i}, {} bytes", z - a));
        }
        Ok(())
    })
}
