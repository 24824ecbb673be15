//! RDEF: FXC's resource definitions, SM4 and SM5 (`RD11`) layouts, as Wine's
//! `d3dcompiler` reflection reader reads them (layout notes §8,
//! `specs/notes/dxcontainer-layout.md`): bound resources, constant buffers, their
//! variables and default values, types and members, and the strings between the
//! tables. Offsets are relative to the part data; tables are laid out with
//! [`super::place::place`]. `specs/dxcontainer.md` lists the part but does not lay it
//! out.

mod names;

use crate::sorted::VecMap;

use super::place::{claim, fit, place, Block, Claims};
use super::{u32_array, Context};
use crate::builder::{flag_names, Builder, DResult, Field};
use crate::tree::{Kind, NodeId, Value};

/// RDEF (FXC resource definitions): header with `Target` and creator string, the
/// SM5 `RD11` sizes, bound resources, constant buffers, their variables, the
/// variable types and their members. Names are offsets from the RDEF data start;
/// the strings between the tables are shown as `Strings` areas.
pub(super) fn rdef(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let mut strs: Vec<u64> = Vec::new();
    let cbc = b.uint_field("ConstantBufferCount", 4)?;
    let cbo = b.uint_field("ConstantBufferOffset", 4)?;
    let brc = b.uint_field("BoundResourceCount", 4)?;
    let bro = b.uint_field("BoundResourceOffset", 4)?;
    let Field {
        value: (minor, major, ptype),
        id: tid,
    } = b.group_field("Target", |b| {
        let minor = b.u8("MinorVersion")? as u64;
        let major = b.u8("MajorVersion")? as u64;
        let ptype = b.uint_enum("ProgramType", 2, names::rdef_program_type)?;
        Ok((minor, major, ptype))
    })?;
    if let Some(raw) = b.peek_uint(base + 16, 4) {
        b.set_value(tid, Value::U(raw));
    }
    let prefix = match ptype {
        0xFFFE => "vs",
        0xFFFF => "ps",
        0x4353 => "cs",
        0x4753 => "gs",
        0x4853 => "hs",
        0x4453 => "ds",
        _ => "?",
    };
    b.set_display(tid, format!("{prefix}_{major}_{minor}"));
    let flags = b.u32("Flags")? as u64;
    b.display(compile_flags(flags));
    if let Some(o) = b.peek_uint(b.pos(), 4) {
        strs.push(o);
    }
    b.strref("Creator", 4, base, end)?;
    let sm5 = major >= 5;
    let sm51 = (major, minor) >= (5, 1);
    if sm5 {
        b.group("RD11", |b| {
            let magic = b.fourcc("Magic")?;
            if &magic != b"RD11" {
                b.error(format!(
                    "expected \"RD11\" after an SM5 RDEF header, found \"{}\"",
                    crate::builder::fourcc_text(&magic)
                ));
            }
            for (name, what) in [
                ("HeaderSize", "size of this RDEF header"),
                ("ConstantBufferDescSize", "size of a constant buffer entry"),
                ("ResourceBindingDescSize", "size of a bound resource entry"),
                ("VariableDescSize", "size of a variable entry"),
                ("TypeDescSize", "size of a type entry"),
                ("MemberDescSize", "size of a type member entry"),
            ] {
                b.u32(name)?;
                b.display(what);
            }
            b.u32("InterfaceSlotCount")?;
            Ok(())
        })?;
    }
    let mut claims = Claims::default();
    claims.add(base, b.pos(), "the RDEF header");
    let layout = RdefLayout {
        base,
        size,
        br_stride: if sm51 { 40 } else { 32 },
        var_stride: if sm5 { 40 } else { 24 },
        type_size: if sm5 { 36 } else { 16 },
    };
    claims.plan(rdef_starts(
        b,
        &layout,
        (brc.value, bro.value),
        (cbc.value, cbo.value),
    ));

    // Bound resources.
    let br_stride = layout.br_stride;
    let n = fit(
        b,
        brc.value,
        br_stride,
        bro.value,
        size,
        Some(brc.id),
        Some(bro.id),
        "bound resources",
    );
    if n > 0
        && claim(
            b,
            &mut claims,
            base + bro.value,
            n * br_stride,
            "the bound resources",
            Some(bro.id),
        )
    {
        b.region(
            "BoundResources",
            Kind::Array,
            base + bro.value,
            n * br_stride,
            |b| {
                for i in 0..n {
                    b.item(i, |b| {
                        strs.extend(b.peek_uint(b.pos(), 4));
                        b.strref("Name", 4, base, end)?;
                        b.uint_enum("Type", 4, names::shader_input_type)?;
                        let rt = b.uint_enum("ReturnType", 4, names::return_type)?;
                        if rt == 0 {
                            b.display("none (not a typed texture or buffer)");
                        }
                        b.uint_enum("Dimension", 4, names::srv_dimension)?;
                        let ns = b.u32("NumSamples")?;
                        if ns == u32::MAX {
                            b.display("not multisampled");
                        }
                        b.u32("BindPoint")?;
                        b.u32("BindCount")?;
                        b.uint_flags("Flags", 4, names::SHADER_INPUT_FLAGS)?;
                        if sm51 {
                            b.u32("Space")?;
                            b.u32("ID")?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            },
        );
    }

    // Constant buffers.
    let n = fit(
        b,
        cbc.value,
        24,
        cbo.value,
        size,
        Some(cbc.id),
        Some(cbo.id),
        "constant buffers",
    );
    let mut cbs: Vec<(u64, u64, NodeId, NodeId)> = Vec::new(); // count, offset, count id, offset id
    if n > 0
        && claim(
            b,
            &mut claims,
            base + cbo.value,
            n * 24,
            "the constant buffers",
            Some(cbo.id),
        )
    {
        b.region(
            "ConstantBuffers",
            Kind::Array,
            base + cbo.value,
            n * 24,
            |b| {
                for i in 0..n {
                    b.item(i, |b| {
                        strs.extend(b.peek_uint(b.pos(), 4));
                        b.strref("Name", 4, base, end)?;
                        let Field {
                            value: vc,
                            id: vc_id,
                        } = b.uint_field("VariableCount", 4)?;
                        let Field {
                            value: vo,
                            id: vo_id,
                        } = b.uint_field("VariableOffset", 4)?;
                        cbs.push((vc, vo, vc_id, vo_id));
                        b.u32("Size")?;
                        b.uint_flags("Flags", 4, names::CBUFFER_FLAGS)?;
                        b.uint_enum("Type", 4, names::cbuffer_type)?;
                        Ok(())
                    })?;
                }
                Ok(())
            },
        );
    }

    // Variables of each constant buffer.
    let var_stride = layout.var_stride;
    let mut blocks = Vec::new();
    let mut counts = Vec::new();
    for (i, &(vc, vo, vc_id, vo_id)) in cbs.iter().enumerate() {
        let k = fit(
            b,
            vc,
            var_stride,
            vo,
            size,
            Some(vc_id),
            Some(vo_id),
            "variables",
        );
        counts.push(k);
        blocks.push(Block {
            start: base + vo,
            len: k * var_stride,
            index: i as u64,
            what: format!("constant buffer {i}'s variables"),
        });
    }
    // Type offsets with the first node referring to each (and where each is in
    // that list); default values to place.
    let mut types: Vec<(u64, NodeId)> = Vec::new();
    let mut type_index: VecMap<u64, usize> = VecMap::new();
    let mut defaults: Vec<(Block, NodeId)> = Vec::new();
    let rejected = place(b, &mut claims, "Variables", &blocks, |b, blk| {
        for j in 0..counts[blk.index as usize] {
            b.item(j, |b| {
                strs.extend(b.peek_uint(b.pos(), 4));
                b.strref("Name", 4, base, end)?;
                b.u32("StartOffset")?;
                let vsize = b.u32("Size")? as u64;
                b.uint_flags("Flags", 4, names::VARIABLE_FLAGS)?;
                let Field {
                    value: to,
                    id: to_id,
                } = b.uint_field("TypeOffset", 4)?;
                type_index.get_or_insert_with(to, || {
                    types.push((to, to_id));
                    types.len() - 1
                });
                let k = type_index.get(&to).copied().unwrap_or(0);
                b.set_display(to_id, format!("type {k} at 0x{:X}", base + to));
                let Field {
                    value: dv,
                    id: dv_id,
                } = b.uint_field("DefaultValueOffset", 4)?;
                if dv == 0 {
                    b.display("none");
                } else {
                    let g = defaults.len() as u64;
                    b.display(format!("default value {g} at 0x{:X}", base + dv));
                    defaults.push((
                        Block {
                            start: base + dv,
                            len: vsize.min(size.saturating_sub(dv)),
                            index: g,
                            what: "a default value".into(),
                        },
                        dv_id,
                    ));
                }
                if sm5 {
                    for name in ["StartTexture", "TextureSize", "StartSampler", "SamplerSize"] {
                        let v = b.u32(name)?;
                        if v == u32::MAX {
                            b.display("none");
                        }
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(cbs[blk.index as usize].3, blk.clash_msg(&c));
    }

    // Default values.
    let dblocks: Vec<Block> = defaults
        .iter()
        .map(|(k, _)| Block {
            start: k.start,
            len: k.len,
            index: k.index,
            what: k.what.clone(),
        })
        .collect();
    let rejected = place(b, &mut claims, "DefaultValues", &dblocks, |b, blk| {
        b.bytes("Value", blk.len).map(|_| ())
    });
    for (blk, c) in rejected {
        b.set_error(defaults[blk.index as usize].1, blk.clash_msg(&c));
    }

    // Types, following member types; at most one per 16 bytes of the part.
    let tsize = layout.type_size;
    let mut k = 0;
    let mut members: Vec<(u64, u64, u64)> = Vec::new(); // type index, offset, count
    while k < types.len() && types.len() as u64 <= size / 16 + 1 {
        let (to, _) = types[k];
        let at = base + to;
        let cnt = b.peek_uint(at + 10, 2).unwrap_or(0);
        let mo = b.peek_uint(at + 12, 4).unwrap_or(0);
        if cnt > 0 && to + tsize <= size {
            let m = cnt.min(size.saturating_sub(mo) / 12);
            members.push((k as u64, mo, m));
            for j in 0..m {
                if let Some(mt) = b.peek_uint(base + mo + 12 * j + 4, 4) {
                    let from = types[k].1;
                    type_index.get_or_insert_with(mt, || {
                        types.push((mt, from));
                        types.len() - 1
                    });
                }
            }
        }
        k += 1;
    }
    let mut tblocks = Vec::new();
    for (k, &(to, id)) in types.iter().enumerate() {
        if to.saturating_add(tsize) > size {
            b.set_error(
                id,
                format!(
                    "a {tsize}-byte type at offset 0x{to:X} does not fit in the {size}-byte part"
                ),
            );
            continue;
        }
        tblocks.push(Block {
            start: base + to,
            len: tsize,
            index: k as u64,
            what: format!("type {k}"),
        });
    }
    let rejected = place(b, &mut claims, "Types", &tblocks, |b, _blk| {
        b.uint_enum("Class", 2, names::variable_class)?;
        b.uint_enum("Type", 2, names::variable_type)?;
        b.u16("Rows")?;
        b.u16("Columns")?;
        b.u16("Elements")?;
        let m = b.u16("Members")?;
        let mo = b.u32("MemberOffset")?;
        if m > 0 {
            b.display(format!("members at 0x{:X}", base + mo as u64));
        }
        if sm5 {
            u32_array(b, "Unidentified", 4)?;
            b.display("four dwords Wine's reader skips; their meaning is not documented");
            strs.extend(b.peek_uint(b.pos(), 4));
            b.strref("Name", 4, base, end)?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(types[blk.index as usize].1, blk.clash_msg(&c));
    }
    let mblocks: Vec<Block> = members
        .iter()
        .map(|&(k, mo, m)| Block {
            start: base + mo,
            len: m * 12,
            index: k,
            what: format!("type {k}'s members"),
        })
        .collect();
    let rejected = place(b, &mut claims, "Members", &mblocks, |b, blk| {
        for j in 0..blk.len / 12 {
            b.item(j, |b| {
                strs.extend(b.peek_uint(b.pos(), 4));
                b.strref("Name", 4, base, end)?;
                let t = b.u32("TypeOffset")? as u64;
                if let Some(i) = type_index.get(&t) {
                    b.display(format!("type {i} at 0x{:X}", base + t));
                }
                b.u32("Offset")?;
                Ok(())
            })?;
        }
        Ok(())
    });
    for (blk, c) in rejected {
        b.set_error(types[blk.index as usize].1, blk.clash_msg(&c));
    }

    // The strings between the tables.
    let mut strs: Vec<u64> = strs.iter().map(|&o| base.saturating_add(o)).collect();
    crate::sorted::sort(&mut strs);
    for (s, e) in claims.gaps(base, end) {
        let lo = strs.partition_point(|&a| a < s);
        let hi = strs.partition_point(|&a| a < e);
        let here: Vec<u64> = strs[lo..hi].iter().map(|&a| a - base).collect();
        if !here.is_empty() {
            super::signature::strings_area(b, base, s, e, here)?;
        }
    }
    Ok(())
}

/// Entry sizes of an RDEF, which depend on its target.
struct RdefLayout {
    base: u64,
    size: u64,
    br_stride: u64,
    var_stride: u64,
    type_size: u64,
}

/// Where the RDEF's tables, variables, types, member tables, default values and
/// strings start (absolute), from peeked values. Only used to keep containers from
/// spanning each other; each loop is bounded by the part size.
fn rdef_starts(b: &Builder, l: &RdefLayout, br: (u64, u64), cb: (u64, u64)) -> Vec<u64> {
    let (base, size) = (l.base, l.size);
    let peek = |rel: u64| b.peek_uint(base.saturating_add(rel), 4).unwrap_or(u64::MAX);
    let mut out = Vec::new();
    let mut push = |rel: u64| {
        if rel < size {
            out.push(base + rel);
        }
    };
    push(peek(24)); // creator
    push(br.1);
    for i in 0..br.0.min(size / l.br_stride) {
        push(peek(br.1.saturating_add(i * l.br_stride)));
    }
    push(cb.1);
    let mut types: Vec<u64> = Vec::new();
    let mut seen: VecMap<u64, ()> = VecMap::new();
    let mut vars_left = size / l.var_stride;
    for i in 0..cb.0.min(size / 24) {
        let at = cb.1.saturating_add(24 * i);
        push(peek(at));
        let (vc, vo) = (peek(at.saturating_add(4)), peek(at.saturating_add(8)));
        push(vo);
        for j in 0..vc.min(vars_left) {
            let va = vo.saturating_add(j * l.var_stride);
            push(peek(va));
            let t = peek(va.saturating_add(16));
            push(t);
            let dv = peek(va.saturating_add(20));
            if dv != 0 {
                push(dv);
            }
            if seen.insert(t, ()).is_none() {
                types.push(t);
            }
        }
        vars_left = vars_left.saturating_sub(vc);
    }
    let mut k = 0;
    while k < types.len() && k as u64 <= size / 16 {
        let t = types[k];
        let count = b
            .peek_uint(base.saturating_add(t).saturating_add(10), 2)
            .unwrap_or(0);
        let mo = peek(t.saturating_add(12));
        if l.type_size == 36 {
            push(peek(t.saturating_add(32)));
        }
        if count > 0 {
            push(mo);
            for m in 0..count.min(size / 12) {
                push(peek(mo.saturating_add(12 * m)));
                let mt = peek(mo.saturating_add(12 * m).saturating_add(4));
                push(mt);
                if seen.insert(mt, ()).is_none() {
                    types.push(mt);
                }
            }
        }
        k += 1;
    }
    out
}

/// Names the `D3DCOMPILE_*` bits of an RDEF `Flags` word.
fn compile_flags(v: u64) -> String {
    let level = match v & 0xC000 {
        0x4000 => Some("OptimizationLevel0"),
        0xC000 => Some("OptimizationLevel2"),
        0x8000 => Some("OptimizationLevel3"),
        _ => None,
    };
    let rest = flag_names(v & !0xC000, names::COMPILE_FLAGS);
    match (level, v & !0xC000) {
        (Some(l), 0) => l.to_string(),
        (Some(l), _) => format!("{rest} | {l}"),
        (None, _) => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        check_tree, container, fuzz, node, num, put, shown, text, DMAX, WRITE_DXBC,
    };
    use crate::tree::BitSpan;

    #[test]
    fn decodes_rdef_stat_and_shex_of_fxc_output() {
        let d = crate::decode_bytes(WRITE_DXBC);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(num(t, &format!("{r}/BoundResourceCount")), 1);
        assert_eq!(num(t, &format!("{r}/BoundResourceOffset")), 0x3C);
        assert_eq!(num(t, &format!("{r}/Target")), 0x4353_0500);
        assert_eq!(shown(t, &format!("{r}/Target")), "cs_5_0");
        assert_eq!(shown(t, &format!("{r}/Flags")), "NoPreshader");
        assert_eq!(
            text(t, &format!("{r}/Creator")),
            "Microsoft (R) HLSL Shader Compiler 10.1"
        );
        assert_eq!(text(t, &format!("{r}/RD11/Magic")), "RD11");
        assert_eq!(num(t, &format!("{r}/RD11/HeaderSize")), 60);
        let br = format!("{r}/BoundResources/[0]");
        assert_eq!(text(t, &format!("{br}/Name")), "UAVUnorm8x4");
        assert_eq!(shown(t, &format!("{br}/Type")), "UAVRWTyped");
        assert_eq!(shown(t, &format!("{br}/ReturnType")), "Float");
        assert_eq!(shown(t, &format!("{br}/Dimension")), "Texture2D");
        assert_eq!(num(t, &format!("{br}/Flags")), 13);
        assert_eq!(text(t, &format!("{r}/Strings/[0]")), "UAVUnorm8x4");

        let s = "Parts/[3]/Shader";
        assert_eq!(shown(t, &format!("{s}/Version")), "cs_5_0");
        assert_eq!(num(t, &format!("{s}/Version/ProgramType")), 5);
        assert_eq!(num(t, &format!("{s}/Length")), 36);
        assert_eq!(num(t, &format!("{s}/Instructions/[0]/OpcodeType")), 106);
        assert_eq!(
            shown(t, &format!("{s}/Instructions/[7]/OpcodeType")),
            "store_uav_typed"
        );
        assert_eq!(num(t, &format!("{s}/Instructions/[7]/Length")), 6);
        assert_eq!(shown(t, &format!("{s}/Instructions/[8]")), "ret");
        assert!(t.find(&format!("{s}/Instructions/[9]")).is_none());

        let st = "Parts/[4]/Statistics";
        assert_eq!(num(t, &format!("{st}/InstructionCount")), 4);
        assert_eq!(num(t, &format!("{st}/TempRegisterCount")), 1);
        assert_eq!(num(t, &format!("{st}/FloatInstructionCount")), 1);
        assert_eq!(num(t, &format!("{st}/ConversionInstructionCount")), 1);
        assert_eq!(num(t, &format!("{st}/[36]")), 1);
    }

    #[test]
    fn decodes_rdef_constant_buffer_variables_and_types() {
        let d = crate::decode_bytes(DMAX);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(shown(t, &format!("{r}/Target")), "ps_5_0");
        assert_eq!(
            text(t, &format!("{r}/ConstantBuffers/[0]/Name")),
            "$Globals"
        );
        assert_eq!(num(t, &format!("{r}/ConstantBuffers/[0]/Size")), 16);
        let v = format!("{r}/Variables/[0]/[0]");
        assert_eq!(text(t, &format!("{v}/Name")), "src0");
        assert_eq!(num(t, &format!("{v}/Size")), 8);
        assert_eq!(shown(t, &format!("{v}/Flags")), "Used");
        assert_eq!(shown(t, &format!("{r}/Types/[0]/Type")), "Double");
        assert_eq!(text(t, &format!("{r}/Types/[0]/Name")), "double");
        assert_eq!(num(t, &format!("{r}/Types/[0]/Columns")), 1);
    }

    /// An SM4 pixel-shader RDEF: one constant buffer with one struct variable of
    /// two float2 members.
    fn rdef_sm4() -> Vec<u8> {
        let mut v = Vec::new();
        put(&mut v, &[1, 28, 0, 0, 0xFFFF_0400, 0, 142]);
        put(&mut v, &[132, 1, 52, 16, 0, 0]);
        put(&mut v, &[136, 0, 16, 2, 76, 0]);
        put(&mut v, &[0x0000_0005, 0x0004_0001, 0x0002_0000, 92]);
        put(&mut v, &[138, 116, 0, 140, 116, 8]);
        put(&mut v, &[0x0003_0001, 0x0002_0001, 0, 0]);
        v.extend_from_slice(b"cb0\0v\0a\0b\0creator\0\0\0");
        assert_eq!(v.len(), 152);
        v
    }

    #[test]
    fn decodes_sm4_rdef_struct_types_and_members() {
        let file = container(&[(b"RDEF", &rdef_sm4())]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let r = "Parts/[0]/ResourceDefinitions";
        assert_eq!(shown(t, &format!("{r}/Target")), "ps_4_0");
        assert!(t.find(&format!("{r}/RD11")).is_none());
        assert_eq!(text(t, &format!("{r}/Creator")), "creator");
        assert_eq!(text(t, &format!("{r}/ConstantBuffers/[0]/Name")), "cb0");
        let v = format!("{r}/Variables/[0]/[0]");
        assert_eq!(text(t, &format!("{v}/Name")), "v");
        assert!(t.find(&format!("{v}/StartTexture")).is_none());
        assert_eq!(
            node(t, &format!("{r}/Variables/[0]/[0]")).span,
            BitSpan::bytes(0x2C + 52, 0x2C + 76)
        );
        // Member tables sit between the two types, so each type is its own region.
        assert_eq!(shown(t, &format!("{r}/Types[0]/Class")), "Struct");
        assert_eq!(num(t, &format!("{r}/Types[0]/Members")), 2);
        assert_eq!(text(t, &format!("{r}/Members/[0]/[1]/Name")), "b");
        assert_eq!(num(t, &format!("{r}/Members/[0]/[1]/Offset")), 8);
        assert_eq!(
            shown(t, &format!("{r}/Members/[0]/[1]/TypeOffset")),
            "type 1 at 0xA0"
        );
        assert_eq!(shown(t, &format!("{r}/Types[1]/Type")), "Float");
        assert_eq!(num(t, &format!("{r}/Types[1]/Columns")), 2);
        assert_eq!(text(t, &format!("{r}/Strings/[4]")), "creator");
        fuzz(&file, 0x2C, 1500);
    }
}
