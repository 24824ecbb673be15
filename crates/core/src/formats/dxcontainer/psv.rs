//! PSV0: pipeline state validation data, versions 0–3.
//!
//! Parse order (spec "PSV0 Part", LLVM's reader): `RuntimeInfoSize` and the
//! RuntimeInfo it sizes (the version is inferred from the size: 24 = v0, 36 = v1,
//! 48 = v2, 52 = v3; a larger size is read as v3 plus unknown bytes), resource
//! bindings, then from v1 on the string table, the semantic index table, the
//! signature elements (inputs, outputs, patch constant / primitive), the ViewID
//! output masks, and the input→output, input→patch and patch→output dependency maps.
//! Fields sit flat under `PSVInfo`, named as LLVM's `obj2yaml` names them.

use super::{
    derived_u, fixed_pages,
    names::{self, pick},
    page_size, pages, string_table, u32_array, Context,
};
use crate::builder::{Builder, DResult, Field};
use crate::tree::{BitSpan, Kind, Name, NodeId, Value};

/// PSV shader stages with stage-specific fields.
pub(super) const STAGE_PIXEL: u64 = 0;
pub(super) const STAGE_VERTEX: u64 = 1;
pub(super) const STAGE_GEOMETRY: u64 = 2;
pub(super) const STAGE_HULL: u64 = 3;
pub(super) const STAGE_DOMAIN: u64 = 4;
pub(super) const STAGE_MESH: u64 = 13;
pub(super) const STAGE_AMPLIFICATION: u64 = 14;

/// What later PSV sections need from the RuntimeInfo.
#[derive(Default)]
struct Info {
    version: u32,
    stage: Option<u64>,
    uses_view_id: bool,
    patch_const_or_prim_vectors: u64,
    input_elements: u64,
    output_elements: u64,
    patch_elements: u64,
    input_vectors: u64,
    output_vectors: [u64; 4],
    entry_name: Option<(NodeId, u64)>,
}

fn mask_dwords(vectors: u64) -> u64 {
    vectors.div_ceil(8)
}

fn map_dwords(inputs: u64, outputs: u64) -> u64 {
    mask_dwords(outputs) * inputs * 4
}

