//! Block and record names from LLVM's `LLVMBitCodes.h` (`llvm/Bitcode/LLVMBitCodes.h`,
//! enums `BlockIDs`, `ModuleCodes`, `TypeCodes`, …) and the standard BLOCKINFO codes
//! of `llvm/Bitstream/BitCodeEnums.h`, with the block IDs the decoder looks for.
//!
//! Block names drop the `_ID` suffix (`MODULE_BLOCK_ID` → `MODULE_BLOCK`,
//! `TYPE_BLOCK_ID_NEW` → `TYPE_BLOCK_NEW`); record names drop the enum's prefix
//! (`FUNC_CODE_INST_CALL` → `INST_CALL`, `METADATA_STRING_OLD` → `STRING_OLD`),
//! as `llvm-bcanalyzer` prints them. Codes are permanent in LLVM, so the modern
//! names also read DXIL's LLVM 3.7 bitcode; where LLVM later renamed a code the
//! modern name carries `_OLD` (LLVM 3.7's `METADATA_STRING` is `STRING_OLD`,
//! `FUNC_CODE_INST_ATOMICRMW` is `INST_ATOMICRMW_OLD`), and the one code LLVM
//! dropped (`MODULE_CODE_PURGEVALS`, 10) keeps DXC's name.

pub(super) use super::super::names::{
    BLOCKINFO_BLOCK, FUNCTION_BLOCK, METADATA_BLOCK, MODULE_BLOCK, STRTAB_BLOCK, VALUE_SYMTAB_BLOCK,
};

/// The name of a block ID, if LLVM defines it.
pub fn block_name(id: u64) -> Option<&'static str> {
    Some(match id {
        0 => "BLOCKINFO_BLOCK",
        8 => "MODULE_BLOCK",
        9 => "PARAMATTR_BLOCK",
        10 => "PARAMATTR_GROUP_BLOCK",
        11 => "CONSTANTS_BLOCK",
        12 => "FUNCTION_BLOCK",
        13 => "IDENTIFICATION_BLOCK",
        14 => "VALUE_SYMTAB_BLOCK",
        15 => "METADATA_BLOCK",
        16 => "METADATA_ATTACHMENT",
        17 => "TYPE_BLOCK_NEW",
        18 => "USELIST_BLOCK",
        19 => "MODULE_STRTAB_BLOCK",
        20 => "GLOBALVAL_SUMMARY_BLOCK",
        21 => "OPERAND_BUNDLE_TAGS_BLOCK",
        22 => "METADATA_KIND_BLOCK",
        23 => "STRTAB_BLOCK",
        24 => "FULL_LTO_GLOBALVAL_SUMMARY_BLOCK",
        25 => "SYMTAB_BLOCK",
        26 => "SYNC_SCOPE_NAMES_BLOCK",
        _ => return None,
    })
}

/// The name of record `code` inside block `block`, if LLVM defines it.
pub fn record_name(block: u64, code: u64) -> Option<&'static str> {
    match block {
        0 => pick(
            code,
            &[(1, "SETBID"), (2, "BLOCKNAME"), (3, "SETRECORDNAME")],
        ),
        8 => pick(code, MODULE),
        9 => pick(code, &[(1, "ENTRY_OLD"), (2, "ENTRY")]),
        10 => pick(code, &[(3, "ENTRY")]),
        11 => pick(code, CONSTANTS),
        12 => pick(code, FUNCTION),
        13 => pick(code, &[(1, "STRING"), (2, "EPOCH")]),
        14 => pick(
            code,
            &[
                (1, "ENTRY"),
                (2, "BBENTRY"),
                (3, "FNENTRY"),
                (5, "COMBINED_ENTRY"),
            ],
        ),
        15 => pick(code, METADATA),
        16 => pick(code, &[(11, "ATTACHMENT")]),
        17 => pick(code, TYPE),
        18 => pick(code, &[(1, "DEFAULT"), (2, "BB")]),
        19 => pick(code, &[(1, "ENTRY"), (2, "HASH")]),
        20 | 24 => pick(code, SUMMARY),
        21 => pick(code, &[(1, "OPERAND_BUNDLE_TAG")]),
        22 => pick(code, &[(6, "KIND")]),
        23 | 25 => pick(code, &[(1, "BLOB")]),
        26 => pick(code, &[(1, "SYNC_SCOPE_NAME")]),
        _ => None,
    }
}

