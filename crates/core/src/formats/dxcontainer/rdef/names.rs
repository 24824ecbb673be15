//! Enumeration and flag names of the RDEF part, as the D3D headers
//! (`d3dcommon.h`, `d3d11shader.h`) spell them.

use super::super::names::pick;

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
