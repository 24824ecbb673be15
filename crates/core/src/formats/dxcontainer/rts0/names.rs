//! Enumeration and flag names of the RTS0 part (root signatures), as LLVM's
//! `DXContainerConstants.def` and the D3D12 headers spell them.

use super::super::names::pick;

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

/// Static sampler flags (root signature 1.2, LLVM's `STATIC_SAMPLER_FLAG`).
pub const STATIC_SAMPLER_FLAGS: &[(u64, &str)] =
    &[(0x1, "UintBorderColor"), (0x2, "NonNormalizedCoordinates")];
