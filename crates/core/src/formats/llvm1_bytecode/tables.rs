//! The two block contents the spec lays out field by field: the global type pool
//! (spec "Global Type Pool") and the symbol table (spec "Symbol Table").
//!
//! Global type pool: `NumberOfEntries` (uint_vbr), the type plane index (uint_vbr;
//! only revisions 0–1 write it, see below), then the type definitions. The spec
//! does not say how a type definition is encoded, so they are one raw run. (The
//! spec's table calls the pool's identifier 0x13, the symbol table's; the pool is
//! the GlobalTypePlane block, 0x15.)
//!
//! Symbol table: a list of type planes up to the end of the block, each
//! `NumberOfEntries` (uint_vbr), `TypePlaneIndex` (the plane's type slot), then
//! `NumberOfEntries` × (`SlotNumber` uint_vbr, `Name` string).
//!
//! What later revisions changed (LLVM 1.x's reader, `ParseGlobalTypes` and
//! `ParseSymbolTable`): from revision 2 on types are no longer values, so the
//! type pool drops its plane index and a symbol table starts with a list of named
//! types (`TypeNames`: `NumberOfEntries`, then (`TypeSlot`, `Name`) pairs) before
//! its value planes; from revision 3 on a type slot of 0x00FFFFFF escapes to a
//! second vbr.

use super::context::Ctx;
use super::skim::{self, Cur, Win};
use super::vbr::{self, string, type_slot, uint_vbr_field};
use crate::builder::{Builder, DResult, Field};
use crate::tree::NodeId;

/// Primitive type slots 0–11 (LLVM 1.x `Type::TypeID`).
const PRIMITIVES: [&str; 12] = [
    "void", "bool", "ubyte", "sbyte", "ushort", "short", "uint", "int", "ulong", "long", "float",
    "double",
];

/// What a type slot names: a primitive type, the type plane (revisions 0–1),
/// label, or a derived type (counted from the first entry of the type pool).
pub(crate) fn type_name(slot: u64, ctx: &Ctx) -> String {
    if let Some(p) = usize::try_from(slot).ok().and_then(|s| PRIMITIVES.get(s)) {
        return (*p).to_string();
    }
    let first_derived = if ctx.types_in_planes() {
        match slot {
            12 => return "type (the plane of types)".into(),
            13 => return "label".into(),
            _ => 14,
        }
    } else {
        if slot == 12 {
            return "label".into();
        }
        13
    };
    format!("derived type #{}", slot - first_derived)
}

/// Flags a count whose entries (each at least `min` bytes) cannot fit in what is
/// left of the block. Decoding goes on: reads stop where the data ends.
fn check_count(b: &mut Builder, id: NodeId, count: u64, min: u64, what: &str) {
    let room = b.remaining();
    if count.saturating_mul(min) > room {
        let at = b.pos();
        b.set_error(
            id,
            format!(
                "expected room for {count} {what} (at least {} bytes) from 0x{at:X}, found only {room} bytes before the block ends at 0x{:X}",
                count.saturating_mul(min),
                b.limit()
            ),
        );
    }
}

/// A GlobalTypePlane block's content.
pub(crate) fn global_type_pool(b: &mut Builder, ctx: &Ctx) -> DResult<()> {
    let Field {
        value: count,
        id: count_id,
    } = uint_vbr_field(b, "NumberOfEntries")?;
    if ctx.types_in_planes() {
        let plane = type_slot(b, "TypePlaneIndex", false)?;
        let mut d = type_name(plane, ctx);
        if plane != 12 {
            d.push_str(" (the type plane is 12; LLVM's reader ignores this field)");
        }
        b.display(d);
    }
    let rest = b.remaining();
    if count > rest {
        check_count(b, count_id, count, 1, "type definitions");
    } else if count == 0 && rest > 0 {
        let at = b.pos();
        b.set_error(
            count_id,
            format!("expected no type definitions after an empty list, found {rest} bytes from 0x{at:X}"),
        );
    }
    if rest > 0 {
        b.bytes("TypeDefinitions", rest)?;
        b.display(format!(
            "{count} type definition(s): the spec does not define how a type is encoded; shown raw"
        ));
    }
    Ok(())
}

