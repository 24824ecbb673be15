//! One module section: its header (spec §"Module Section Header", or the writer's),
//! then each section it points to, decoded in file order, then the cross-checks
//! between sections (symbol table → uAST entries and location groups; location
//! groups → the uAST nodes they describe).

use super::context::Shared;
use super::layout::{Layout, Sect};
use super::prim::{magic, pad, string, GEN_CODE_MAGIC, MODULE_MAGIC};
use super::{locations, strings, symtab, uast};
use crate::builder::{Builder, DResult, Field};
use crate::tree::{BitSpan, Kind, Name, NodeId};
use std::sync::Arc;

/// A section as the module header gives it.
#[derive(Clone, Debug)]
pub struct SectionRef {
    pub sect: Sect,
    /// Offsets relative to the module header.
    pub start: u64,
    pub end: u64,
    /// True if `end` was stored (false: inferred from the next section, 2023 header).
    pub end_stored: bool,
    /// The header node describing the section (its pair, or its single offset).
    pub node: NodeId,
}

/// Decodes the module whose header is at absolute offset `m` (the cursor); the
/// enclosing region ends where the module does.
pub fn decode(b: &mut Builder, m: u64, layout: Layout) -> DResult<()> {
    let mlen = b.limit().saturating_sub(m);
    let mut refs: Vec<SectionRef> = Vec::new();
    b.group("Header", |b| {
        magic(b, 8, MODULE_MAGIC, "module section")?;
        let flags = b.u64("Flags")?;
        b.display(if flags == 0 {
            "none (reserved for future flags)".to_string()
        } else {
            format!("0x{flags:X} (reserved for future flags; no flag is defined)")
        });
        if layout == Layout::Writer2023 {
            let len = b.u64("Length")?;
            b.display(format!(
                "module section of {len} bytes, to 0x{:X}",
                m.saturating_add(len)
            ));
        }
        for &sect in layout.sections() {
            if layout == Layout::Writer2023 {
                let name: Name = format!("{}Offset", sect.name()).into();
                let Field {
                    value: off,
                    id: node,
                } = b.uint_field(name, 8)?;
                b.display(format!(
                    "module 0x{m:X} + 0x{off:X} = 0x{:X}",
                    m.saturating_add(off)
                ));
                refs.push(SectionRef {
                    sect,
                    start: off,
                    end: off,
                    end_stored: false,
                    node,
                });
            } else {
                let mut pair = (0, 0);
                let node = b
                    .group_field(sect.name(), |b| {
                        for (i, what) in ["Start", "End"].into_iter().enumerate() {
                            let v = b.u64(what)?;
                            b.display(format!(
                                "module 0x{m:X} + 0x{v:X} = 0x{:X}",
                                m.saturating_add(v)
                            ));
                            if i == 0 {
                                pair.0 = v;
                            } else {
                                pair.1 = v;
                            }
                        }
                        Ok(())
                    })?
                    .id;
                let (s, e) = pair;
                b.display(if s == e {
                    "empty".to_string()
                } else if s < e {
                    format!(
                        "0x{:X}-0x{:X}, {} bytes",
                        m.saturating_add(s),
                        m.saturating_add(e),
                        e - s
                    )
                } else {
                    "end before start".to_string()
                });
                let (abs_s, abs_e) = (m.saturating_add(s), m.saturating_add(e));
                if s < e && abs_e <= b.file_len() {
                    b.set_reference(node, BitSpan::bytes(abs_s, abs_e));
                }
                refs.push(SectionRef {
                    sect,
                    start: s,
                    end: e,
                    end_stored: true,
                    node,
                });
            }
        }
        string(b, "ModuleSymbolId")?;
        string(b, "FilePath")?;
        Ok(())
    })?;
    let header_end = b.pos() - m;

    let plan = plan_sections(b, &mut refs, header_end, mlen, layout, m);
    let spans = plan
        .iter()
        .map(|r| (r.sect.name(), (m + r.start, m + r.end.max(r.start))))
        .collect();
    let shared = Arc::new(Shared::new(layout, m, spans));

    let mut cursor = m + header_end;
    for r in &plan {
        let (s, e) = (m + r.start, m + r.end.max(r.start));
        if s > cursor {
            pad(b, cursor, s, layout.align(), "before the section");
        }
        if s % layout.align() != 0 {
            b.set_error(
                r.node,
                format!(
                    "the {} section starts at 0x{s:X}, not on the {}-byte boundary {} pads sections to",
                    r.sect.name(),
                    layout.align(),
                    if layout == Layout::Spec { "the spec" } else { "Chapel's writer" }
                ),
            );
        }
        let name: Name = r.sect.name().into();
        let (sect, sh) = (r.sect, shared.clone());
        let label = format!("{} bytes, not decoded yet", e - s);
        b.lazy_region(name, Kind::Struct, s, e - s, Some(label), move |b| {
            section(b, sect, &sh)
        });
        cursor = cursor.max(e);
    }
    let mend = m + mlen;
    if cursor < mend {
        pad(b, cursor, mend, layout.align(), "at the end of the module");
    }
    Ok(())
}

