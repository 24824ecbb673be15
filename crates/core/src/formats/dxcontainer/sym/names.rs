//! Enumeration names of the SYM0 part (COFF symbol storage classes and types).

use super::super::names::pick;

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
