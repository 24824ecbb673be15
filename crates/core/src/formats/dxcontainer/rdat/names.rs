//! Enumeration and flag names of the RDAT part, as DXC's runtime data headers
//! spell them; the names RDAT shares with other parts come from [`super::super::names`].

use super::super::names::pick;
pub(super) use super::super::names::{resource_kind, shader_kind, FEATURE_FLAGS};

/// RDAT part type (`RuntimeDataPartType`; 12 and up are reserved or
/// experimental, 0x1000x the PDB-info group).
pub fn rdat_part_type(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Invalid",
        1 => "StringBuffer",
        2 => "IndexArrays",
        3 => "ResourceTable",
        4 => "FunctionTable",
        5 => "RawBytes",
        6 => "SubobjectTable",
        7 => "NodeIDTable",
        8 => "NodeShaderIOAttribTable",
        9 => "NodeShaderFuncAttribTable",
        10 => "IONodeTable",
        11 => "NodeShaderInfoTable",
        12 => "Reserved_MeshNodesPreviewInfoTable",
        13 => "SignatureElementTable",
        14 => "VSInfoTable",
        15 => "PSInfoTable",
        16 => "HSInfoTable",
        17 => "DSInfoTable",
        18 => "GSInfoTable",
        19 => "CSInfoTable",
        20 => "MSInfoTable",
        21 => "ASInfoTable",
        0x10001 => "DxilPdbInfoTable",
        0x10002 => "DxilPdbInfoSourceTable",
        0x10003 => "DxilPdbInfoLibraryTable",
        _ => return None,
    })
}

/// DXIL resource class (`DXIL::ResourceClass`).
pub fn resource_class(v: u64) -> Option<&'static str> {
    pick(&["SRV", "UAV", "CBuffer", "Sampler", "Invalid"], v)
}

/// RDAT resource flags (`DxilResourceFlag`).
pub const DXIL_RESOURCE_FLAGS: &[(u64, &str)] = &[
    (0x1, "UAVGloballyCoherent"),
    (0x2, "UAVCounter"),
    (0x4, "UAVRasterizerOrderedView"),
    (0x8, "DynamicIndexing"),
    (0x10, "Atomics64Use"),
    (0x20, "UAVReorderCoherent"),
];

/// RDAT function flags, high word of the feature info (`DxilFeatureInfo2`).
pub const FEATURE_INFO2_FLAGS: &[(u64, &str)] = &[
    (0x1, "ExtendedCommandInfo"),
    (0x100, "Opt_UsesDerivatives"),
    (0x200, "Opt_RequiresGroup"),
];

/// RDAT function shader flags (`DxilShaderFlags`).
pub const RDAT_SHADER_FLAGS: &[(u64, &str)] = &[
    (0x1, "NodeProgramEntry"),
    (0x2, "OutputPositionPresent"),
    (0x4, "DepthOutput"),
    (0x8, "SampleFrequency"),
    (0x10, "UsesViewID"),
];

/// Subobject kind (`DXIL::SubobjectKind`).
pub fn subobject_kind(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "StateObjectConfig",
        1 => "GlobalRootSignature",
        2 => "LocalRootSignature",
        8 => "SubobjectToExportsAssociation",
        9 => "RaytracingShaderConfig",
        10 => "RaytracingPipelineConfig",
        11 => "HitGroup",
        12 => "RaytracingPipelineConfig1",
        _ => return None,
    })
}

/// State object config flags (`DXIL::StateObjectFlags`).
pub const STATE_OBJECT_FLAGS: &[(u64, &str)] = &[
    (0x1, "AllowLocalDependenciesOnExternalDefinitions"),
    (0x2, "AllowExternalDependenciesOnLocalDefinitions"),
    (0x4, "AllowStateObjectAdditions"),
];

/// Raytracing pipeline flags (`DXIL::RaytracingPipelineFlags`).
pub const RAYTRACING_PIPELINE_FLAGS: &[(u64, &str)] = &[
    (0x100, "SkipTriangles"),
    (0x200, "SkipProceduralPrimitives"),
];

/// Hit group type (`DXIL::HitGroupType`).
pub fn hit_group_type(v: u64) -> Option<&'static str> {
    pick(&["Triangle", "ProceduralPrimitive"], v)
}

/// Work-graph node launch type (`DXIL::NodeLaunchType`).
pub fn node_launch_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Invalid",
            "Broadcasting",
            "Coalescing",
            "Thread",
            "Reserved_Mesh",
        ],
        v,
    )
}

/// Node function attribute kind (`NodeFuncAttribKind`).
pub fn node_func_attrib_kind(v: u64) -> Option<&'static str> {
    pick(
        &[
            "None",
            "ID",
            "NumThreads",
            "ShareInputOf",
            "DispatchGrid",
            "MaxRecursionDepth",
            "LocalRootArgumentsTableIndex",
            "MaxDispatchGrid",
            "Reserved_MeshNodePreview1",
            "Reserved_MeshNodePreview2",
        ],
        v,
    )
}

/// Node input/output attribute kind (`NodeAttribKind`).
pub fn node_attrib_kind(v: u64) -> Option<&'static str> {
    pick(
        &[
            "None",
            "OutputID",
            "MaxRecords",
            "MaxRecordsSharedWith",
            "RecordSizeInBytes",
            "RecordDispatchGrid",
            "OutputArraySize",
            "AllowSparseNodes",
            "RecordAlignmentInBytes",
        ],
        v,
    )
}

/// DXIL component type (`DXIL::ComponentType`), as RDAT records store it.
pub fn dxil_component_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Invalid",
            "I1",
            "I16",
            "U16",
            "I32",
            "U32",
            "I64",
            "U64",
            "F16",
            "F32",
            "F64",
            "SNormF16",
            "UNormF16",
            "SNormF32",
            "UNormF32",
            "SNormF64",
            "UNormF64",
            "PackedS8x32",
            "PackedU8x32",
            "U8",
            "I8",
            "F8_E4M3",
            "F8_E5M2",
        ],
        v,
    )
}
