//! RTS0: serialized root signature, versions 1.0, 1.1 and 1.2 (layout notes §7,
//! LLVM's `DXContainer.h` and `RootSignatureValidations.cpp`).
//!
//! Under `RootSignature`: the header fields (`Version` … `Flags`), `Parameters`
//! (the 12-byte headers at `ParametersOffset`), `ParameterData` (each parameter's
//! payload at its `ParameterOffset`, shown as `[i]` for parameter `i`; a descriptor
//! table's ranges are nested in it as `DescriptorRanges` when they follow it, which
//! is how compilers write them) and `StaticSamplers`. Offsets are relative to the
//! part data. Payloads and ranges are placed with [`super::place::place`]: a payload
//! two parameters share is decoded once, and structures that would overlap others
//! are reported on the offset that points at them instead of being decoded.

mod names;

use crate::sorted::VecMap;

use super::place::{claim, fit, place, plural, Block, Claims};
use super::Context;
use crate::builder::{Builder, DResult, Field};
use crate::tree::{Kind, NodeId};

const HEADER_SIZE: u64 = 24;
const PARAM_HEADER_SIZE: u64 = 12;
/// Root signature flag bits LLVM accepts.
const ROOT_FLAGS_MASK: u64 = 0xFFF;
/// Root descriptor data flags (mutually exclusive).
const DATA_FLAGS: u64 = 0x2 | 0x4 | 0x8;
const DESCRIPTORS_VOLATILE: u64 = 0x1;
const DESCRIPTORS_STATIC_KEEPING_BOUNDS: u64 = 0x10000;
const RANGE_SAMPLER: u64 = 3;

const TYPE_TABLE: u64 = 0;
const TYPE_CONSTANTS: u64 = 1;

/// What differs between root signature versions.
#[derive(Clone, Copy)]
struct Layout {
    /// The version as D3D12 names it.
    name: &'static str,
    /// Root descriptor payload size (v1.1 adds Flags).
    descriptor: u64,
    /// Descriptor range size (v1.1 adds Flags).
    range: u64,
    /// Static sampler size (v1.2 adds Flags).
    sampler: u64,
    /// v1.1+: descriptors and ranges carry flags.
    flags: bool,
    /// v1.2: static samplers carry flags.
    sampler_flags: bool,
}

fn layout(version: u64) -> Option<Layout> {
    let v11 = Layout {
        name: "1.1",
        descriptor: 12,
        range: 24,
        sampler: 52,
        flags: true,
        sampler_flags: false,
    };
    match version {
        1 => Some(Layout {
            name: "1.0",
            descriptor: 8,
            range: 20,
            flags: false,
            ..v11
        }),
        2 => Some(v11),
        3 => Some(Layout {
            name: "1.2",
            sampler: 56,
            sampler_flags: true,
            ..v11
        }),
        _ => None,
    }
}

/// A parameter header as read.
struct Param {
    kind: u64,
    offset: u64,
    kind_id: NodeId,
    offset_id: NodeId,
}

/// Where a descriptor table's ranges are, planned from peeked values.
#[derive(Clone, Copy)]
struct Ranges {
    /// Offset of the ranges (relative to the part).
    offset: u64,
    /// Ranges that fit in the part.
    count: u64,
    /// Declared count.
    declared: u64,
    /// The ranges directly follow the table payload.
    contiguous: bool,
}

