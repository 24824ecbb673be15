//! Enumeration and flag names of the DirectX Container, as LLVM's
//! `DXContainerConstants.def` and DXC's headers spell them.

fn pick(table: &'static [&'static str], v: u64) -> Option<&'static str> {
    usize::try_from(v)
        .ok()
        .and_then(|i| table.get(i))
        .copied()
        .filter(|s| !s.is_empty())
}

/// Program-header shader kind (also PSV `ShaderStage`).
pub fn shader_kind(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Pixel",
            "Vertex",
            "Geometry",
            "Hull",
            "Domain",
            "Compute",
            "Library",
            "RayGeneration",
            "Intersection",
            "AnyHit",
            "ClosestHit",
            "Miss",
            "Callable",
            "Mesh",
            "Amplification",
            "Node",
        ],
        v,
    )
}

/// Short profile prefix for a shader kind (`ps`, `vs`, …).
pub fn profile_prefix(kind: u64) -> &'static str {
    match kind {
        0 => "ps",
        1 => "vs",
        2 => "gs",
        3 => "hs",
        4 => "ds",
        5 => "cs",
        6 => "lib",
        13 => "ms",
        14 => "as",
        _ => "?",
    }
}

/// `D3D_NAME` system values used by signature elements.
pub fn system_value(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Undefined",
        1 => "Position",
        2 => "ClipDistance",
        3 => "CullDistance",
        4 => "RenderTargetArrayIndex",
        5 => "ViewPortArrayIndex",
        6 => "VertexID",
        7 => "PrimitiveID",
        8 => "InstanceID",
        9 => "IsFrontFace",
        10 => "SampleIndex",
        11 => "FinalQuadEdgeTessfactor",
        12 => "FinalQuadInsideTessfactor",
        13 => "FinalTriEdgeTessfactor",
        14 => "FinalTriInsideTessfactor",
        15 => "FinalLineDetailTessfactor",
        16 => "FinalLineDensityTessfactor",
        23 => "Barycentrics",
        24 => "ShadingRate",
        25 => "CullPrimitive",
        64 => "Target",
        65 => "Depth",
        66 => "Coverage",
        67 => "DepthGE",
        68 => "DepthLE",
        69 => "StencilRef",
        70 => "InnerCoverage",
        _ => return None,
    })
}

/// Signature component type.
pub fn comp_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Unknown", "UInt32", "SInt32", "Float32", "UInt16", "SInt16", "Float16", "UInt64",
            "SInt64", "Float64",
        ],
        v,
    )
}

/// Signature minimum precision.
pub fn min_precision(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Default",
        1 => "Float16",
        2 => "Float2_8",
        3 => "Reserved",
        4 => "SInt16",
        5 => "UInt16",
        0xF0 => "Any16",
        0xF1 => "Any10",
        _ => return None,
    })
}

/// PSV semantic kind.
pub fn semantic_kind(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Arbitrary",
            "VertexID",
            "InstanceID",
            "Position",
            "RenderTargetArrayIndex",
            "ViewPortArrayIndex",
            "ClipDistance",
            "CullDistance",
            "OutputControlPointID",
            "DomainLocation",
            "PrimitiveID",
            "GSInstanceID",
            "SampleIndex",
            "IsFrontFace",
            "Coverage",
            "InnerCoverage",
            "Target",
            "Depth",
            "DepthLessEqual",
            "DepthGreaterEqual",
            "StencilRef",
            "DispatchThreadID",
            "GroupID",
            "GroupIndex",
            "GroupThreadID",
            "TessFactor",
            "InsideTessFactor",
            "ViewID",
            "Barycentrics",
            "ShadingRate",
            "CullPrimitive",
        ],
        v,
    )
}

/// PSV interpolation mode.
pub fn interpolation(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Undefined",
            "Constant",
            "Linear",
            "LinearCentroid",
            "LinearNoperspective",
            "LinearNoperspectiveCentroid",
            "LinearSample",
            "LinearNoperspectiveSample",
        ],
        v,
    )
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

