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

/// SRCI section type.
pub fn srci_section_type(v: u64) -> Option<&'static str> {
    pick(
        &[
            "SourceContents",
            "SourceNames",
            "Args",
            "TargetProfile",
            "EntryPoint",
        ],
        v,
    )
}