/// Checks the header's sections against the module and each other; returns those
/// that can be decoded, sorted by position. The 2023 header stores only starts: each
/// section ends where the next one starts (the uAST where its byte count says).
fn plan_sections(
    b: &mut Builder,
    refs: &mut [SectionRef],
    header_end: u64,
    mlen: u64,
    layout: Layout,
    m: u64,
) -> Vec<SectionRef> {
    if layout == Layout::Writer2023 {
        let mut starts: Vec<u64> = refs
            .iter()
            .map(|r| r.start)
            .filter(|&s| s >= header_end && s < mlen)
            .collect();
        starts.push(mlen);
        crate::sorted::sort(&mut starts);
        for r in refs.iter_mut() {
            r.end = starts
                .iter()
                .copied()
                .find(|&s| s > r.start)
                .unwrap_or(mlen);
            if r.sect == Sect::Uast {
                // The 2023 uAST header stores its byte count at +8 (after the magic).
                if let Some(n) = b.peek_uint(m.saturating_add(r.start).saturating_add(8), 8) {
                    let exact = r.start.saturating_add(24).saturating_add(n);
                    if exact <= r.end {
                        r.end = exact;
                    }
                }
            }
        }
    }
    let mut ok: Vec<SectionRef> = Vec::new();
    for r in refs.iter() {
        let absent = if layout == Layout::Writer2023 {
            r.start == 0
        } else {
            r.start == r.end
        };
        if absent {
            continue;
        }
        let problem = if r.start > r.end {
            Some(format!(
                "the {} section ends (0x{:X}) before it starts (0x{:X})",
                r.sect.name(),
                r.end,
                r.start
            ))
        } else if r.start < header_end {
            Some(format!(
                "the {} section starts at relative 0x{:X}, inside the module header (which ends at relative 0x{header_end:X})",
                r.sect.name(),
                r.start
            ))
        } else if r.start >= mlen {
            Some(format!(
                "the {} section starts at relative 0x{:X}, past the module's end (0x{mlen:X})",
                r.sect.name(),
                r.start
            ))
        } else {
            None
        };
        if let Some(p) = problem {
            b.set_error(r.node, p);
            continue;
        }
        if r.end_stored && r.end > mlen {
            b.set_error(
                r.node,
                format!(
                    "the {} section ends at relative 0x{:X}, past the module's end (0x{mlen:X})",
                    r.sect.name(),
                    r.end
                ),
            );
        }
        ok.push(r.clone());
    }
    crate::sorted::sort_by_key(&mut ok, |r| (r.start, r.end));
    // A stored end past the module proves nothing: such a section is cut where the
    // next one starts (or at the module's end).
    let starts: Vec<u64> = ok.iter().map(|r| r.start).collect();
    for r in ok.iter_mut() {
        if r.end_stored && r.end > mlen {
            let next = starts
                .iter()
                .copied()
                .find(|&s| s > r.start)
                .unwrap_or(mlen);
            r.end = next.min(mlen);
        }
    }
    let mut prev: Option<(u64, &'static str)> = None;
    for r in &ok {
        if let Some((pend, pname)) = prev {
            if r.start < pend {
                b.set_error(
                    r.node,
                    format!(
                        "the {} section (from relative 0x{:X}) overlaps the {pname} section, which ends at 0x{pend:X}",
                        r.sect.name(),
                        r.start
                    ),
                );
            }
        }
        if prev.is_none_or(|(pend, _)| r.end > pend) {
            prev = Some((r.end, r.sect.name()));
        }
    }
    ok
}

fn section(b: &mut Builder, sect: Sect, sh: &Arc<Shared>) -> DResult<()> {
    let r = match sect {
        Sect::SymbolTable => symtab::decode(b, sh),
        Sect::Uast => uast::decode(b, sh),
        Sect::LongStrings => strings::decode(b, sh),
        Sect::Locations => locations::decode(b, sh),
        Sect::GenCode => gen_code(b),
        Sect::Types | Sect::Functions | Sect::Dependencies => {
            let n = b.remaining();
            b.bytes("Contents", n)?;
            b.display("the spec leaves this section's format TODO: not decoded");
            Ok(())
        }
    };
    if sh.layout == Layout::Writer2023 {
        // Sections whose end was inferred run up to the next one: claim the padding.
        let (at, end) = (b.pos(), b.limit());
        pad(b, at, end, 16, "after the section");
    }
    r
}

/// Generated Code Section: magic, byte count, LLVM IR bitcode. Bitcode (the
/// `BC` `0xC0DE` magic or the `0x0B17C0DE` wrapper) is decoded by
/// [`crate::bitstream`] into an `LlvmIr` node spanning exactly its bytes, lazily
/// like any bitcode when the decode has a lazy threshold; anything else stays one
/// run.
fn gen_code(b: &mut Builder) -> DResult<()> {
    let mut len = 0;
    b.group("Header", |b| {
        magic(b, 8, GEN_CODE_MAGIC, "generated-code section")?;
        len = b.u64("Length")?;
        Ok(())
    })?;
    if len == 0 {
        return Ok(());
    }
    let at = b.pos();
    let head = b.peek_bytes(at, 4);
    let is_bitcode =
        head == crate::bitstream::BITCODE_MAGIC || head == crate::bitstream::WRAPPER_MAGIC;
    if !is_bitcode || len > b.remaining() {
        b.bytes("LlvmIr", len)?;
        b.display(format!(
            "{len} bytes, not starting with the LLVM bitcode magic BC C0 DE; not decoded"
        ));
        return Ok(());
    }
    b.region("LlvmIr", Kind::Struct, at, len, |b| {
        let id = b.current();
        let s = crate::bitstream::decode_bitcode(b, at, len)?;
        b.set_display(id, crate::formats::bitcode::summary(len, &s));
        Ok(())
    });
    Ok(())
}