/// PSV resource kind.
pub fn resource_kind(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Invalid",
            "Texture1D",
            "Texture2D",
            "Texture2DMS",
            "Texture3D",
            "TextureCube",
            "Texture1DArray",
            "Texture2DArray",
            "Texture2DMSArray",
            "TextureCubeArray",
            "TypedBuffer",
            "RawBuffer",
            "StructuredBuffer",
            "CBuffer",
            "Sampler",
            "TBuffer",
            "RTAccelerationStructure",
            "FeedbackTexture2D",
            "FeedbackTexture2DArray",
        ],
        v,
    )
}

/// PSV resource flags.
pub const RESOURCE_FLAGS: &[(u64, &str)] = &[(1, "UsedByAtomic64")];

/// Geometry-shader input primitive (`D3D_PRIMITIVE`).
pub fn input_primitive(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Undefined",
        1 => "Point",
        2 => "Line",
        3 => "Triangle",
        6 => "LineWithAdjacency",
        7 => "TriangleWithAdjacency",
        8..=39 => return Some(PATCH_NAMES[(v - 8) as usize]),
        _ => return None,
    })
}

const PATCH_NAMES: [&str; 32] = [
    "Patch1", "Patch2", "Patch3", "Patch4", "Patch5", "Patch6", "Patch7", "Patch8", "Patch9",
    "Patch10", "Patch11", "Patch12", "Patch13", "Patch14", "Patch15", "Patch16", "Patch17",
    "Patch18", "Patch19", "Patch20", "Patch21", "Patch22", "Patch23", "Patch24", "Patch25",
    "Patch26", "Patch27", "Patch28", "Patch29", "Patch30", "Patch31", "Patch32",
];

/// Geometry-shader output topology (`D3D_PRIMITIVE_TOPOLOGY`).
pub fn primitive_topology(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Undefined",
        1 => "PointList",
        2 => "LineList",
        3 => "LineStrip",
        4 => "TriangleList",
        5 => "TriangleStrip",
        10 => "LineListAdj",
        11 => "LineStripAdj",
        12 => "TriangleListAdj",
        13 => "TriangleStripAdj",
        _ => return None,
    })
}

/// Tessellator domain.
pub fn tessellator_domain(v: u64) -> Option<&'static str> {
    pick(&["Undefined", "IsoLine", "Tri", "Quad"], v)
}

/// Tessellator output primitive.
pub fn tessellator_output(v: u64) -> Option<&'static str> {
    pick(
        &["Undefined", "Point", "Line", "TriangleCW", "TriangleCCW"],
        v,
    )
}

/// Mesh-shader output topology.
pub fn mesh_topology(v: u64) -> Option<&'static str> {
    pick(&["Undefined", "Line", "Triangle"], v)
}

/// SFI0 feature flag names, bit by bit (LLVM's newest `DXContainerConstants.def`).
pub const FEATURE_FLAGS: [&str; 33] = [
    "Doubles",
    "ComputeShadersPlusRawAndStructuredBuffers",
    "UAVsAtEveryStage",
    "Max64UAVs",
    "MinimumPrecision",
    "DX11_1_DoubleExtensions",
    "DX11_1_ShaderExtensions",
    "LEVEL9ComparisonFiltering",
    "TiledResources",
    "StencilRef",
    "InnerCoverage",
    "TypedUAVLoadAdditionalFormats",
    "ROVs",
    "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer",
    "WaveOps",
    "Int64Ops",
    "ViewID",
    "Barycentrics",
    "NativeLowPrecision",
    "ShadingRate",
    "Raytracing_Tier_1_1",
    "SamplerFeedback",
    "AtomicInt64OnTypedResource",
    "AtomicInt64OnGroupShared",
    "DerivativesInMeshAndAmpShaders",
    "ResourceDescriptorHeapIndexing",
    "SamplerDescriptorHeapIndexing",
    "RESERVED",
    "AtomicInt64OnHeapResource",
    "AdvancedTextureOps",
    "WriteableMSAATextures",
    "SampleCmpWithGradientOrBias",
    "ExtendedCommandInfo",
];