/// A SymbolTable block's content. `clean`: it is known to decode without an
/// error.
pub(crate) fn symbol_table(b: &mut Builder, ctx: &Ctx, clean: bool) -> DResult<()> {
    if !ctx.types_in_planes() {
        b.group("TypeNames", |b| {
            let Field { value: n, id } = uint_vbr_field(b, "NumberOfEntries")?;
            check_count(b, id, n, 2, "named types");
            entries(b, ctx, n, true, clean)
        })?;
    }
    let end = b.limit();
    b.array("Planes", |b| {
        let mut i = 0u64;
        // Every plane reads at least two bytes or stops, so this ends.
        while b.pos() < end {
            b.item(i, |b| plane(b, ctx, clean))?;
            i += 1;
        }
        Ok(())
    })
}

/// One type plane of a symbol table.
fn plane(b: &mut Builder, ctx: &Ctx, clean: bool) -> DResult<()> {
    let item = b.current();
    let Field {
        value: n,
        id: count_id,
    } = uint_vbr_field(b, "NumberOfEntries")?;
    let t = type_slot(b, "TypePlaneIndex", ctx.escaped_type_slots())?;
    let tname = type_name(t, ctx);
    b.display(tname.clone());
    b.set_display(item, format!("{tname}: {n} name(s)"));
    b.set_key(item, tname);
    check_count(b, count_id, n, 2, "symbol table entries");
    entries(b, ctx, n, false, clean)
}

/// The list `Entries` of `n` entries at the cursor: (`TypeSlot`, `Name`) pairs
/// of the named types (`type_names`), or (`SlotNumber`, `Name`) pairs of a
/// plane. A skim finds where each page of entries starts, so a long list comes
/// in pages that decode on demand; with exact totals (unless the list is known
/// `clean`) a page is left lazy only if the skim found no error in it. Entries
/// from the first one the decode would stop at are read now (and stop it).
fn entries(b: &mut Builder, ctx: &Ctx, n: u64, type_names: bool, clean: bool) -> DResult<()> {
    let ctx = *ctx;
    let escapes = ctx.escaped_type_slots();
    b.array("Entries", |b| {
        let exact = b.exact_totals();
        let per = b.page_size().map_or(u64::MAX, u64::from);
        // (index, offset, clean) of each page's first entry.
        let mut marks: Vec<(u64, u64, bool)> = Vec::new();
        let mut w = Win::new(b.source());
        let mut c = Cur::new(&mut w, b.pos(), b.limit());
        let mut whole = 0u64;
        let mut stop = c.pos;
        while whole < n {
            if whole.is_multiple_of(per) {
                marks.push((whole, c.pos, true));
            }
            c.clean = true;
            if skim::entry(&mut c, type_names, escapes).is_none() {
                break;
            }
            if !c.clean {
                if let Some(m) = marks.last_mut() {
                    m.2 = false;
                }
            }
            whole += 1;
            stop = c.pos;
        }
        // Only a list longer than a page is paged.
        let paged = marks.len() > 1;
        for (k, &(first, from, page_clean)) in marks.iter().enumerate() {
            let (last, to) = match marks.get(k + 1) {
                Some(&(f, o, _)) => (f - 1, o),
                None => (whole.saturating_sub(1), stop),
            };
            if first >= whole {
                break;
            }
            if paged && (!exact || clean || page_clean) {
                b.page_vouched(exact, first, last, from, to - from, move |b| {
                    for j in first..=last {
                        entry(b, &ctx, j, type_names)?;
                    }
                    Ok(())
                })?;
            } else {
                b.seek(from);
                for j in first..=last {
                    entry(b, &ctx, j, type_names)?;
                }
            }
        }
        // The entry the decode stops at, if any (it stops the list here too).
        b.seek(stop);
        for j in whole..n {
            entry(b, &ctx, j, type_names)?;
        }
        Ok(())
    })
}

/// Entry `j` of a list of named types (`type_names`) or of a plane.
fn entry(b: &mut Builder, ctx: &Ctx, j: u64, type_names: bool) -> DResult<()> {
    b.item(j, |b| {
        let item = b.current();
        if type_names {
            let slot = type_slot(b, "TypeSlot", ctx.escaped_type_slots())?;
            b.display(type_name(slot, ctx));
        } else {
            vbr::uint_vbr(b, "SlotNumber")?;
        }
        let name = string(b, "Name")?;
        b.set_display(item, name);
        Ok(())
    })
}