/// Decodes the root signature in `[cursor, cursor + size)`.
pub(super) fn rts0(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let root = b.current();
    let version = b.u32("Version")? as u64;
    let lay = layout(version);
    match lay {
        Some(l) => b.display(l.name),
        None => b.error(format!(
            "unknown root signature version {version} (expected 1 = 1.0, 2 = 1.1 or 3 = 1.2); parameter payloads and static samplers are not decoded"
        )),
    }
    let param_count = b.uint_field("NumParameters", 4)?;
    let params_at = b.uint_field("ParametersOffset", 4)?;
    let sampler_count = b.uint_field("NumStaticSamplers", 4)?;
    let samplers_at = b.uint_field("StaticSamplersOffset", 4)?;
    let flags = b.uint_flags("Flags", 4, names::ROOT_FLAGS)?;
    if flags & !ROOT_FLAGS_MASK != 0 {
        b.error(format!(
            "flag bits 0x{:X} are not root signature flags (valid: 0x{ROOT_FLAGS_MASK:X}); LLVM rejects them",
            flags & !ROOT_FLAGS_MASK
        ));
    }
    b.set_key(root, "root signature");
    b.set_display(
        root,
        format!(
            "root signature {}, {}, {}",
            lay.map_or("?", |l| l.name),
            plural(param_count.value, "parameter"),
            plural(sampler_count.value, "static sampler")
        ),
    );
    let mut claims = Claims::default();
    claims.add(base, base + HEADER_SIZE, "the root signature header");

    // Parameter headers.
    let n = fit(
        b,
        param_count.value,
        PARAM_HEADER_SIZE,
        params_at.value,
        size,
        Some(param_count.id),
        Some(params_at.id),
        "parameter headers",
    );
    let mut params: Vec<Param> = Vec::new();
    let start = base + params_at.value;
    if n > 0
        && claim(
            b,
            &mut claims,
            start,
            n * PARAM_HEADER_SIZE,
            "the parameter headers",
            Some(params_at.id),
        )
    {
        b.region(
            "Parameters",
            Kind::Array,
            start,
            n * PARAM_HEADER_SIZE,
            |b| {
                for i in 0..n {
                    b.item(i, |b| {
                        let Field {
                            value: kind,
                            id: kind_id,
                        } = b.uint_enum_field("ParameterType", 4, names::root_parameter_type)?;
                        b.uint_enum("ShaderVisibility", 4, names::shader_visibility)?;
                        let Field {
                            value: offset,
                            id: offset_id,
                        } = b.uint_field("ParameterOffset", 4)?;
                        params.push(Param {
                            kind,
                            offset,
                            kind_id,
                            offset_id,
                        });
                        Ok(())
                    })?;
                }
                Ok(())
            },
        );
    }
    let Some(lay) = lay else {
        return Ok(());
    };

    // Reserve the static samplers first, so payloads cannot be decoded over them.
    let ns = fit(
        b,
        sampler_count.value,
        lay.sampler,
        samplers_at.value,
        size,
        Some(sampler_count.id),
        Some(samplers_at.id),
        "static samplers",
    );
    let s_start = base + samplers_at.value;
    let samplers = ns > 0
        && claim(
            b,
            &mut claims,
            s_start,
            ns * lay.sampler,
            "the static samplers",
            Some(samplers_at.id),
        );

    // Parameter payloads.
    let mut blocks = Vec::new();
    let mut ranges: Vec<Option<Ranges>> = Vec::with_capacity(params.len());
    // Payload offset → the first parameter whose payload is there.
    let mut first_at: VecMap<u64, usize> = VecMap::new();
    for (i, p) in params.iter().enumerate() {
        ranges.push(None);
        let plen = match p.kind {
            TYPE_TABLE => 8,
            TYPE_CONSTANTS => 12,
            2..=4 => lay.descriptor,
            _ => {
                b.set_error(
                    p.kind_id,
                    format!(
                        "unknown root parameter type {} (expected 0..4); its payload at offset 0x{:X} is not decoded",
                        p.kind, p.offset
                    ),
                );
                continue;
            }
        };
        if p.offset.saturating_add(plen) > size {
            b.set_error(
                p.offset_id,
                format!(
                    "a {plen}-byte payload at offset 0x{:X} runs past the end of the {size}-byte part",
                    p.offset
                ),
            );
            continue;
        }
        if let Some(&j) = first_at.get(&p.offset) {
            let mut text = format!(
                "offset 0x{:X}: same payload as parameter {j} (aliased; decoded there)",
                p.offset
            );
            if params[j].kind != p.kind {
                text.push_str(&format!(
                    ", as a {} payload",
                    names::root_parameter_type(params[j].kind).unwrap_or("?")
                ));
            }
            b.set_display(p.offset_id, text);
            continue;
        }
        first_at.insert(p.offset, i);
        let mut len = plen;
        if p.kind == TYPE_TABLE {
            let at = base + p.offset;
            let declared = b.peek_uint(at, 4).unwrap_or(0);
            let offset = b.peek_uint(at + 4, 4).unwrap_or(0);
            let count = if offset > size {
                0
            } else {
                declared.min((size - offset) / lay.range)
            };
            let contiguous = offset == p.offset + 8;
            if contiguous {
                len += count * lay.range;
            }
            ranges[i] = Some(Ranges {
                offset,
                count,
                declared,
                contiguous,
            });
        }
        blocks.push(Block {
            start: base + p.offset,
            len,
            index: i as u64,
            what: format!("parameter {i}'s payload"),
        });
    }
    // Ranges that do not follow their table are placed after the payloads.
    claims.plan(
        ranges
            .iter()
            .flatten()
            .filter(|r| !r.contiguous && r.count > 0)
            .map(|r| base + r.offset)
            .collect(),
    );
    // Ids of each table's NumDescriptorRanges and DescriptorRangesOffset.
    let mut table_ids: Vec<Option<(NodeId, NodeId)>> = vec![None; params.len()];
    let rejected = place(b, &mut claims, "ParameterData", &blocks, |b, blk| {
        let i = blk.index;
        let p = &params[i as usize];
        let item = b.current();
        b.set_display(item, names::root_parameter_type(p.kind).unwrap_or("?"));
        b.set_key(item, names::root_parameter_type(p.kind).unwrap_or("?"));
        match p.kind {
            TYPE_TABLE => {
                let r = ranges[i as usize].expect("table plan");
                let n_id = b.uint_field("NumDescriptorRanges", 4)?.id;
                let Field {
                    value: off,
                    id: o_id,
                } = b.uint_field("DescriptorRangesOffset", 4)?;
                table_ids[i as usize] = Some((n_id, o_id));
                if off > size {
                    b.set_error(
                        o_id,
                        format!("descriptor ranges at offset 0x{off:X} start past the end of the {size}-byte part"),
                    );
                } else if r.count < r.declared {
                    b.set_error(
                        n_id,
                        format!(
                            "{} descriptor ranges of {} bytes at offset 0x{off:X} need {} bytes, but only {} remain in the part; decoding {}",
                            r.declared,
                            lay.range,
                            r.declared.saturating_mul(lay.range),
                            size - off,
                            r.count
                        ),
                    );
                }
                if r.contiguous && r.count > 0 {
                    b.array("DescriptorRanges", |b| {
                        for j in 0..r.count {
                            b.item(j, |b| range(b, lay))?;
                        }
                        Ok(())
                    })?;
                } else if r.count > 0 {
                    b.set_display(
                        o_id,
                        format!("ranges at 0x{:X}: DescriptorRanges/[{i}]", base + off),
                    );
                }
                Ok(())
            }
            TYPE_CONSTANTS => {
                b.u32("ShaderRegister")?;
                space(b)?;
                b.u32("Num32BitValues")?;
                Ok(())
            }
            _ => {
                b.u32("ShaderRegister")?;
                space(b)?;
                if lay.flags {
                    let f = b.uint_flags("Flags", 4, names::ROOT_DESCRIPTOR_FLAGS)?;
                    if let Some(msg) = descriptor_flags_problem(f) {
                        b.error(msg);
                    }
                }
                Ok(())
            }
        }
    });
    for (blk, c) in rejected {
        b.set_error(params[blk.index as usize].offset_id, blk.clash_msg(&c));
    }

    // Descriptor ranges that do not follow their table; tables sharing the same
    // ranges decode them once.
    let mut far: Vec<Block> = Vec::new();
    let mut first_ranges: VecMap<(u64, u64), usize> = VecMap::new();
    for (i, r) in ranges.iter().enumerate() {
        let (Some(r), Some((_, o_id))) = (r, table_ids[i]) else {
            continue;
        };
        if r.contiguous || r.count == 0 {
            continue;
        }
        if let Some(&j) = first_ranges.get(&(r.offset, r.count)) {
            b.set_display(
                o_id,
                format!(
                    "ranges at 0x{:X}: same as parameter {j}'s (decoded there)",
                    base + r.offset
                ),
            );
            continue;
        }
        first_ranges.insert((r.offset, r.count), i);
        far.push(Block {
            start: base + r.offset,
            len: r.count * lay.range,
            index: i as u64,
            what: format!("parameter {i}'s descriptor ranges"),
        });
    }
    let rejected = place(b, &mut claims, "DescriptorRanges", &far, |b, blk| {
        let count = ranges[blk.index as usize].map_or(0, |r| r.count);
        for j in 0..count {
            b.item(j, |b| range(b, lay))?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        if let Some((_, o_id)) = table_ids[blk.index as usize] {
            b.set_error(o_id, blk.clash_msg(&c));
        }
    }

    // Static samplers.
    if samplers {
        b.region(
            "StaticSamplers",
            Kind::Array,
            s_start,
            ns * lay.sampler,
            |b| {
                for i in 0..ns {
                    b.item(i, |b| sampler(b, lay))?;
                }
                Ok(())
            },
        );
    }
    Ok(())
}

/// A `RegisterSpace` field; LLVM rejects the reserved spaces 0xFFFFFFF0 and up.
fn space(b: &mut Builder) -> DResult<()> {
    let s = b.u32("RegisterSpace")?;
    if s >= 0xFFFF_FFF0 {
        b.error(format!(
            "register space 0x{s:X} is reserved (0xFFFFFFF0..0xFFFFFFFF); LLVM rejects it"
        ));
    }
    Ok(())
}

/// One descriptor range (20 bytes in 1.0, 24 with Flags from 1.1).
fn range(b: &mut Builder, lay: Layout) -> DResult<()> {
    let ty = b.uint_enum("RangeType", 4, names::descriptor_range_type)?;
    let n = b.u32("NumDescriptors")?;
    if n == u32::MAX {
        b.display("unbounded");
    } else if n == 0 {
        b.error("NumDescriptors is 0; LLVM requires at least one descriptor");
    }
    b.u32("BaseShaderRegister")?;
    space(b)?;
    if lay.flags {
        let f = b.uint_flags("Flags", 4, names::DESCRIPTOR_RANGE_FLAGS)?;
        if let Some(msg) = range_flags_problem(f, ty == RANGE_SAMPLER) {
            b.error(msg);
        }
    }
    let o = b.u32("OffsetInDescriptorsFromTableStart")?;
    if o == u32::MAX {
        b.display("append (right after the previous range)");
    }
    Ok(())
}

/// One static sampler (52 bytes; 56 with Flags in 1.2).
fn sampler(b: &mut Builder, lay: Layout) -> DResult<()> {
    b.uint_enum("Filter", 4, names::sampler_filter)?;
    b.uint_enum("AddressU", 4, names::address_mode)?;
    b.uint_enum("AddressV", 4, names::address_mode)?;
    b.uint_enum("AddressW", 4, names::address_mode)?;
    b.f32("MipLODBias")?;
    b.u32("MaxAnisotropy")?;
    if b.uint_enum("ComparisonFunc", 4, names::comparison_func)? == 0 {
        b.display("None (D3D12_COMPARISON_FUNC_NONE: no comparison)");
    }
    b.uint_enum("BorderColor", 4, names::border_color)?;
    b.f32("MinLOD")?;
    if b.f32("MaxLOD")? == f32::MAX {
        b.display("FLT_MAX (D3D12_FLOAT32_MAX: no upper limit)");
    }
    b.u32("ShaderRegister")?;
    space(b)?;
    b.uint_enum("ShaderVisibility", 4, names::shader_visibility)?;
    if lay.sampler_flags {
        let f = b.uint_flags("Flags", 4, names::STATIC_SAMPLER_FLAGS)?;
        if f & !0x3 != 0 {
            b.error(format!(
                "flag bits 0x{:X} are not static sampler flags (valid: 0x3); LLVM rejects them",
                f & !0x3
            ));
        }
    }
    Ok(())
}

/// Why LLVM would reject root descriptor flags `f`, if it would.
fn descriptor_flags_problem(f: u64) -> Option<String> {
    if f & !DATA_FLAGS != 0 {
        return Some(format!(
            "flag bits 0x{:X} are not root descriptor flags (valid: 0x{DATA_FLAGS:X}); LLVM rejects them",
            f & !DATA_FLAGS
        ));
    }
    if (f & DATA_FLAGS).count_ones() > 1 {
        return Some(format!(
            "DataVolatile, DataStaticWhileSetAtExecute and DataStatic exclude each other, found 0x{f:X}; LLVM rejects this"
        ));
    }
    None
}

/// Why LLVM would reject descriptor range flags `f`, if it would
/// (`verifyDescriptorRangeFlag` for version 1.1+).
fn range_flags_problem(f: u64, is_sampler: bool) -> Option<String> {
    let known = DATA_FLAGS | DESCRIPTORS_VOLATILE | DESCRIPTORS_STATIC_KEEPING_BOUNDS;
    let why = if f & !known != 0 {
        format!(
            "flag bits 0x{:X} are not descriptor range flags (valid: 0x{known:X})",
            f & !known
        )
    } else if (f & DATA_FLAGS).count_ones() > 1 {
        "DataVolatile, DataStaticWhileSetAtExecute and DataStatic exclude each other".into()
    } else if f & DESCRIPTORS_VOLATILE != 0 && f & DESCRIPTORS_STATIC_KEEPING_BOUNDS != 0 {
        "DescriptorsVolatile and DescriptorsStaticKeepingBufferBoundsChecks exclude each other"
            .into()
    } else if is_sampler && f & DATA_FLAGS != 0 {
        "sampler ranges cannot carry data flags".into()
    } else if f & DESCRIPTORS_VOLATILE != 0 && f & 0x8 != 0 {
        "volatile descriptors cannot have DataStatic".into()
    } else {
        return None;
    };
    Some(format!("{why}, found 0x{f:X}; LLVM rejects these flags"))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_tree, container, error, fuzz, node, num, put, shown};
    use crate::tree::Value;

    const EMPTY: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/d3d12_root_signature_L801_empty_rootsig.dxbc"
    );
    const EMBEDDED_VS: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/embedded_rs_vs_space0_code_dxbc.dxbc"
    );
    const EMBEDDED_GS: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/embedded_rs_gs_space1_code_dxbc.dxbc"
    );
    const NULL_RS: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/ps_null_root_signature_code_dxbc.dxbc"
    );

    /// A version 1.2 root signature: a descriptor table (two ranges right after
    /// it), root constants, a CBV and a second CBV aliasing the first's payload,
    /// and one static sampler.
    fn rs12() -> Vec<u8> {
        let mut v = Vec::new();
        put(&mut v, &[3, 4, 24, 1, 152, 0x1]);
        put(&mut v, &[0, 0, 72, 1, 5, 128, 2, 0, 140, 2, 1, 140]);
        put(&mut v, &[2, 80]);
        put(&mut v, &[0, 4, 0, 0, 0, 0]);
        put(&mut v, &[3, u32::MAX, 1, 2, 0x1, u32::MAX]);
        put(&mut v, &[3, 0, 4]);
        put(&mut v, &[5, 1, 0x8]);
        put(
            &mut v,
            &[
                0x55,
                1,
                2,
                3,
                (-1.5f32).to_bits(),
                16,
                4,
                2,
                0,
                1000f32.to_bits(),
                7,
                0,
                0,
                2,
            ],
        );
        assert_eq!(v.len(), 208);
        v
    }

    #[test]
    fn decodes_an_empty_root_signature() {
        let d = crate::decode_bytes(EMPTY);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/RootSignature";
        assert_eq!(num(t, &format!("{r}/Version")), 1);
        assert_eq!(shown(t, &format!("{r}/Version")), "1.0");
        assert_eq!(num(t, &format!("{r}/NumParameters")), 0);
        assert_eq!(num(t, &format!("{r}/ParametersOffset")), 24);
        assert_eq!(num(t, &format!("{r}/StaticSamplersOffset")), 24);
        assert_eq!(shown(t, &format!("{r}/Flags")), "none");
        assert!(t.find(&format!("{r}/Parameters")).is_none());
    }

    #[test]
    fn decodes_root_uavs_of_an_embedded_root_signature() {
        let d = crate::decode_bytes(EMBEDDED_VS);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[4]/RootSignature";
        assert_eq!(num(t, &format!("{r}/Version")), 2);
        assert_eq!(num(t, &format!("{r}/NumParameters")), 2);
        assert_eq!(num(t, &format!("{r}/StaticSamplersOffset")), 72);
        assert_eq!(
            shown(t, &format!("{r}/Parameters/[0]/ParameterType")),
            "UAV"
        );
        assert_eq!(
            shown(t, &format!("{r}/Parameters/[1]/ShaderVisibility")),
            "All"
        );
        assert_eq!(num(t, &format!("{r}/Parameters/[1]/ParameterOffset")), 60);
        assert_eq!(num(t, &format!("{r}/ParameterData/[1]/ShaderRegister")), 1);
        assert_eq!(num(t, &format!("{r}/ParameterData/[1]/Flags")), 0);
        // 0x180 part data + 60: the second payload ends the part.
        assert_eq!(
            node(t, &format!("{r}/ParameterData/[1]")).span,
            crate::tree::BitSpan::bytes(0x1BC, 0x1C8)
        );
    }

    #[test]
    fn decodes_root_constants() {
        let d = crate::decode_bytes(NULL_RS);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[3]/RootSignature";
        assert_eq!(
            shown(t, &format!("{r}/Parameters/[0]/ParameterType")),
            "Constants32Bit"
        );
        assert!(t
            .find(&format!("{r}/ParameterData/[0]/Num32BitValues"))
            .is_some());
    }

    #[test]
    fn decodes_tables_constants_aliases_and_samplers_of_version_1_2() {
        let part = rs12();
        let file = container(&[(b"RTS0", &part)]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/RootSignature";
        assert_eq!(shown(t, &format!("{r}/Version")), "1.2");
        assert_eq!(
            shown(t, &format!("{r}/Flags")),
            "AllowInputAssemblerInputLayout"
        );
        let table = format!("{r}/ParameterData/[0]");
        assert_eq!(shown(t, &table), "DescriptorTable");
        assert_eq!(num(t, &format!("{table}/NumDescriptorRanges")), 2);
        assert_eq!(
            num(t, &format!("{table}/DescriptorRanges/[0]/NumDescriptors")),
            4
        );
        let r1 = format!("{table}/DescriptorRanges/[1]");
        assert_eq!(shown(t, &format!("{r1}/RangeType")), "Sampler");
        assert_eq!(shown(t, &format!("{r1}/NumDescriptors")), "unbounded");
        assert_eq!(num(t, &format!("{r1}/RegisterSpace")), 2);
        assert_eq!(shown(t, &format!("{r1}/Flags")), "DescriptorsVolatile");
        assert!(shown(t, &format!("{r1}/OffsetInDescriptorsFromTableStart")).starts_with("append"));
        assert_eq!(num(t, &format!("{r}/ParameterData/[1]/Num32BitValues")), 4);
        assert_eq!(
            shown(t, &format!("{r}/ParameterData/[2]/Flags")),
            "DataStatic"
        );
        assert!(t.find(&format!("{r}/ParameterData/[3]")).is_none());
        let alias = shown(t, &format!("{r}/Parameters/[3]/ParameterOffset"));
        assert!(alias.contains("same payload as parameter 2"), "{alias}");
        let s = format!("{r}/StaticSamplers/[0]");
        assert_eq!(shown(t, &format!("{s}/Filter")), "Anisotropic");
        assert_eq!(shown(t, &format!("{s}/AddressW")), "Clamp");
        assert_eq!(
            node(t, &format!("{s}/MipLODBias")).value,
            Some(Value::F(-1.5))
        );
        assert_eq!(
            node(t, &format!("{s}/MaxLOD")).value,
            Some(Value::F(1000.0))
        );
        assert_eq!(shown(t, &format!("{s}/ComparisonFunc")), "LessEqual");
        assert_eq!(shown(t, &format!("{s}/BorderColor")), "OpaqueWhite");
        assert_eq!(shown(t, &format!("{s}/Flags")), "NonNormalizedCoordinates");
        fuzz(&file, 36, 1500);
    }

    #[test]
    fn decodes_descriptor_ranges_that_do_not_follow_their_table() {
        // One table whose two 1.0 ranges sit after an unrelated gap.
        let mut v = Vec::new();
        put(&mut v, &[1, 1, 24, 0, 88, 0]);
        put(&mut v, &[0, 0, 36]);
        put(&mut v, &[2, 52]);
        put(&mut v, &[0xAAAA_AAAA; 2]);
        put(&mut v, &[1, 1, 0, 0, 0, 2, 3, 4, 0, 1]);
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v)]));
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/RootSignature";
        assert!(
            shown(t, &format!("{r}/ParameterData/[0]/DescriptorRangesOffset"))
                .contains("DescriptorRanges/[0]")
        );
        assert_eq!(
            shown(t, &format!("{r}/DescriptorRanges/[0]/[1]/RangeType")),
            "CBV"
        );
        assert_eq!(
            num(
                t,
                &format!("{r}/DescriptorRanges/[0]/[1]/BaseShaderRegister")
            ),
            4
        );
        assert!(t
            .find(&format!("{r}/DescriptorRanges/[0]/[1]/Flags"))
            .is_none());

        // A second table with the same ranges shares them.
        let mut v2 = Vec::new();
        put(&mut v2, &[1, 2, 24, 0, 108, 0]);
        put(&mut v2, &[0, 0, 48, 0, 5, 56]);
        put(&mut v2, &[2, 68, 2, 68]);
        put(&mut v2, &[0xAAAA_AAAA; 1]);
        put(&mut v2, &[1, 1, 0, 0, 0, 2, 3, 4, 0, 1]);
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v2)]));
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let shared = shown(t, &format!("{r}/ParameterData/[1]/DescriptorRangesOffset"));
        assert!(shared.contains("same as parameter 0's"), "{shared}");
        assert_eq!(
            num(t, &format!("{r}/DescriptorRanges/[0]/[1]/NumDescriptors")),
            3
        );
        assert!(t.find(&format!("{r}/DescriptorRanges/[1]")).is_none());
    }

    #[test]
    fn reports_bad_version_flags_counts_and_overlaps() {
        let mut v = rs12();
        v[0] = 7;
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v)]));
        check_tree(&d.tree);
        let r = "Parts/[0]/RootSignature";
        assert!(
            error(&d.tree, &format!("{r}/Version")).contains("unknown root signature version 7")
        );
        assert!(d.tree.find(&format!("{r}/Parameters/[3]")).is_some());
        assert!(d.tree.find(&format!("{r}/ParameterData")).is_none());

        let mut v = rs12();
        v[20..24].copy_from_slice(&0x1001u32.to_le_bytes());
        v[4..8].copy_from_slice(&0xFFFFu32.to_le_bytes());
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v)]));
        check_tree(&d.tree);
        let t = &d.tree;
        assert!(error(t, &format!("{r}/Flags")).contains("0x1000"));
        let e = error(t, &format!("{r}/NumParameters"));
        assert!(
            e.contains("65535 parameter headers") && e.contains("decoding 15"),
            "{e}"
        );
        // The 15 headers that fit cover the samplers, which are then not decoded.
        let e = error(t, &format!("{r}/StaticSamplersOffset"));
        assert!(
            e.contains("would overlap the parameter headers at 0x44..0xF8"),
            "{e}"
        );
        assert!(t.find(&format!("{r}/StaticSamplers")).is_none());

        let mut v = rs12();
        v[32..36].copy_from_slice(&30u32.to_le_bytes()); // parameter 0's payload inside the headers
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v)]));
        check_tree(&d.tree);
        let t = &d.tree;
        let e = error(t, &format!("{r}/Parameters/[0]/ParameterOffset"));
        assert!(
            e.starts_with("parameter 0's payload at 0x4A..")
                && e.contains("would overlap the parameter headers"),
            "{e}"
        );
        assert!(t.find(&format!("{r}/ParameterData/[0]")).is_none());
        assert_eq!(num(t, &format!("{r}/ParameterData/[1]/ShaderRegister")), 3);
    }

    #[test]
    fn reports_invalid_range_flags() {
        let mut v = rs12();
        v[96..100].copy_from_slice(&0x9u32.to_le_bytes());
        let d = crate::decode_bytes(&container(&[(b"RTS0", &v)]));
        check_tree(&d.tree);
        let e = error(
            &d.tree,
            "Parts/[0]/RootSignature/ParameterData/[0]/DescriptorRanges/[0]/Flags",
        );
        assert!(
            e.contains("volatile descriptors cannot have DataStatic"),
            "{e}"
        );
    }

    #[test]
    fn survives_truncation_and_corruption() {
        for (file, from) in [
            (EMPTY, 0x24),
            (EMBEDDED_VS, 0x178),
            (EMBEDDED_GS, 0x114),
            (NULL_RS, 0x30),
        ] {
            fuzz(file, from, 1500);
        }
    }
}