/// Root-signature flags.
pub const ROOT_FLAGS: &[(u64, &str)] = &[
    (0x1, "AllowInputAssemblerInputLayout"),
    (0x2, "DenyVertexShaderRootAccess"),
    (0x4, "DenyHullShaderRootAccess"),
    (0x8, "DenyDomainShaderRootAccess"),
    (0x10, "DenyGeometryShaderRootAccess"),
    (0x20, "DenyPixelShaderRootAccess"),
    (0x40, "AllowStreamOutput"),
    (0x80, "LocalRootSignature"),
    (0x100, "DenyAmplificationShaderRootAccess"),
    (0x200, "DenyMeshShaderRootAccess"),
    (0x400, "CBVSRVUAVHeapDirectlyIndexed"),
    (0x800, "SamplerHeapDirectlyIndexed"),
];

/// Root parameter type.
pub fn root_parameter_type(v: u64) -> Option<&'static str> {
    pick(
        &["DescriptorTable", "Constants32Bit", "CBV", "SRV", "UAV"],
        v,
    )
}

/// Shader visibility of a root parameter or static sampler.
pub fn shader_visibility(v: u64) -> Option<&'static str> {
    pick(
        &[
            "All",
            "Vertex",
            "Hull",
            "Domain",
            "Geometry",
            "Pixel",
            "Amplification",
            "Mesh",
        ],
        v,
    )
}

/// Descriptor range type.
pub fn descriptor_range_type(v: u64) -> Option<&'static str> {
    pick(&["SRV", "UAV", "CBV", "Sampler"], v)
}

/// Root descriptor flags (root signature 1.1).
pub const ROOT_DESCRIPTOR_FLAGS: &[(u64, &str)] = &[
    (0x2, "DataVolatile"),
    (0x4, "DataStaticWhileSetAtExecute"),
    (0x8, "DataStatic"),
];

/// Descriptor range flags (root signature 1.1).
pub const DESCRIPTOR_RANGE_FLAGS: &[(u64, &str)] = &[
    (0x1, "DescriptorsVolatile"),
    (0x2, "DataVolatile"),
    (0x4, "DataStaticWhileSetAtExecute"),
    (0x8, "DataStatic"),
    (0x10000, "DescriptorsStaticKeepingBufferBoundsChecks"),
];

/// Static sampler filter (`D3D12_FILTER`).
pub fn sampler_filter(v: u64) -> Option<&'static str> {
    Some(match v {
        0x0 => "MinMagMipPoint",
        0x1 => "MinMagPointMipLinear",
        0x4 => "MinPointMagLinearMipPoint",
        0x5 => "MinPointMagMipLinear",
        0x10 => "MinLinearMagMipPoint",
        0x11 => "MinLinearMagPointMipLinear",
        0x14 => "MinMagLinearMipPoint",
        0x15 => "MinMagMipLinear",
        0x55 => "Anisotropic",
        0x80 => "ComparisonMinMagMipPoint",
        0x81 => "ComparisonMinMagPointMipLinear",
        0x84 => "ComparisonMinPointMagLinearMipPoint",
        0x85 => "ComparisonMinPointMagMipLinear",
        0x90 => "ComparisonMinLinearMagMipPoint",
        0x91 => "ComparisonMinLinearMagPointMipLinear",
        0x94 => "ComparisonMinMagLinearMipPoint",
        0x95 => "ComparisonMinMagMipLinear",
        0xD5 => "ComparisonAnisotropic",
        0x100 => "MinimumMinMagMipPoint",
        0x155 => "MinimumAnisotropic",
        0x180 => "MaximumMinMagMipPoint",
        0x1D5 => "MaximumAnisotropic",
        _ => return None,
    })
}

/// Texture address mode.
pub fn address_mode(v: u64) -> Option<&'static str> {
    pick(&["", "Wrap", "Mirror", "Clamp", "Border", "MirrorOnce"], v)
}

/// Comparison function.
pub fn comparison_func(v: u64) -> Option<&'static str> {
    pick(
        &[
            "",
            "Never",
            "Less",
            "Equal",
            "LessEqual",
            "Greater",
            "NotEqual",
            "GreaterEqual",
            "Always",
        ],
        v,
    )
}

/// Static border colour.
pub fn border_color(v: u64) -> Option<&'static str> {
    pick(
        &[
            "TransparentBlack",
            "OpaqueBlack",
            "OpaqueWhite",
            "OpaqueBlackUint",
            "OpaqueWhiteUint",
        ],
        v,
    )
}

