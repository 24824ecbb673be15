//! Enumeration and flag names of the DirectX Container that several parts use,
//! as LLVM's `DXContainerConstants.def` and DXC's headers spell them, and the
//! table lookup ([`pick`]) every part's names use. A part's own names live beside
//! its decoder.

/// The name at index `v` of `table`, if it has a (non-empty) one.
pub(super) fn pick(table: &'static [&'static str], v: u64) -> Option<&'static str> {
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