pub(super) fn psv0(b: &mut Builder, size: u64, ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let end = base + size;
    let Field {
        value: info_size,
        id: size_id,
    } = b.uint_field("RuntimeInfoSize", 4)?;
    let size_span = b.tree().span(size_id);
    let version = match info_size {
        52.. => 3,
        48.. => 2,
        36.. => 1,
        24.. => 0,
        _ => {
            b.error(format!(
                "RuntimeInfo must be at least 24 bytes (PSV v0), found {info_size}"
            ));
            return Ok(());
        }
    };
    derived_u(
        b,
        "Version",
        version as u64,
        size_span,
        &format!("PSV v{version}, inferred from RuntimeInfoSize {info_size}"),
    )?;
    let info_start = b.pos();
    let stage = if version >= 1 {
        b.peek_uint(info_start + 24, 1)
    } else {
        ctx.shader_kind
    };
    let mut info = Info {
        version,
        stage,
        ..Info::default()
    };
    runtime_info(b, &mut info)?;
    let known = [24u64, 36, 48, 52][version as usize];
    if info_size > known {
        b.bytes("RuntimeInfoExtra", info_size - known)?;
        b.display("RuntimeInfo bytes beyond the newest known version (v3)");
    }
    b.seek(info_start + info_size);

    resources(b, version)?;
    if version == 0 {
        return Ok(());
    }

    // String table.
    let table_size = b.u32("StringTableSize")? as u64;
    if !table_size.is_multiple_of(4) {
        b.error(format!(
            "string table size {table_size} is not a multiple of 4"
        ));
    }
    let table_start = b.pos();
    let table_end = table_start.saturating_add(table_size);
    string_table(b, "StringTable", table_size, table_start)?;
    b.seek(table_end);
    if let Some((id, off)) = info.entry_name {
        b.resolve_strref(id, off, table_start, table_end.min(end));
    }

    // Semantic index table.
    let idx_count = b.u32("SemanticIndexTableCount")? as u64;
    let idx_start = b.pos();
    let indices = u32_array(b, "SemanticIndexTable", idx_count)?.value;
    let strtab = (table_start, table_end.min(end));

    // Signature elements.
    let total = info.input_elements + info.output_elements + info.patch_elements;
    let mut stride = 16;
    if total > 0 {
        stride = b.u32("SignatureElementSize")? as u64;
        if stride < 16 {
            b.error(format!(
                "signature elements must be at least 16 bytes, found {stride}"
            ));
            return Ok(());
        }
    }
    let idx = IndexTable {
        values: &indices,
        start: idx_start,
    };
    elements(
        b,
        "SigInputElements",
        info.input_elements,
        stride,
        strtab,
        &idx,
    )?;
    elements(
        b,
        "SigOutputElements",
        info.output_elements,
        stride,
        strtab,
        &idx,
    )?;
    elements(
        b,
        "SigPatchOrPrimElements",
        info.patch_elements,
        stride,
        strtab,
        &idx,
    )?;

    let stage = info.stage.unwrap_or(u64::MAX);
    let pc = info.patch_const_or_prim_vectors;
    if info.uses_view_id {
        b.array("OutputVectorMasks", |b| {
            for (i, &n) in info.output_vectors.iter().enumerate() {
                b.array(Name::Index(i as u32), |b| {
                    for k in 0..mask_dwords(n) {
                        b.u32(Name::Index(k as u32))?;
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
        if stage == STAGE_HULL {
            u32_array(
                b,
                "PatchOrPrimMasks",
                if pc > 0 { mask_dwords(pc) } else { 0 },
            )?;
        }
    }
    b.array("InputOutputMap", |b| {
        for (i, &n) in info.output_vectors.iter().enumerate() {
            let count = if info.input_vectors == 0 || n == 0 {
                0
            } else {
                map_dwords(info.input_vectors, n)
            };
            b.array(Name::Index(i as u32), |b| {
                for k in 0..count {
                    b.u32(Name::Index(k as u32))?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    if stage == STAGE_HULL {
        let count = if pc > 0 && info.input_vectors > 0 {
            map_dwords(info.input_vectors, pc)
        } else {
            0
        };
        u32_array(b, "InputPatchMap", count)?;
    }
    if stage == STAGE_DOMAIN {
        let out0 = info.output_vectors[0];
        let count = if pc > 0 && out0 > 0 {
            mask_dwords(out0) * pc * 4
        } else {
            0
        };
        u32_array(b, "PatchOutputMap", count)?;
    }
    Ok(())
}

/// RuntimeInfo v0..v3 fields, flat.
fn runtime_info(b: &mut Builder, info: &mut Info) -> DResult<()> {
    let union_start = b.pos();
    match info.stage {
        Some(STAGE_VERTEX) => {
            b.u8("OutputPositionPresent")?;
        }
        Some(STAGE_HULL) => {
            b.u32("InputControlPointCount")?;
            b.u32("OutputControlPointCount")?;
            b.uint_enum("TessellatorDomain", 4, names::tessellator_domain)?;
            b.uint_enum("TessellatorOutputPrimitive", 4, names::tessellator_output)?;
        }
        Some(STAGE_DOMAIN) => {
            b.u32("InputControlPointCount")?;
            b.u8("OutputPositionPresent")?;
            b.padding("Unused", 3)?;
            b.uint_enum("TessellatorDomain", 4, names::tessellator_domain)?;
        }
        Some(STAGE_GEOMETRY) => {
            b.uint_enum("InputPrimitive", 4, names::input_primitive)?;
            b.uint_enum("OutputTopology", 4, names::primitive_topology)?;
            b.u32("OutputStreamMask")?;
            b.u8("OutputPositionPresent")?;
        }
        Some(STAGE_PIXEL) => {
            b.u8("DepthOutput")?;
            b.u8("SampleFrequency")?;
        }
        Some(STAGE_MESH) => {
            b.u32("GroupSharedBytesUsed")?;
            b.u32("GroupSharedBytesDependentOnViewID")?;
            b.u32("PayloadSizeInBytes")?;
            b.u16("MaxOutputVertices")?;
            b.u16("MaxOutputPrimitives")?;
        }
        Some(STAGE_AMPLIFICATION) => {
            b.u32("PayloadSizeInBytes")?;
        }
        _ => {}
    }
    let used = b.pos() - union_start;
    if used < 16 {
        b.padding("Unused", 16 - used)?;
        if used == 0 {
            let stage = info
                .stage
                .and_then(names::shader_kind)
                .unwrap_or("unknown stage");
            b.display(format!("stage-specific data unused for {stage}"));
        }
    }
    if b.u32("MinimumWaveLaneCount")? == 0 {
        b.display("no minimum");
    }
    if b.u32("MaximumWaveLaneCount")? == u32::MAX {
        b.display("no maximum");
    }
    if info.version < 1 {
        return Ok(());
    }
    b.uint_enum("ShaderStage", 1, names::shader_kind)?;
    info.uses_view_id = b.u8("UsesViewID")? != 0;
    match info.stage {
        Some(STAGE_GEOMETRY) => {
            b.u16("MaxVertexCount")?;
        }
        Some(STAGE_HULL) | Some(STAGE_DOMAIN) => {
            info.patch_const_or_prim_vectors = b.u8("SigPatchConstOrPrimVectors")? as u64;
            b.padding("Unused", 1)?;
        }
        Some(STAGE_MESH) => {
            info.patch_const_or_prim_vectors = b.u8("SigPrimVectors")? as u64;
            b.uint_enum("MeshOutputTopology", 1, mesh_topology)?;
        }
        _ => {
            b.padding("Unused", 2)?;
        }
    }
    info.input_elements = b.u8("SigInputElementCount")? as u64;
    info.output_elements = b.u8("SigOutputElementCount")? as u64;
    info.patch_elements = b.u8("SigPatchOrPrimElementCount")? as u64;
    info.input_vectors = b.u8("SigInputVectors")? as u64;
    let mut outv = [0u64; 4];
    b.array("SigOutputVectors", |b| {
        for (i, o) in outv.iter_mut().enumerate() {
            *o = b.u8(Name::Index(i as u32))? as u64;
        }
        Ok(())
    })?;
    info.output_vectors = outv;
    if info.version < 2 {
        return Ok(());
    }
    b.u32("NumThreadsX")?;
    b.u32("NumThreadsY")?;
    b.u32("NumThreadsZ")?;
    if info.version < 3 {
        return Ok(());
    }
    let Field { value: off, id } = b.uint_field("EntryName", 4)?;
    b.display(format!("offset 0x{off:X} into the PSV string table"));
    info.entry_name = Some((id, off));
    Ok(())
}

fn resources(b: &mut Builder, version: u32) -> DResult<()> {
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("ResourceCount", 4)?;
    if count == 0 {
        let from = b.tree().span(count_id);
        derived_u(
            b,
            "ResourceStride",
            24,
            from,
            "not stored (no resources); LLVM reports its default of 24",
        )?;
        b.array("Resources", |_| Ok(()))?;
        return Ok(());
    }
    let stride = b.u32("ResourceStride")? as u64;
    if stride < 16 {
        b.error(format!(
            "resource bindings must be at least 16 bytes, found {stride}"
        ));
        return Ok(());
    }
    if version >= 2 && stride < 24 {
        b.display("v0 bindings (no Kind/Flags) in a v2+ PSV");
    }
    let start = b.pos();
    // The bindings that lie inside the part; pages hold only those.
    let fit = count.min(b.limit().saturating_sub(start) / stride);
    b.array("Resources", |b| match page_size(b) {
        Some(n) if fit > n => {
            pages(
                b,
                &fixed_pages(start, stride, fit, n),
                move |b, first, next| bindings(b, first, next, stride),
            )?;
            bindings(b, fit, count, stride)
        }
        _ => bindings(b, 0, count, stride),
    })
}

/// Resource bindings `first..next` of `stride` bytes each, from the cursor on.
fn bindings(b: &mut Builder, first: u64, next: u64, stride: u64) -> DResult<()> {
    for i in first..next {
        let at = b.pos();
        let done = b.region(Name::Index(i as u32), Kind::Struct, at, stride, |b| {
            b.uint_enum("Type", 4, resource_type)?;
            b.u32("Space")?;
            b.u32("LowerBound")?;
            if b.u32("UpperBound")? == u32::MAX {
                b.display("unbounded");
            }
            if stride >= 24 {
                b.uint_enum("Kind", 4, names::resource_kind)?;
                b.uint_flags("Flags", 4, RESOURCE_FLAGS)?;
            }
            Ok(())
        });
        if done.is_none() {
            return Err(crate::builder::Stop);
        }
    }
    Ok(())
}

struct IndexTable<'a> {
    values: &'a [u32],
    start: u64,
}

fn elements(
    b: &mut Builder,
    name: &'static str,
    count: u64,
    stride: u64,
    strtab: (u64, u64),
    idx: &IndexTable,
) -> DResult<()> {
    b.array(name, |b| {
        for i in 0..count {
            let at = b.pos();
            let done = b.region(Name::Index(i as u32), Kind::Struct, at, stride, |b| {
                element(b, strtab, idx)
            });
            if done.is_none() {
                return Err(crate::builder::Stop);
            }
        }
        Ok(())
    })
}

fn element(b: &mut Builder, strtab: (u64, u64), idx: &IndexTable) -> DResult<()> {
    b.strref("Name", 4, strtab.0, strtab.1)?;
    let Field {
        value: off,
        id: off_id,
    } = b.uint_field("IndicesOffset", 4)?;
    let rows = b.u8("Rows")? as u64;
    let first = usize::try_from(off).unwrap_or(usize::MAX);
    let fits = first
        .checked_add(rows as usize)
        .is_some_and(|e| e <= idx.values.len());
    if fits {
        let from = BitSpan::bytes(idx.start + 4 * off, idx.start + 4 * (off + rows));
        b.derived_group("Indices", Some(from), |b| {
            for r in 0..rows {
                let k = first + r as usize;
                let at = idx.start + 4 * k as u64;
                b.derived(
                    Name::Index(r as u32),
                    Value::U(idx.values[k] as u64),
                    BitSpan::bytes(at, at + 4),
                    Some(format!("SemanticIndexTable[{k}]")),
                )?;
            }
            Ok(())
        })?;
        b.set_display(
            off_id,
            format!(
                "rows {first}..{} of the semantic index table",
                first + rows as usize
            ),
        );
    } else {
        b.set_error(
            off_id,
            format!(
                "indices {off}..{} are outside the semantic index table of {} entries",
                off + rows,
                idx.values.len()
            ),
        );
    }
    b.u8("StartRow")?;
    b.bits("Cols", 4)?;
    b.bits("StartCol", 2)?;
    b.bit("Allocated")?;
    b.bits("Unused", 1)?;
    b.uint_enum("Kind", 1, names::semantic_kind)?;
    b.uint_enum("ComponentType", 1, names::comp_type)?;
    b.uint_enum("Interpolation", 1, names::interpolation)?;
    b.bits("DynamicMask", 4)?;
    b.bits("Stream", 2)?;
    b.bits("Unused", 2)?;
    b.padding("Reserved", 1)?;
    Ok(())
}

/// PSV resource type.
pub fn resource_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Invalid",
            "Sampler",
            "CBV",
            "SRVTyped",
            "SRVRaw",
            "SRVStructured",
            "UAVTyped",
            "UAVRaw",
            "UAVStructured",
            "UAVStructuredWithCounter",
        ],
        v,
    )
}

/// PSV resource flags.
pub const RESOURCE_FLAGS: &[(u64, &str)] = &[(1, "UsedByAtomic64")];

/// Mesh-shader output topology.
pub fn mesh_topology(v: u64) -> Option<&'static str> {
    pick(&["Undefined", "Line", "Triangle"], v)
}