/// COFF symbol storage class (SYM0).
pub fn storage_class(v: u64) -> Option<&'static str> {
    Some(match v {
        0xFF => "IMAGE_SYM_CLASS_END_OF_FUNCTION",
        0 => "IMAGE_SYM_CLASS_NULL",
        1 => "IMAGE_SYM_CLASS_AUTOMATIC",
        2 => "IMAGE_SYM_CLASS_EXTERNAL",
        3 => "IMAGE_SYM_CLASS_STATIC",
        4 => "IMAGE_SYM_CLASS_REGISTER",
        5 => "IMAGE_SYM_CLASS_EXTERNAL_DEF",
        6 => "IMAGE_SYM_CLASS_LABEL",
        7 => "IMAGE_SYM_CLASS_UNDEFINED_LABEL",
        8 => "IMAGE_SYM_CLASS_MEMBER_OF_STRUCT",
        9 => "IMAGE_SYM_CLASS_ARGUMENT",
        10 => "IMAGE_SYM_CLASS_STRUCT_TAG",
        11 => "IMAGE_SYM_CLASS_MEMBER_OF_UNION",
        12 => "IMAGE_SYM_CLASS_UNION_TAG",
        13 => "IMAGE_SYM_CLASS_TYPE_DEFINITION",
        14 => "IMAGE_SYM_CLASS_UNDEFINED_STATIC",
        15 => "IMAGE_SYM_CLASS_ENUM_TAG",
        16 => "IMAGE_SYM_CLASS_MEMBER_OF_ENUM",
        17 => "IMAGE_SYM_CLASS_REGISTER_PARAM",
        18 => "IMAGE_SYM_CLASS_BIT_FIELD",
        100 => "IMAGE_SYM_CLASS_BLOCK",
        101 => "IMAGE_SYM_CLASS_FUNCTION",
        102 => "IMAGE_SYM_CLASS_END_OF_STRUCT",
        103 => "IMAGE_SYM_CLASS_FILE",
        104 => "IMAGE_SYM_CLASS_SECTION",
        105 => "IMAGE_SYM_CLASS_WEAK_EXTERNAL",
        107 => "IMAGE_SYM_CLASS_CLR_TOKEN",
        _ => return None,
    })
}

/// COFF symbol base type (SYM0).
pub fn sym_base_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "IMAGE_SYM_TYPE_NULL",
            "IMAGE_SYM_TYPE_VOID",
            "IMAGE_SYM_TYPE_CHAR",
            "IMAGE_SYM_TYPE_SHORT",
            "IMAGE_SYM_TYPE_INT",
            "IMAGE_SYM_TYPE_LONG",
            "IMAGE_SYM_TYPE_FLOAT",
            "IMAGE_SYM_TYPE_DOUBLE",
            "IMAGE_SYM_TYPE_STRUCT",
            "IMAGE_SYM_TYPE_UNION",
            "IMAGE_SYM_TYPE_ENUM",
            "IMAGE_SYM_TYPE_MOE",
            "IMAGE_SYM_TYPE_BYTE",
            "IMAGE_SYM_TYPE_WORD",
            "IMAGE_SYM_TYPE_UINT",
            "IMAGE_SYM_TYPE_DWORD",
        ],
        v,
    )
}

/// COFF symbol complex type (SYM0).
pub fn sym_complex_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "IMAGE_SYM_DTYPE_NULL",
            "IMAGE_SYM_DTYPE_POINTER",
            "IMAGE_SYM_DTYPE_FUNCTION",
            "IMAGE_SYM_DTYPE_ARRAY",
        ],
        v,
    )
}

/// SM4/5 program type in a SHDR/SHEX version token.
pub fn sm4_program_type(v: u64) -> Option<&'static str> {
    pick(
        &["Pixel", "Vertex", "Geometry", "Hull", "Domain", "Compute"],
        v,
    )
}

/// RDEF shader input type (`D3D_SHADER_INPUT_TYPE`).
pub fn shader_input_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "CBuffer",
            "TBuffer",
            "Texture",
            "Sampler",
            "UAVRWTyped",
            "Structured",
            "UAVRWStructured",
            "ByteAddress",
            "UAVRWByteAddress",
            "UAVAppendStructured",
            "UAVConsumeStructured",
            "UAVRWStructuredWithCounter",
            "RTAccelerationStructure",
            "UAVFeedbackTexture",
        ],
        v,
    )
}

