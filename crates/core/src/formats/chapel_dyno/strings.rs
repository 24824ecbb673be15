//! Long Strings Table Section (spec §"Long Strings Table Section"): magic, a count N
//! of 4-byte offsets, the offsets, then the string bytes. String `i` (1 ≤ i < N-1)
//! runs from offset `i` to offset `i+1`; index 0 (where the data starts) and the last
//! index (just after the last string) name no string. The offsets are relative to
//! the table (spec, 2024 writer) or to the module header (2023 writer).

use super::context::Shared;
use super::layout::Layout;
use super::prim::{magic, LONG_STRINGS_MAGIC};
use crate::builder::{Builder, DResult};
use crate::tree::Name;

/// Decodes the table (cursor at its start, region bounded by its end). More
/// offsets or strings than a page holds are shown in pages (the offsets have a
/// fixed size; the strings are paged when each follows the one before).
pub fn decode(b: &mut Builder, sh: &Shared) -> DResult<()> {
    let s = b.pos();
    let e = b.limit();
    let base = if sh.layout == Layout::Writer2023 {
        sh.m
    } else {
        s
    };
    let mut count = 0u64;
    let mut count_node = None;
    b.group("Header", |b| {
        magic(b, 4, LONG_STRINGS_MAGIC, "long strings table")?;
        let f = b.uint_field("Count", 4)?;
        count = f.value;
        count_node = Some(f.id);
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
    let first_off = b.pos();
    let data = first_off + 4 * n;
    // Every offset, read without making nodes.
    let raw = b.peek_bytes(first_off, 4 * n);
    let le = b.endian() == crate::Endian::Little;
    let offs: Vec<u64> = raw
        .chunks_exact(4)
        .map(|c| {
            let a = [c[0], c[1], c[2], c[3]];
            (if le {
                u32::from_le_bytes(a)
            } else {
                u32::from_be_bytes(a)
            }) as u64
        })
        .collect();
    drop(raw);
    let page = b
        .page_size()
        .filter(|_| b.lazy_threshold().is_some())
        .map(u64::from);
    let t = Table {
        base,
        count,
        data,
        e,
    };
    b.array("Offsets", |b| match page.filter(|&p| n > p) {
        Some(p) => {
            let offs = std::sync::Arc::new(offs.clone());
            let mut i = 0;
            while i < n {
                let last = (i + p).min(n) - 1;
                let (first, offs) = (i, offs.clone());
                b.page(
                    first,
                    last,
                    first_off + 4 * first,
                    4 * (last - first + 1),
                    move |b| {
                        for i in first..=last {
                            offset(b, &t, &offs, i)?;
                        }
                        Ok(())
                    },
                )?;
                i = last + 1;
            }
            Ok(())
        }
        None => {
            for i in 0..n {
                offset(b, &t, &offs, i)?;
            }
            Ok(())
        }
    })?;
    // The strings decoded, in order: those whose offsets are sound and that do not
    // overlap the one before.
    let mut list: Vec<(u64, u64, u64)> = Vec::new();
    let mut cursor = b.pos();
    for i in 1..offs.len().saturating_sub(1) {
        let (a, z) = (
            base.saturating_add(offs[i]),
            base.saturating_add(offs[i + 1]),
        );
        if a > z || a < data || z > e || a < cursor {
            continue;
        }
        list.push((i as u64, a, z));
        cursor = z;
    }
    b.array("Strings", |b| {
        let consecutive = list
            .windows(2)
            .all(|w| w[1].0 == w[0].0 + 1 && w[1].1 == w[0].2);
        match page.filter(|&p| list.len() as u64 > p && consecutive) {
            Some(p) => {
                for chunk in list.chunks(p as usize) {
                    let (first, a) = (chunk[0].0, chunk[0].1);
                    let (last, z) = (chunk[chunk.len() - 1].0, chunk[chunk.len() - 1].2);
                    let chunk = chunk.to_vec();
                    b.page(first, last, a, z - a, move |b| {
                        for &(i, a, z) in &chunk {
                            string(b, i, a, z)?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            }
            None => {
                for &(i, a, z) in &list {
                    string(b, i, a, z)?;
                }
                Ok(())
            }
        }
    })
}

/// What the offsets are read against.
#[derive(Clone, Copy)]
struct Table {
    base: u64,
    /// Offsets the header claims.
    count: u64,
    /// Where the string data starts and the table ends.
    data: u64,
    e: u64,
}

/// Offset `i` (of `offs`, all of them): where its string starts, whether it is
/// smaller than the one before, and whether its string lies outside the data.
fn offset(b: &mut Builder, t: &Table, offs: &[u64], i: u64) -> DResult<()> {
    let (base, count, data, e) = (t.base, t.count, t.data, t.e);
    let o = b.u32(Name::Index(i as u32))? as u64;
    let at = base.saturating_add(o);
    b.display(if i == 0 {
        format!("index 0, unused: 0x{at:X}, where the string data starts")
    } else if i + 1 == count {
        format!("last index, unused: 0x{at:X}, just after string #{}", i - 1)
    } else {
        format!("string #{i} starts at 0x{at:X}")
    });
    let i = i as usize;
    if i > 0 && o < offs[i - 1] {
        b.error(format!(
            "offset 0x{o:X} is smaller than the one before it (0x{:X}): strings would have negative lengths",
            offs[i - 1]
        ));
    }
    if i >= 1 && i + 1 < offs.len() {
        let (a, z) = (at, base.saturating_add(offs[i + 1]));
        if a <= z && (a < data || z > e) {
            b.error(format!(
                "string #{i} would span 0x{a:X}-0x{z:X}, outside the string data (0x{data:X}-0x{e:X})"
            ));
        }
    }
    Ok(())
}

/// Long string `i`, `[a, z)`.
fn string(b: &mut Builder, i: u64, a: u64, z: u64) -> DResult<()> {
    b.seek(a);
    b.fixed_str(Name::Index(i as u32), z - a)?;
    b.display(format!("long string #{i}, {} bytes", z - a));
    Ok(())
}