/// For records whose operands are characters (a name, a triple, a metadata
/// string), the index of the first character operand. Only these records have
/// their unabbreviated operands shown as text.
pub fn text_start(block: u64, code: u64) -> Option<usize> {
    Some(match (block, code) {
        // BLOCKNAME [name], SETRECORDNAME [code, name]
        (0, 2) => 0,
        (0, 3) => 1,
        // TRIPLE, DATALAYOUT, ASM, SECTIONNAME, DEPLIB, GCNAME, SOURCE_FILENAME
        (8, 2..=6) | (8, 11) | (8, 16) => 0,
        // CST STRING, CSTRING
        (11, 8) | (11, 9) => 0,
        // IDENTIFICATION STRING
        (13, 1) => 0,
        // VST ENTRY [valueid, name], BBENTRY [bbid, name], FNENTRY [valueid, offset, name]
        (14, 1) | (14, 2) => 1,
        (14, 3) => 2,
        // METADATA STRING_OLD, NAME; KIND [id, name]
        (15, 1) | (15, 4) => 0,
        (15, 6) | (22, 6) => 1,
        // STRUCT_NAME
        (17, 19) => 0,
        // MST ENTRY [modid, name]
        (19, 1) => 1,
        // OPERAND_BUNDLE_TAG, SYNC_SCOPE_NAME
        (21, 1) | (26, 1) => 0,
        _ => return None,
    })
}