/// RDEF resource return type (`D3D_RESOURCE_RETURN_TYPE`).
pub fn return_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "",
            "UNorm",
            "SNorm",
            "SInt",
            "UInt",
            "Float",
            "Mixed",
            "Double",
            "Continued",
        ],
        v,
    )
}

/// RDEF SRV dimension (`D3D_SRV_DIMENSION`).
pub fn srv_dimension(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Unknown",
            "Buffer",
            "Texture1D",
            "Texture1DArray",
            "Texture2D",
            "Texture2DArray",
            "Texture2DMS",
            "Texture2DMSArray",
            "Texture3D",
            "TextureCube",
            "TextureCubeArray",
            "BufferEx",
        ],
        v,
    )
}

/// RDEF constant buffer type (`D3D_CBUFFER_TYPE`).
pub fn cbuffer_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "CBuffer",
            "TBuffer",
            "InterfacePointers",
            "ResourceBindInfo",
        ],
        v,
    )
}

/// RDEF shader variable class (`D3D_SHADER_VARIABLE_CLASS`).
pub fn variable_class(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Scalar",
            "Vector",
            "MatrixRows",
            "MatrixColumns",
            "Object",
            "Struct",
            "InterfaceClass",
            "InterfacePointer",
        ],
        v,
    )
}

/// RDEF shader variable type (`D3D_SHADER_VARIABLE_TYPE`), the common ones.
pub fn variable_type(v: u64) -> Option<&'static str> {
    Some(match v {
        0 => "Void",
        1 => "Bool",
        2 => "Int",
        3 => "Float",
        4 => "String",
        5 => "Texture",
        6 => "Texture1D",
        7 => "Texture2D",
        8 => "Texture3D",
        9 => "TextureCube",
        10 => "Sampler",
        19 => "UInt",
        20 => "UInt8",
        25 => "Buffer",
        26 => "CBuffer",
        27 => "TBuffer",
        39 => "Double",
        58 => "Min8Float",
        59 => "Min10Float",
        60 => "Min16Float",
        61 => "Min12Int",
        62 => "Min16Int",
        63 => "Min16UInt",
        64 => "Int16",
        65 => "UInt16",
        66 => "Float16",
        67 => "Int64",
        68 => "UInt64",
        _ => return None,
    })
}

/// Static sampler flags (root signature 1.2, LLVM's `STATIC_SAMPLER_FLAG`).
pub const STATIC_SAMPLER_FLAGS: &[(u64, &str)] =
    &[(0x1, "UintBorderColor"), (0x2, "NonNormalizedCoordinates")];

