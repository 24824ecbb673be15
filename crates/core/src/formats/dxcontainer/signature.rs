//! Signature parts: ISG1/OSG1/PSG1 (SM 5.1+, 32-byte elements), ISGN/OSGN/PCSG
//! (SM 4/5, 24-byte elements) and OSG5 (SM 5 with stream, 28-byte elements).
//!
//! Header: `ParamCount`, `ParamOffset` (from the start of the part data). Element
//! names are offsets from the same base into the string area after the elements;
//! FXC pads that area with 0xAB bytes, LLVM with zeros.

use super::{fixed_pages, names, page_size, pages, Context};
use crate::builder::{Builder, DResult, Field};
use crate::tree::{Kind, Name};

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// ISG1/OSG1/PSG1.
    Sig1,
    /// ISGN/OSGN/PCSG.
    Sm4,
    /// OSG5.
    Osg5,
}

impl Layout {
    fn size(self) -> u64 {
        match self {
            Layout::Sig1 => 32,
            Layout::Sm4 => 24,
            Layout::Osg5 => 28,
        }
    }
}

pub(super) fn sig1(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    signature(b, size, Layout::Sig1)
}
pub(super) fn sig_sm4(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    signature(b, size, Layout::Sm4)
}
pub(super) fn sig_osg5(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    signature(b, size, Layout::Osg5)
}

fn signature(b: &mut Builder, size: u64, layout: Layout) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let count = b.u32("ParamCount")? as u64;
    let first = b.u32("ParamOffset")? as u64;
    let elem = layout.size();
    if first < 8 {
        b.error(format!(
            "parameters at offset {first} would overlap the 8-byte signature header"
        ));
    }
    let need = first.saturating_add(count.saturating_mul(elem));
    if need > size {
        b.set_error(
            b.children(b.current())[0],
            format!("{count} parameters of {elem} bytes from offset {first} need {need} bytes, but the part has {size}"),
        );
    }
    let params_start = base.saturating_add(first.max(8));
    b.seek(params_start);
    // The parameters that lie inside the part; pages hold only those.
    let fit = count.min(end.saturating_sub(params_start) / elem);
    let r = b.array("Parameters", |b| match page_size(b) {
        Some(n) if fit > n => {
            pages(
                b,
                &fixed_pages(params_start, elem, fit, n),
                move |b, first, next| parameters(b, first, next, layout, base, end),
            )?;
            parameters(b, fit, count, layout, base, end)
        }
        _ => parameters(b, 0, count, layout, base, end),
    });
    let strings_start = b.pos();
    if r.is_ok() && strings_start < end {
        // Every parameter was read: the names they point at, peeked.
        let name_at = if layout == Layout::Sm4 { 0 } else { 4 };
        let bytes = b.peek_bytes(params_start, count.saturating_mul(elem));
        let name_offsets = bytes
            .chunks_exact(elem as usize)
            .map(|p| {
                let o = &p[name_at..name_at + 4];
                u32::from_le_bytes([o[0], o[1], o[2], o[3]]) as u64
            })
            .filter(|&o| o != 0)
            .collect();
        strings_area(b, base, strings_start, end, name_offsets)?;
    }
    r
}

/// Parameters `first..next`, from the cursor on.
fn parameters(
    b: &mut Builder,
    first: u64,
    next: u64,
    layout: Layout,
    base: u64,
    end: u64,
) -> DResult<()> {
    for i in first..next {
        b.item(i, |b| parameter(b, layout, base, end))?;
    }
    Ok(())
}

fn parameter(b: &mut Builder, layout: Layout, base: u64, end: u64) -> DResult<()> {
    if layout == Layout::Sig1 || layout == Layout::Osg5 {
        b.u32("Stream")?;
    }
    let Field { value: name, id } = b.uint_field("Name", 4)?;
    if name == 0 {
        b.set_value(id, crate::tree::Value::Str(String::new()));
        b.display("offset 0 (no name)");
    } else {
        b.resolve_strref(id, name, base, end);
    }
    b.u32("Index")?;
    b.uint_enum("SystemValue", 4, names::system_value)?;
    b.uint_enum("CompType", 4, names::comp_type)?;
    let reg = b.u32("Register")?;
    if reg == u32::MAX {
        b.display("unallocated");
    }
    let mask = b.u8("Mask")?;
    b.display(mask_text(u64::from(mask)));
    match layout {
        Layout::Sig1 => {
            b.u8("ExclusiveMask")?;
            b.padding("Unused", 2)?;
            b.uint_enum("MinPrecision", 4, names::min_precision)?;
        }
        Layout::Sm4 | Layout::Osg5 => {
            b.u8("ReadWriteMask")?;
            b.padding("Unused", 2)?;
        }
    }
    Ok(())
}

fn mask_text(m: u64) -> String {
    let mut s = String::new();
    for (i, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
        if m & (1 << i) != 0 {
            s.push(*c);
        }
    }
    if s.is_empty() {
        "none".into()
    } else {
        s
    }
}

/// Shows the strings that element names point at, in `[start, end)`, as `[i]`
/// nodes; runs of 0x00 / 0xAB between and after them are padding.
pub(super) fn strings_area(
    b: &mut Builder,
    base: u64,
    start: u64,
    end: u64,
    mut offsets: Vec<u64>,
) -> DResult<()> {
    crate::sorted::sort(&mut offsets);
    offsets.dedup();
    b.region("Strings", Kind::Array, start, end - start, |b| {
        let mut cursor = start;
        let mut i = 0u32;
        for off in offsets {
            let at = base.saturating_add(off);
            if at < cursor || at >= end {
                continue; // suffix-shared or outside the area: the reference says where
            }
            if at > cursor {
                pad_or_leave(b, cursor, at)?;
            }
            b.seek(at);
            b.cstr(Name::Index(i))?;
            b.display(format!("offset 0x{off:X}"));
            i += 1;
            cursor = b.pos();
        }
        if cursor < end {
            pad_or_leave(b, cursor, end)?;
        }
        Ok(())
    });
    Ok(())
}

fn pad_or_leave(b: &mut Builder, from: u64, to: u64) -> DResult<()> {
    let bytes = b.peek_bytes(from, to - from);
    if bytes.iter().all(|&c| c == 0 || c == 0xAB) {
        b.seek(from);
        b.padding("Padding", to - from)?;
    }
    Ok(())
}