fn pick(code: u64, table: &[(u64, &'static str)]) -> Option<&'static str> {
    table.iter().find(|&&(c, _)| c == code).map(|&(_, n)| n)
}

const MODULE: &[(u64, &str)] = &[
    (1, "VERSION"),
    (2, "TRIPLE"),
    (3, "DATALAYOUT"),
    (4, "ASM"),
    (5, "SECTIONNAME"),
    (6, "DEPLIB"),
    (7, "GLOBALVAR"),
    (8, "FUNCTION"),
    (9, "ALIAS_OLD"),
    (10, "PURGEVALS"),
    (11, "GCNAME"),
    (12, "COMDAT"),
    (13, "VSTOFFSET"),
    (14, "ALIAS"),
    (15, "METADATA_VALUES_UNUSED"),
    (16, "SOURCE_FILENAME"),
    (17, "HASH"),
    (18, "IFUNC"),
];

const TYPE: &[(u64, &str)] = &[
    (1, "NUMENTRY"),
    (2, "VOID"),
    (3, "FLOAT"),
    (4, "DOUBLE"),
    (5, "LABEL"),
    (6, "OPAQUE"),
    (7, "INTEGER"),
    (8, "POINTER"),
    (9, "FUNCTION_OLD"),
    (10, "HALF"),
    (11, "ARRAY"),
    (12, "VECTOR"),
    (13, "X86_FP80"),
    (14, "FP128"),
    (15, "PPC_FP128"),
    (16, "METADATA"),
    (17, "X86_MMX"),
    (18, "STRUCT_ANON"),
    (19, "STRUCT_NAME"),
    (20, "STRUCT_NAMED"),
    (21, "FUNCTION"),
    (22, "TOKEN"),
    (23, "BFLOAT"),
    (24, "X86_AMX"),
    (25, "OPAQUE_POINTER"),
    (26, "TARGET_TYPE"),
    (27, "BYTE"),
];

const CONSTANTS: &[(u64, &str)] = &[
    (1, "SETTYPE"),
    (2, "NULL"),
    (3, "UNDEF"),
    (4, "INTEGER"),
    (5, "WIDE_INTEGER"),
    (6, "FLOAT"),
    (7, "AGGREGATE"),
    (8, "STRING"),
    (9, "CSTRING"),
    (10, "CE_BINOP"),
    (11, "CE_CAST"),
    (12, "CE_GEP_OLD"),
    (13, "CE_SELECT"),
    (14, "CE_EXTRACTELT"),
    (15, "CE_INSERTELT"),
    (16, "CE_SHUFFLEVEC"),
    (17, "CE_CMP"),
    (18, "INLINEASM_OLD"),
    (19, "CE_SHUFVEC_EX"),
    (20, "CE_INBOUNDS_GEP"),
    (21, "BLOCKADDRESS"),
    (22, "DATA"),
    (23, "INLINEASM_OLD2"),
    (24, "CE_GEP_WITH_INRANGE_INDEX_OLD"),
    (25, "CE_UNOP"),
    (26, "POISON"),
    (27, "DSO_LOCAL_EQUIVALENT"),
    (28, "INLINEASM_OLD3"),
    (29, "NO_CFI_VALUE"),
    (30, "INLINEASM"),
    (31, "CE_GEP_WITH_INRANGE"),
    (32, "CE_GEP"),
    (33, "PTRAUTH"),
    (34, "PTRAUTH2"),
    (35, "BYTE"),
    (36, "WIDE_BYTE"),
];

const FUNCTION: &[(u64, &str)] = &[
    (1, "DECLAREBLOCKS"),
    (2, "INST_BINOP"),
    (3, "INST_CAST"),
    (4, "INST_GEP_OLD"),
    (5, "INST_SELECT"),
    (6, "INST_EXTRACTELT"),
    (7, "INST_INSERTELT"),
    (8, "INST_SHUFFLEVEC"),
    (9, "INST_CMP"),
    (10, "INST_RET"),
    (11, "INST_BR"),
    (12, "INST_SWITCH"),
    (13, "INST_INVOKE"),
    (15, "INST_UNREACHABLE"),
    (16, "INST_PHI"),
    (19, "INST_ALLOCA"),
    (20, "INST_LOAD"),
    (23, "INST_VAARG"),
    (24, "INST_STORE_OLD"),
    (26, "INST_EXTRACTVAL"),
    (27, "INST_INSERTVAL"),
    (28, "INST_CMP2"),
    (29, "INST_VSELECT"),
    (30, "INST_INBOUNDS_GEP_OLD"),
    (31, "INST_INDIRECTBR"),
    (33, "DEBUG_LOC_AGAIN"),
    (34, "INST_CALL"),
    (35, "DEBUG_LOC"),
    (36, "INST_FENCE"),
    (37, "INST_CMPXCHG_OLD"),
    (38, "INST_ATOMICRMW_OLD"),
    (39, "INST_RESUME"),
    (40, "INST_LANDINGPAD_OLD"),
    (41, "INST_LOADATOMIC"),
    (42, "INST_STOREATOMIC_OLD"),
    (43, "INST_GEP"),
    (44, "INST_STORE"),
    (45, "INST_STOREATOMIC"),
    (46, "INST_CMPXCHG"),
    (47, "INST_LANDINGPAD"),
    (48, "INST_CLEANUPRET"),
    (49, "INST_CATCHRET"),
    (50, "INST_CATCHPAD"),
    (51, "INST_CLEANUPPAD"),
    (52, "INST_CATCHSWITCH"),
    (55, "OPERAND_BUNDLE"),
    (56, "INST_UNOP"),
    (57, "INST_CALLBR"),
    (58, "INST_FREEZE"),
    (59, "INST_ATOMICRMW"),
    (60, "BLOCKADDR_USERS"),
    (61, "DEBUG_RECORD_VALUE"),
    (62, "DEBUG_RECORD_DECLARE"),
    (63, "DEBUG_RECORD_ASSIGN"),
    (64, "DEBUG_RECORD_VALUE_SIMPLE"),
    (65, "DEBUG_RECORD_LABEL"),
    (66, "DEBUG_RECORD_DECLARE_VALUE"),
];

const METADATA: &[(u64, &str)] = &[
    (1, "STRING_OLD"),
    (2, "VALUE"),
    (3, "NODE"),
    (4, "NAME"),
    (5, "DISTINCT_NODE"),
    (6, "KIND"),
    (7, "LOCATION"),
    (8, "OLD_NODE"),
    (9, "OLD_FN_NODE"),
    (10, "NAMED_NODE"),
    (11, "ATTACHMENT"),
    (12, "GENERIC_DEBUG"),
    (13, "SUBRANGE"),
    (14, "ENUMERATOR"),
    (15, "BASIC_TYPE"),
    (16, "FILE"),
    (17, "DERIVED_TYPE"),
    (18, "COMPOSITE_TYPE"),
    (19, "SUBROUTINE_TYPE"),
    (20, "COMPILE_UNIT"),
    (21, "SUBPROGRAM"),
    (22, "LEXICAL_BLOCK"),
    (23, "LEXICAL_BLOCK_FILE"),
    (24, "NAMESPACE"),
    (25, "TEMPLATE_TYPE"),
    (26, "TEMPLATE_VALUE"),
    (27, "GLOBAL_VAR"),
    (28, "LOCAL_VAR"),
    (29, "EXPRESSION"),
    (30, "OBJC_PROPERTY"),
    (31, "IMPORTED_ENTITY"),
    (32, "MODULE"),
    (33, "MACRO"),
    (34, "MACRO_FILE"),
    (35, "STRINGS"),
    (36, "GLOBAL_DECL_ATTACHMENT"),
    (37, "GLOBAL_VAR_EXPR"),
    (38, "INDEX_OFFSET"),
    (39, "INDEX"),
    (40, "LABEL"),
    (41, "STRING_TYPE"),
    (44, "COMMON_BLOCK"),
    (45, "GENERIC_SUBRANGE"),
    (46, "ARG_LIST"),
    (47, "ASSIGN_ID"),
    (48, "SUBRANGE_TYPE"),
    (49, "FIXED_POINT_TYPE"),
];

const SUMMARY: &[(u64, &str)] = &[
    (1, "PERMODULE"),
    (2, "PERMODULE_PROFILE"),
    (3, "PERMODULE_GLOBALVAR_INIT_REFS"),
    (4, "COMBINED"),
    (5, "COMBINED_PROFILE"),
    (6, "COMBINED_GLOBALVAR_INIT_REFS"),
    (7, "ALIAS"),
    (8, "COMBINED_ALIAS"),
    (9, "COMBINED_ORIGINAL_NAME"),
    (10, "VERSION"),
    (11, "TYPE_TESTS"),
    (12, "TYPE_TEST_ASSUME_VCALLS"),
    (13, "TYPE_CHECKED_LOAD_VCALLS"),
    (14, "TYPE_TEST_ASSUME_CONST_VCALL"),
    (15, "TYPE_CHECKED_LOAD_CONST_VCALL"),
    (16, "VALUE_GUID"),
    (17, "CFI_FUNCTION_DEFS"),
    (18, "CFI_FUNCTION_DECLS"),
    (19, "PERMODULE_RELBF"),
    (20, "FLAGS"),
    (21, "TYPE_ID"),
    (22, "TYPE_ID_METADATA"),
    (23, "PERMODULE_VTABLE_GLOBALVAR_INIT_REFS"),
    (24, "BLOCK_COUNT"),
    (25, "PARAM_ACCESS"),
    (26, "PERMODULE_CALLSITE_INFO"),
    (27, "PERMODULE_ALLOC_INFO"),
    (28, "COMBINED_CALLSITE_INFO"),
    (29, "COMBINED_ALLOC_INFO"),
    (30, "STACK_IDS"),
    (31, "ALLOC_CONTEXT_IDS"),
    (32, "CONTEXT_RADIX_TREE_ARRAY"),
    (33, "COMBINED_ALLOC_INFO_NO_CONTEXT"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_llvm_bitcodes_h() {
        assert_eq!(block_name(8), Some("MODULE_BLOCK"));
        assert_eq!(block_name(17), Some("TYPE_BLOCK_NEW"));
        assert_eq!(block_name(99), None);
        assert_eq!(record_name(12, 34), Some("INST_CALL"));
        assert_eq!(record_name(12, 38), Some("INST_ATOMICRMW_OLD"));
        assert_eq!(record_name(15, 1), Some("STRING_OLD"));
        assert_eq!(record_name(15, 42), None);
        assert_eq!(record_name(0, 1), Some("SETBID"));
    }
}