/// SM4/5 opcode (`D3D10_SB_OPCODE_TYPE` and its D3D11 extensions), as the
/// assembler spells it.
pub fn sm4_opcode(v: u64) -> Option<&'static str> {
    pick(
        &[
            "add",
            "and",
            "break",
            "breakc",
            "call",
            "callc",
            "case",
            "continue",
            "continuec",
            "cut",
            "default",
            "deriv_rtx",
            "deriv_rty",
            "discard",
            "div",
            "dp2",
            "dp3",
            "dp4",
            "else",
            "emit",
            "emit_then_cut",
            "endif",
            "endloop",
            "endswitch",
            "eq",
            "exp",
            "frc",
            "ftoi",
            "ftou",
            "ge",
            "iadd",
            "if",
            "ieq",
            "ige",
            "ilt",
            "imad",
            "imax",
            "imin",
            "imul",
            "ine",
            "ineg",
            "ishl",
            "ishr",
            "itof",
            "label",
            "ld",
            "ld_ms",
            "log",
            "loop",
            "lt",
            "mad",
            "min",
            "max",
            "customdata",
            "mov",
            "movc",
            "mul",
            "ne",
            "nop",
            "not",
            "or",
            "resinfo",
            "ret",
            "retc",
            "round_ne",
            "round_ni",
            "round_pi",
            "round_z",
            "rsq",
            "sample",
            "sample_c",
            "sample_c_lz",
            "sample_l",
            "sample_d",
            "sample_b",
            "sqrt",
            "switch",
            "sincos",
            "udiv",
            "ult",
            "uge",
            "umul",
            "umad",
            "umax",
            "umin",
            "ushr",
            "utof",
            "xor",
            "dcl_resource",
            "dcl_constant_buffer",
            "dcl_sampler",
            "dcl_index_range",
            "dcl_gs_output_primitive_topology",
            "dcl_gs_input_primitive",
            "dcl_max_output_vertex_count",
            "dcl_input",
            "dcl_input_sgv",
            "dcl_input_siv",
            "dcl_input_ps",
            "dcl_input_ps_sgv",
            "dcl_input_ps_siv",
            "dcl_output",
            "dcl_output_sgv",
            "dcl_output_siv",
            "dcl_temps",
            "dcl_indexable_temp",
            "dcl_global_flags",
            "reserved0",
            "lod",
            "gather4",
            "sample_pos",
            "sample_info",
            "reserved1",
            "hs_decls",
            "hs_control_point_phase",
            "hs_fork_phase",
            "hs_join_phase",
            "emit_stream",
            "cut_stream",
            "emit_then_cut_stream",
            "interface_call",
            "bufinfo",
            "deriv_rtx_coarse",
            "deriv_rtx_fine",
            "deriv_rty_coarse",
            "deriv_rty_fine",
            "gather4_c",
            "gather4_po",
            "gather4_po_c",
            "rcp",
            "f32tof16",
            "f16tof32",
            "uaddc",
            "usubb",
            "countbits",
            "firstbit_hi",
            "firstbit_lo",
            "firstbit_shi",
            "ubfe",
            "ibfe",
            "bfi",
            "bfrev",
            "swapc",
            "dcl_stream",
            "dcl_function_body",
            "dcl_function_table",
            "dcl_interface",
            "dcl_input_control_point_count",
            "dcl_output_control_point_count",
            "dcl_tess_domain",
            "dcl_tess_partitioning",
            "dcl_tess_output_primitive",
            "dcl_hs_max_tessfactor",
            "dcl_hs_fork_phase_instance_count",
            "dcl_hs_join_phase_instance_count",
            "dcl_thread_group",
            "dcl_uav_typed",
            "dcl_uav_raw",
            "dcl_uav_structured",
            "dcl_tgsm_raw",
            "dcl_tgsm_structured",
            "dcl_resource_raw",
            "dcl_resource_structured",
            "ld_uav_typed",
            "store_uav_typed",
            "ld_raw",
            "store_raw",
            "ld_structured",
            "store_structured",
            "atomic_and",
            "atomic_or",
            "atomic_xor",
            "atomic_cmp_store",
            "atomic_iadd",
            "atomic_imax",
            "atomic_imin",
            "atomic_umax",
            "atomic_umin",
            "imm_atomic_alloc",
            "imm_atomic_consume",
            "imm_atomic_iadd",
            "imm_atomic_and",
            "imm_atomic_or",
            "imm_atomic_xor",
            "imm_atomic_exch",
            "imm_atomic_cmp_exch",
            "imm_atomic_imax",
            "imm_atomic_imin",
            "imm_atomic_umax",
            "imm_atomic_umin",
            "sync",
            "dadd",
            "dmax",
            "dmin",
            "dmul",
            "deq",
            "dge",
            "dlt",
            "dne",
            "dmov",
            "dmovc",
            "dtof",
            "ftod",
            "eval_snapped",
            "eval_sample_index",
            "eval_centroid",
            "dcl_gs_instance_count",
            "abort",
            "debug_break",
            "reserved_11_1",
            "ddiv",
            "dfma",
            "drcp",
            "msad",
            "dtoi",
            "dtou",
            "itod",
            "utod",
            "reserved_11_2",
            "gather4_s",
            "gather4_c_s",
            "gather4_po_s",
            "gather4_po_c_s",
            "ld_s",
            "ld_ms_s",
            "ld_uav_typed_s",
            "ld_raw_s",
            "ld_structured_s",
            "sample_l_s",
            "sample_c_lz_s",
            "sample_cl_s",
            "sample_b_cl_s",
            "sample_d_cl_s",
            "sample_c_cl_s",
            "check_access_fully_mapped",
        ],
        v,
    )
}

/// Class of an SM4/5 custom-data block (`D3D10_SB_CUSTOMDATA_CLASS`).
pub fn sm4_customdata_class(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Comment",
            "DebugInfo",
            "Opaque",
            "ImmediateConstantBuffer",
            "ShaderMessage",
            "ShaderClipPlaneConstantMappingsForDx9",
        ],
        v,
    )
}

/// Program type in an RDEF `Target` word (`D3D11_SHADER_VERSION_TYPE` as FXC
/// stores it: two ASCII letters, or 0xFFFE / 0xFFFF for vertex / pixel).
pub fn rdef_program_type(v: u64) -> Option<&'static str> {
    Some(match v {
        0xFFFE => "Vertex",
        0xFFFF => "Pixel",
        0x4353 => "Compute",
        0x4753 => "Geometry",
        0x4853 => "Hull",
        0x4453 => "Domain",
        _ => return None,
    })
}

/// Shader compile flags (`D3DCOMPILE_*`) stored in RDEF `Flags`; the two
/// optimization-level bits are named separately by the decoder.
pub const COMPILE_FLAGS: &[(u64, &str)] = &[
    (0x1, "Debug"),
    (0x2, "SkipValidation"),
    (0x4, "SkipOptimization"),
    (0x8, "PackMatrixRowMajor"),
    (0x10, "PackMatrixColumnMajor"),
    (0x20, "PartialPrecision"),
    (0x40, "ForceVsSoftwareNoOpt"),
    (0x80, "ForcePsSoftwareNoOpt"),
    (0x100, "NoPreshader"),
    (0x200, "AvoidFlowControl"),
    (0x400, "PreferFlowControl"),
    (0x800, "EnableStrictness"),
    (0x1000, "EnableBackwardsCompatibility"),
    (0x2000, "IeeeStrictness"),
    (0x40000, "WarningsAreErrors"),
    (0x80000, "ResourcesMayAlias"),
    (0x100000, "EnableUnboundedDescriptorTables"),
    (0x200000, "AllResourcesBound"),
    (0x400000, "DebugNameForSource"),
    (0x800000, "DebugNameForBinary"),
];

/// RDEF bound resource flags (`D3D_SHADER_INPUT_FLAGS`).
pub const SHADER_INPUT_FLAGS: &[(u64, &str)] = &[
    (0x1, "UserPacked"),
    (0x2, "ComparisonSampler"),
    (0x4, "TextureComponent0"),
    (0x8, "TextureComponent1"),
    (0x10, "Unused"),
];

/// RDEF constant buffer flags (`D3D_SHADER_CBUFFER_FLAGS`).
pub const CBUFFER_FLAGS: &[(u64, &str)] = &[(0x1, "UserPacked")];

/// RDEF variable flags (`D3D_SHADER_VARIABLE_FLAGS`).
pub const VARIABLE_FLAGS: &[(u64, &str)] = &[
    (0x1, "UserPacked"),
    (0x2, "Used"),
    (0x4, "InterfacePointer"),
    (0x8, "InterfaceParameter"),
];

/// Tessellator partitioning (`D3D_TESSELLATOR_PARTITIONING`).
pub fn tessellator_partitioning(v: u64) -> Option<&'static str> {
    pick(
        &[
            "Undefined",
            "Integer",
            "Pow2",
            "FractionalOdd",
            "FractionalEven",
        ],
        v,
    )
}

/// Compiler version flags in VERS (`DxcVersionInfoFlags`).
pub const VERSION_FLAGS: &[(u64, &str)] = &[(0x1, "Debug"), (0x2, "Internal")];

/// SRCI section type as current DXC writes it (`DxilSourceInfoSectionType`:
/// the older header's Sources/Defines/Args/TargetProfile/EntryPoint numbering
/// is not what DXC emits).
pub fn source_info_section_type(v: u64) -> Option<&'static str> {
    pick(&["SourceContents", "SourceNames", "Args"], v)
}

/// SRCI source contents compression (`DxilSourceInfo_SourceContentsCompressType`).
pub fn source_contents_compress_type(v: u64) -> Option<&'static str> {
    pick(&["None", "Zlib"], v)
}

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
