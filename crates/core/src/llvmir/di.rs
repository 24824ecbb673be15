//! Debug-information metadata (`!DILocation(…)`, `!DISubprogram(…)`, …): which
//! operands of each METADATA_* record name other metadata, the order LLVM
//! keeps a node's operands in (the order its slot tracker numbers them), and
//! the names its text gives DWARF constants and flags.
//!
//! The reader keeps a specialised node's record operands as written, except
//! that every reference is stored as metadata ID + 1 (0: null), as most
//! records already store them; `normalize` moves the two that do not
//! (LOCATION's scope, ARG_LIST's arguments) to that form.

/// METADATA_* record codes of specialised nodes.
pub const LOCATION: u64 = 7;
pub const GENERIC_DEBUG: u64 = 12;
pub const SUBRANGE: u64 = 13;
pub const ENUMERATOR: u64 = 14;
pub const BASIC_TYPE: u64 = 15;
pub const FILE: u64 = 16;
pub const DERIVED_TYPE: u64 = 17;
pub const COMPOSITE_TYPE: u64 = 18;
pub const SUBROUTINE_TYPE: u64 = 19;
pub const COMPILE_UNIT: u64 = 20;
pub const SUBPROGRAM: u64 = 21;
pub const LEXICAL_BLOCK: u64 = 22;
pub const LEXICAL_BLOCK_FILE: u64 = 23;
pub const NAMESPACE: u64 = 24;
pub const TEMPLATE_TYPE: u64 = 25;
pub const TEMPLATE_VALUE: u64 = 26;
pub const GLOBAL_VAR: u64 = 27;
pub const LOCAL_VAR: u64 = 28;
pub const EXPRESSION: u64 = 29;
pub const OBJC_PROPERTY: u64 = 30;
pub const IMPORTED_ENTITY: u64 = 31;
pub const MODULE: u64 = 32;
pub const MACRO: u64 = 33;
pub const MACRO_FILE: u64 = 34;
pub const GLOBAL_VAR_EXPR: u64 = 37;
pub const LABEL: u64 = 40;
pub const STRING_TYPE: u64 = 41;
pub const COMMON_BLOCK: u64 = 44;
pub const GENERIC_SUBRANGE: u64 = 45;
pub const ARG_LIST: u64 = 46;
pub const ASSIGN_ID: u64 = 47;

/// Moves the references a record does not store as ID + 1 to that form.
pub fn normalize(code: u64, ops: &mut [u64]) {
    match code {
        LOCATION => {
            if let Some(s) = ops.get_mut(3) {
                *s += 1;
            }
        }
        ARG_LIST => {
            for o in ops.iter_mut() {
                *o += 1;
            }
        }
        _ => {}
    }
}

/// Whether a SUBPROGRAM record has the layout with a flags word of its own
/// (LLVM 8 and later).
fn sp_flags_layout(ops: &[u64]) -> bool {
    ops.first().is_some_and(|f| f & 4 != 0)
}

/// The indices of the record operands that are references (ID + 1).
pub fn ref_fields(code: u64, ops: &[u64]) -> Vec<usize> {
    let n = ops.len();
    let v: Vec<usize> = match code {
        LOCATION => vec![3, 4],
        GENERIC_DEBUG => (3..n).collect(),
        SUBRANGE => match ops.first().map(|f| f >> 1) {
            Some(2) => vec![1, 2, 3, 4],
            Some(1) => vec![1],
            _ => vec![],
        },
        GENERIC_SUBRANGE => vec![1, 2, 3, 4],
        ENUMERATOR => vec![2],
        BASIC_TYPE => vec![2],
        STRING_TYPE => vec![2, 3, 4, 5],
        FILE => vec![1, 2, 4, 5],
        DERIVED_TYPE => vec![2, 3, 5, 6, 11, 13],
        COMPOSITE_TYPE => vec![2, 3, 5, 6, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21],
        SUBROUTINE_TYPE => vec![2],
        COMPILE_UNIT => vec![2, 3, 5, 7, 9, 10, 11, 12, 13, 15, 20, 21],
        SUBPROGRAM if sp_flags_layout(ops) => vec![1, 2, 3, 4, 6, 8, 12, 13, 14, 15, 17, 18, 19],
        SUBPROGRAM => {
            // Before LLVM 8: scope, name, linkage, file, line, type, local,
            // definition, scope line, containing type, virtuality, index,
            // flags, optimized, unit or function (with 19 operands or
            // more), template params, declaration, variables, this
            // adjustment, thrown types.
            let b = 2 + usize::from(n >= 19);
            let mut v = vec![1, 2, 3, 4, 6, 10, 13 + b, 14 + b, 15 + b, 17 + b];
            if b == 3 {
                v.push(15);
            }
            v
        }
        LEXICAL_BLOCK | LEXICAL_BLOCK_FILE => vec![1, 2],
        NAMESPACE if n == 3 => vec![1, 2],
        NAMESPACE => vec![1, 2, 3],
        TEMPLATE_TYPE => vec![1, 2],
        TEMPLATE_VALUE if n >= 6 => vec![2, 3, 5],
        TEMPLATE_VALUE => vec![2, 3, 4],
        GLOBAL_VAR => vec![1, 2, 3, 4, 6, 9, 10, 12],
        LOCAL_VAR => {
            let t = local_var_tag_shift(ops);
            vec![1 + t, 2 + t, 3 + t, 5 + t, 9]
        }
        OBJC_PROPERTY => vec![1, 2, 4, 5, 7],
        IMPORTED_ENTITY => vec![2, 3, 5, 6, 7],
        MODULE => (1..n).filter(|&k| k <= 6).collect(),
        MACRO => vec![3, 4],
        MACRO_FILE => vec![3, 4],
        GLOBAL_VAR_EXPR => vec![1, 2],
        LABEL => vec![1, 2, 3],
        COMMON_BLOCK => vec![1, 2, 3, 4],
        ARG_LIST => (0..n).collect(),
        _ => vec![],
    };
    v.into_iter().filter(|&k| k < n).collect()
}

/// A node's operands in the order LLVM keeps them (ID + 1, 0: null): the
/// order its slot tracker walks them in.
pub fn node_operands(code: u64, ops: &[u64]) -> Vec<u64> {
    let at = |k: usize| ops.get(k).copied().unwrap_or(0);
    let pick = |ks: &[usize]| ks.iter().map(|&k| at(k)).collect::<Vec<u64>>();
    match code {
        LOCATION => pick(&[3, 4]),
        GENERIC_DEBUG => ops.iter().skip(3).copied().collect(),
        SUBRANGE | GENERIC_SUBRANGE => {
            if code == SUBRANGE && ops.first().map(|f| f >> 1) != Some(2) {
                return if ops.first().map(|f| f >> 1) == Some(1) {
                    pick(&[1])
                } else {
                    vec![]
                };
            }
            pick(&[1, 2, 3, 4])
        }
        ENUMERATOR => pick(&[2]),
        BASIC_TYPE => vec![0, 0, at(2)],
        STRING_TYPE => vec![0, 0, at(2), at(3), at(4), at(5)],
        FILE => pick(&[1, 2, 4, 5]),
        // File, scope, name, base type, extra data, annotations.
        DERIVED_TYPE => pick(&[3, 5, 2, 6, 11, 13]),
        // File, scope, name, base type, elements, vtable holder, template
        // params, identifier, discriminator, data location, associated,
        // allocated, rank, annotations.
        COMPOSITE_TYPE => pick(&[3, 5, 2, 6, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21]),
        SUBROUTINE_TYPE => vec![0, 0, 0, at(2)],
        // File, producer, flags, split file, enums, retained types, globals,
        // imports, macros, sysroot, SDK.
        COMPILE_UNIT => pick(&[2, 3, 5, 7, 9, 10, 12, 13, 15, 20, 21]),
        // File, scope, name, linkage name, type, unit, declaration, retained
        // nodes, containing type, template params, thrown types,
        // annotations, target function name.
        SUBPROGRAM if sp_flags_layout(ops) => pick(&[4, 1, 2, 3, 6, 12, 14, 15, 8, 13, 17, 18, 19]),
        SUBPROGRAM => {
            let b = 2 + usize::from(ops.len() >= 19);
            let unit = if ops.first().is_some_and(|f| f & 2 != 0) {
                12 + b
            } else {
                usize::MAX
            };
            pick(&[4, 1, 2, 3, 6, unit, 14 + b, 15 + b, 10, 13 + b, 17 + b])
        }
        LEXICAL_BLOCK | LEXICAL_BLOCK_FILE => pick(&[2, 1]),
        NAMESPACE if ops.len() == 3 => vec![0, at(1), at(2)],
        NAMESPACE => vec![at(2), at(1), at(3)],
        TEMPLATE_TYPE => pick(&[1, 2]),
        TEMPLATE_VALUE if ops.len() >= 6 => pick(&[2, 3, 5]),
        TEMPLATE_VALUE => pick(&[2, 3, 4]),
        // Scope, name, file, type, name again, linkage name, declaration,
        // template params, annotations.
        GLOBAL_VAR => pick(&[1, 2, 4, 6, 2, 3, 9, 10, 12]),
        LOCAL_VAR => {
            let t = local_var_tag_shift(ops);
            pick(&[1 + t, 2 + t, 3 + t, 5 + t, 9])
        }
        OBJC_PROPERTY => pick(&[1, 2, 4, 5, 7]),
        // Scope, entity, name, file, elements.
        IMPORTED_ENTITY => pick(&[2, 3, 5, 6, 7]),
        MODULE => ops.iter().skip(1).take(6).copied().collect(),
        MACRO => pick(&[3, 4]),
        MACRO_FILE => pick(&[3, 4]),
        GLOBAL_VAR_EXPR => pick(&[1, 2]),
        LABEL => pick(&[1, 2, 3]),
        COMMON_BLOCK => pick(&[1, 2, 3, 4]),
        ARG_LIST => ops.to_vec(),
        _ => vec![],
    }
}

/// 1 where a LOCAL_VAR record gives the variable's tag before its fields
/// (LLVM 3.x: no alignment flag and more than 8 operands), else 0.
pub fn local_var_tag_shift(ops: &[u64]) -> usize {
    usize::from(ops.first().is_some_and(|f| f & 2 == 0) && ops.len() > 8)
}

/// Whether a record's node is distinct.
pub fn distinct(code: u64, ops: &[u64]) -> bool {
    let first = ops.first().copied().unwrap_or(0);
    match code {
        // LLVM's reader drops a subrange's distinct flag.
        ARG_LIST | SUBRANGE | GENERIC_SUBRANGE => false,
        // A definition is always distinct.
        SUBPROGRAM if sp_flags_layout(ops) => {
            first & 1 != 0 || ops.get(9).is_some_and(|f| f & 8 != 0)
        }
        SUBPROGRAM => first & 1 != 0 || ops.get(8).is_some_and(|&d| d != 0),
        _ => first & 1 != 0,
    }
}

/// The DW_TAG name of `v`.
pub fn tag(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_TAG_array_type",
        0x02 => "DW_TAG_class_type",
        0x03 => "DW_TAG_entry_point",
        0x04 => "DW_TAG_enumeration_type",
        0x05 => "DW_TAG_formal_parameter",
        0x08 => "DW_TAG_imported_declaration",
        0x0a => "DW_TAG_label",
        0x0b => "DW_TAG_lexical_block",
        0x0d => "DW_TAG_member",
        0x0f => "DW_TAG_pointer_type",
        0x10 => "DW_TAG_reference_type",
        0x11 => "DW_TAG_compile_unit",
        0x12 => "DW_TAG_string_type",
        0x13 => "DW_TAG_structure_type",
        0x15 => "DW_TAG_subroutine_type",
        0x16 => "DW_TAG_typedef",
        0x17 => "DW_TAG_union_type",
        0x18 => "DW_TAG_unspecified_parameters",
        0x19 => "DW_TAG_variant",
        0x1a => "DW_TAG_common_block",
        0x1b => "DW_TAG_common_inclusion",
        0x1c => "DW_TAG_inheritance",
        0x1d => "DW_TAG_inlined_subroutine",
        0x1e => "DW_TAG_module",
        0x1f => "DW_TAG_ptr_to_member_type",
        0x20 => "DW_TAG_set_type",
        0x21 => "DW_TAG_subrange_type",
        0x22 => "DW_TAG_with_stmt",
        0x23 => "DW_TAG_access_declaration",
        0x24 => "DW_TAG_base_type",
        0x25 => "DW_TAG_catch_block",
        0x26 => "DW_TAG_const_type",
        0x27 => "DW_TAG_constant",
        0x28 => "DW_TAG_enumerator",
        0x29 => "DW_TAG_file_type",
        0x2a => "DW_TAG_friend",
        0x2b => "DW_TAG_namelist",
        0x2c => "DW_TAG_namelist_item",
        0x2d => "DW_TAG_packed_type",
        0x2e => "DW_TAG_subprogram",
        0x2f => "DW_TAG_template_type_parameter",
        0x30 => "DW_TAG_template_value_parameter",
        0x31 => "DW_TAG_thrown_type",
        0x32 => "DW_TAG_try_block",
        0x33 => "DW_TAG_variant_part",
        0x34 => "DW_TAG_variable",
        0x35 => "DW_TAG_volatile_type",
        0x36 => "DW_TAG_dwarf_procedure",
        0x37 => "DW_TAG_restrict_type",
        0x38 => "DW_TAG_interface_type",
        0x39 => "DW_TAG_namespace",
        0x3a => "DW_TAG_imported_module",
        0x3b => "DW_TAG_unspecified_type",
        0x3c => "DW_TAG_partial_unit",
        0x3d => "DW_TAG_imported_unit",
        0x3f => "DW_TAG_condition",
        0x40 => "DW_TAG_shared_type",
        0x41 => "DW_TAG_type_unit",
        0x42 => "DW_TAG_rvalue_reference_type",
        0x43 => "DW_TAG_template_alias",
        0x44 => "DW_TAG_coarray_type",
        0x45 => "DW_TAG_generic_subrange",
        0x46 => "DW_TAG_dynamic_type",
        0x47 => "DW_TAG_atomic_type",
        0x48 => "DW_TAG_call_site",
        0x49 => "DW_TAG_call_site_parameter",
        0x4a => "DW_TAG_skeleton_unit",
        0x4b => "DW_TAG_immutable_type",
        0x4106 => "DW_TAG_GNU_template_template_param",
        0x4107 => "DW_TAG_GNU_template_parameter_pack",
        0x4108 => "DW_TAG_GNU_formal_parameter_pack",
        0x4109 => "DW_TAG_GNU_call_site",
        0x410a => "DW_TAG_GNU_call_site_parameter",
        0x4200 => "DW_TAG_APPLE_property",
        0x6000 => "DW_TAG_LLVM_annotation",
        _ => return None,
    })
}

/// The DW_ATE name of `v`.
pub fn encoding(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_ATE_address",
        0x02 => "DW_ATE_boolean",
        0x03 => "DW_ATE_complex_float",
        0x04 => "DW_ATE_float",
        0x05 => "DW_ATE_signed",
        0x06 => "DW_ATE_signed_char",
        0x07 => "DW_ATE_unsigned",
        0x08 => "DW_ATE_unsigned_char",
        0x09 => "DW_ATE_imaginary_float",
        0x0a => "DW_ATE_packed_decimal",
        0x0b => "DW_ATE_numeric_string",
        0x0c => "DW_ATE_edited",
        0x0d => "DW_ATE_signed_fixed",
        0x0e => "DW_ATE_unsigned_fixed",
        0x0f => "DW_ATE_decimal_float",
        0x10 => "DW_ATE_UTF",
        0x11 => "DW_ATE_UCS",
        0x12 => "DW_ATE_ASCII",
        _ => return None,
    })
}

/// The DW_LANG name of `v`.
pub fn language(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_LANG_C89",
        0x02 => "DW_LANG_C",
        0x03 => "DW_LANG_Ada83",
        0x04 => "DW_LANG_C_plus_plus",
        0x05 => "DW_LANG_Cobol74",
        0x06 => "DW_LANG_Cobol85",
        0x07 => "DW_LANG_Fortran77",
        0x08 => "DW_LANG_Fortran90",
        0x09 => "DW_LANG_Pascal83",
        0x0a => "DW_LANG_Modula2",
        0x0b => "DW_LANG_Java",
        0x0c => "DW_LANG_C99",
        0x0d => "DW_LANG_Ada95",
        0x0e => "DW_LANG_Fortran95",
        0x0f => "DW_LANG_PLI",
        0x10 => "DW_LANG_ObjC",
        0x11 => "DW_LANG_ObjC_plus_plus",
        0x12 => "DW_LANG_UPC",
        0x13 => "DW_LANG_D",
        0x14 => "DW_LANG_Python",
        0x15 => "DW_LANG_OpenCL",
        0x16 => "DW_LANG_Go",
        0x17 => "DW_LANG_Modula3",
        0x18 => "DW_LANG_Haskell",
        0x19 => "DW_LANG_C_plus_plus_03",
        0x1a => "DW_LANG_C_plus_plus_11",
        0x1b => "DW_LANG_OCaml",
        0x1c => "DW_LANG_Rust",
        0x1d => "DW_LANG_C11",
        0x1e => "DW_LANG_Swift",
        0x1f => "DW_LANG_Julia",
        0x20 => "DW_LANG_Dylan",
        0x21 => "DW_LANG_C_plus_plus_14",
        0x22 => "DW_LANG_Fortran03",
        0x23 => "DW_LANG_Fortran08",
        0x24 => "DW_LANG_RenderScript",
        0x25 => "DW_LANG_BLISS",
        0x26 => "DW_LANG_Kotlin",
        0x27 => "DW_LANG_Zig",
        0x28 => "DW_LANG_Crystal",
        0x2a => "DW_LANG_C_plus_plus_17",
        0x2b => "DW_LANG_C_plus_plus_20",
        0x2c => "DW_LANG_C17",
        0x2d => "DW_LANG_Fortran18",
        0x2e => "DW_LANG_Ada2005",
        0x2f => "DW_LANG_Ada2012",
        0x30 => "DW_LANG_HIP",
        0x31 => "DW_LANG_Assembly",
        0x32 => "DW_LANG_C_sharp",
        0x33 => "DW_LANG_Mojo",
        0x34 => "DW_LANG_GLSL",
        0x35 => "DW_LANG_GLSL_ES",
        0x36 => "DW_LANG_HLSL",
        0x37 => "DW_LANG_OpenCL_CPP",
        0x38 => "DW_LANG_CPP_for_OpenCL",
        0x39 => "DW_LANG_SYCL",
        0x40 => "DW_LANG_Ruby",
        0x41 => "DW_LANG_Move",
        0x42 => "DW_LANG_Hylo",
        0x8001 => "DW_LANG_Mips_Assembler",
        0x8e57 => "DW_LANG_GOOGLE_RenderScript",
        0xb000 => "DW_LANG_BORLAND_Delphi",
        _ => return None,
    })
}

/// The DW_CC name of `v`.
pub fn convention(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_CC_normal",
        0x02 => "DW_CC_program",
        0x03 => "DW_CC_nocall",
        0x04 => "DW_CC_pass_by_reference",
        0x05 => "DW_CC_pass_by_value",
        0x40 => "DW_CC_GNU_renesas_sh",
        0x41 => "DW_CC_GNU_borland_fastcall_i386",
        0xb0 => "DW_CC_BORLAND_safecall",
        0xb1 => "DW_CC_BORLAND_stdcall",
        0xb2 => "DW_CC_BORLAND_pascal",
        0xb3 => "DW_CC_BORLAND_msfastcall",
        0xb4 => "DW_CC_BORLAND_msreturn",
        0xb5 => "DW_CC_BORLAND_thiscall",
        0xb6 => "DW_CC_BORLAND_fastcall",
        0xc0 => "DW_CC_LLVM_vectorcall",
        0xc1 => "DW_CC_LLVM_Win64",
        0xc2 => "DW_CC_LLVM_X86_64SysV",
        0xc3 => "DW_CC_LLVM_AAPCS",
        0xc4 => "DW_CC_LLVM_AAPCS_VFP",
        0xc5 => "DW_CC_LLVM_IntelOclBicc",
        0xc6 => "DW_CC_LLVM_SpirFunction",
        0xc7 => "DW_CC_LLVM_OpenCLKernel",
        0xc8 => "DW_CC_LLVM_Swift",
        0xc9 => "DW_CC_LLVM_PreserveMost",
        0xca => "DW_CC_LLVM_PreserveAll",
        0xcb => "DW_CC_LLVM_X86RegCall",
        0xcc => "DW_CC_LLVM_M68kRTD",
        0xcd => "DW_CC_LLVM_PreserveNone",
        0xce => "DW_CC_LLVM_RISCVVectorCall",
        0xff => "DW_CC_GDB_IBM_OpenCL",
        _ => return None,
    })
}

/// The DW_MACINFO name of `v`.
pub fn macinfo(v: u64) -> Option<&'static str> {
    Some(match v {
        0x01 => "DW_MACINFO_define",
        0x02 => "DW_MACINFO_undef",
        0x03 => "DW_MACINFO_start_file",
        0x04 => "DW_MACINFO_end_file",
        0xff => "DW_MACINFO_vendor_ext",
        _ => return None,
    })
}

/// The name of DWARF expression operation `v` and how many operands follow it.
pub fn operation(v: u64) -> Option<(String, usize)> {
    let fixed = |s: &str, n: usize| Some((s.to_string(), n));
    match v {
        0x30..=0x4f => return Some((format!("DW_OP_lit{}", v - 0x30), 0)),
        0x50..=0x6f => return Some((format!("DW_OP_reg{}", v - 0x50), 0)),
        0x70..=0x8f => return Some((format!("DW_OP_breg{}", v - 0x70), 1)),
        _ => {}
    }
    match v {
        0x03 => fixed("DW_OP_addr", 0),
        0x06 => fixed("DW_OP_deref", 0),
        0x08 => fixed("DW_OP_const1u", 0),
        0x09 => fixed("DW_OP_const1s", 0),
        0x0a => fixed("DW_OP_const2u", 0),
        0x0b => fixed("DW_OP_const2s", 0),
        0x0c => fixed("DW_OP_const4u", 0),
        0x0d => fixed("DW_OP_const4s", 0),
        0x0e => fixed("DW_OP_const8u", 0),
        0x0f => fixed("DW_OP_const8s", 0),
        0x10 => fixed("DW_OP_constu", 1),
        0x11 => fixed("DW_OP_consts", 1),
        0x12 => fixed("DW_OP_dup", 0),
        0x13 => fixed("DW_OP_drop", 0),
        0x14 => fixed("DW_OP_over", 0),
        0x15 => fixed("DW_OP_pick", 0),
        0x16 => fixed("DW_OP_swap", 0),
        0x17 => fixed("DW_OP_rot", 0),
        0x18 => fixed("DW_OP_xderef", 0),
        0x19 => fixed("DW_OP_abs", 0),
        0x1a => fixed("DW_OP_and", 0),
        0x1b => fixed("DW_OP_div", 0),
        0x1c => fixed("DW_OP_minus", 0),
        0x1d => fixed("DW_OP_mod", 0),
        0x1e => fixed("DW_OP_mul", 0),
        0x1f => fixed("DW_OP_neg", 0),
        0x20 => fixed("DW_OP_not", 0),
        0x21 => fixed("DW_OP_or", 0),
        0x22 => fixed("DW_OP_plus", 0),
        0x23 => fixed("DW_OP_plus_uconst", 1),
        0x24 => fixed("DW_OP_shl", 0),
        0x25 => fixed("DW_OP_shr", 0),
        0x26 => fixed("DW_OP_shra", 0),
        0x27 => fixed("DW_OP_xor", 0),
        0x28 => fixed("DW_OP_bra", 0),
        0x29 => fixed("DW_OP_eq", 0),
        0x2a => fixed("DW_OP_ge", 0),
        0x2b => fixed("DW_OP_gt", 0),
        0x2c => fixed("DW_OP_le", 0),
        0x2d => fixed("DW_OP_lt", 0),
        0x2e => fixed("DW_OP_ne", 0),
        0x2f => fixed("DW_OP_skip", 0),
        0x90 => fixed("DW_OP_regx", 1),
        0x91 => fixed("DW_OP_fbreg", 0),
        0x92 => fixed("DW_OP_bregx", 2),
        0x93 => fixed("DW_OP_piece", 0),
        0x94 => fixed("DW_OP_deref_size", 1),
        0x95 => fixed("DW_OP_xderef_size", 0),
        0x96 => fixed("DW_OP_nop", 0),
        0x97 => fixed("DW_OP_push_object_address", 0),
        0x98 => fixed("DW_OP_call2", 0),
        0x99 => fixed("DW_OP_call4", 0),
        0x9a => fixed("DW_OP_call_ref", 0),
        0x9b => fixed("DW_OP_form_tls_address", 0),
        0x9c => fixed("DW_OP_call_frame_cfa", 0),
        0x9d => fixed("DW_OP_bit_piece", 0),
        0x9e => fixed("DW_OP_implicit_value", 0),
        0x9f => fixed("DW_OP_stack_value", 0),
        0xa0 => fixed("DW_OP_implicit_pointer", 0),
        0xa1 => fixed("DW_OP_addrx", 0),
        0xa2 => fixed("DW_OP_constx", 0),
        0xa3 => fixed("DW_OP_entry_value", 0),
        0xa4 => fixed("DW_OP_const_type", 0),
        0xa5 => fixed("DW_OP_regval_type", 0),
        0xa6 => fixed("DW_OP_deref_type", 0),
        0xa7 => fixed("DW_OP_xderef_type", 0),
        0xa8 => fixed("DW_OP_convert", 0),
        0xa9 => fixed("DW_OP_reinterpret", 0),
        0xe0 => fixed("DW_OP_GNU_push_tls_address", 0),
        0xf3 => fixed("DW_OP_GNU_entry_value", 0),
        0xfb => fixed("DW_OP_GNU_addr_index", 0),
        0xfc => fixed("DW_OP_GNU_const_index", 0),
        0x1000 => fixed("DW_OP_LLVM_fragment", 2),
        0x1001 => fixed("DW_OP_LLVM_convert", 2),
        0x1002 => fixed("DW_OP_LLVM_tag_offset", 1),
        0x1003 => fixed("DW_OP_LLVM_entry_value", 1),
        0x1004 => fixed("DW_OP_LLVM_implicit_pointer", 0),
        0x1005 => fixed("DW_OP_LLVM_arg", 1),
        0x1006 => fixed("DW_OP_LLVM_extract_bits_sext", 2),
        0x1007 => fixed("DW_OP_LLVM_extract_bits_zext", 2),
        _ => None,
    }
}

/// The text of a DIExpression's elements (`DW_OP_plus_uconst, 8`), or the
/// bare numbers when an element is no operation LLVM knows.
pub fn expression(elems: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    let mut valid = valid_expression(elems);
    while valid && k < elems.len() {
        match operation(elems[k]) {
            Some((name, n)) if k + n < elems.len() => {
                parts.push(name);
                if elems[k] == 0x1001 {
                    parts.push(elems[k + 1].to_string());
                    let e = elems[k + 2];
                    parts.push(encoding(e).map_or_else(|| e.to_string(), str::to_string));
                } else {
                    for a in &elems[k + 1..=k + n] {
                        parts.push(a.to_string());
                    }
                }
                k += n + 1;
            }
            _ => {
                valid = false;
                break;
            }
        }
    }
    if !valid {
        parts = elems.iter().map(u64::to_string).collect();
    }
    format!("!DIExpression({})", parts.join(", "))
}

/// The text of an EXPRESSION record (`[distinct | version << 1, elements…]`),
/// its elements upgraded as LLVM's reader upgrades records before version
/// 3: version 0's last `DW_OP_bit_piece` becomes `DW_OP_LLVM_fragment`;
/// before version 2 a leading `DW_OP_deref` moves to the end (before a
/// fragment); before version 3 `DW_OP_plus N` and `DW_OP_minus N`, which
/// took their operand inline, become `DW_OP_plus_uconst N` and
/// `DW_OP_constu N, DW_OP_minus`.
pub fn expression_record(ops: &[u64]) -> String {
    let version = ops.first().map_or(3, |f| f >> 1);
    let mut e: Vec<u64> = ops.get(1..).unwrap_or(&[]).to_vec();
    if version >= 3 {
        return expression(&e);
    }
    let n = e.len();
    if version == 0 && n >= 3 && e[n - 3] == 0x9d {
        e[n - 3] = 0x1000;
    }
    if version <= 1 && e.first() == Some(&0x06) {
        let end = if n >= 3 && e[n - 3] == 0x1000 {
            n - 3
        } else {
            n
        };
        e[..end].rotate_left(1);
    }
    // Operations and their operands as version 2 counted them.
    let mut out = Vec::with_capacity(n + 2);
    let mut k = 0;
    while k < e.len() {
        let size = match e[k] {
            0x10 | 0x1c | 0x22 => 2,
            0x1000 => 3,
            _ => 1,
        }
        .min(e.len() - k);
        let args = &e[k + 1..k + size];
        match e[k] {
            0x22 => {
                out.push(0x23);
                out.extend_from_slice(args);
            }
            0x1c => {
                out.push(0x10);
                out.extend_from_slice(args);
                out.push(0x1c);
            }
            op => {
                out.push(op);
                out.extend_from_slice(args);
            }
        }
        k += size;
    }
    expression(&out)
}

/// Whether LLVM deems an expression valid (else it prints its elements bare).
fn valid_expression(elems: &[u64]) -> bool {
    let mut k = 0;
    while k < elems.len() {
        let op = elems[k];
        let Some((_, n)) = operation(op) else {
            return false;
        };
        let end = k + 1 + n;
        if end > elems.len() {
            return false;
        }
        match op {
            // A register location makes the expression valid as it stands.
            0x50..=0x8f => return true,
            0x1000 => {
                if end != elems.len() {
                    return false;
                }
            }
            0x9f => {
                // Last, or followed only by a fragment.
                if end != elems.len() && !(elems[end] == 0x1000 && end + 3 == elems.len()) {
                    return false;
                }
            }
            0x16 => {
                if elems.len() <= 1 {
                    return false;
                }
            }
            0x1003 => {
                let after_arg0 = k == 2 && elems[0] == 0x1005 && elems[1] == 0;
                if !(k == 0 || after_arg0) || elems[k + 1] != 1 {
                    return false;
                }
            }
            0x1004 | 0x1001 | 0x1005 | 0x1002 | 0x1006 | 0x1007 | 0x10 | 0x23 | 0x22 | 0x1c
            | 0x1e | 0x1b | 0x1d | 0x21 | 0x1a | 0x27 | 0x24 | 0x25 | 0x26 | 0x06 | 0x94 | 0x18
            | 0x30 | 0x20 | 0x12 | 0x90 | 0x92 | 0x97 | 0x14 | 0x11 | 0x29 | 0x2e | 0x2b | 0x2a
            | 0x2d | 0x2c => {}
            _ => return false,
        }
        k = end;
    }
    true
}

/// `DIFlag…` names joined by ` | ` (unknown bits as a number).
pub fn di_flags(v: u64) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut f = v;
    match f & 3 {
        1 => parts.push("DIFlagPrivate".into()),
        2 => parts.push("DIFlagProtected".into()),
        3 => parts.push("DIFlagPublic".into()),
        _ => {}
    }
    f &= !3;
    match f & (3 << 16) {
        x if x == 1 << 16 => parts.push("DIFlagSingleInheritance".into()),
        x if x == 2 << 16 => parts.push("DIFlagMultipleInheritance".into()),
        x if x == 3 << 16 => parts.push("DIFlagVirtualInheritance".into()),
        _ => {}
    }
    f &= !(3 << 16);
    let ivb = (1 << 2) | (1 << 5);
    if f & ivb == ivb {
        parts.push("DIFlagIndirectVirtualBase".into());
        f &= !ivb;
    }
    const NAMES: [(u32, &str); 26] = [
        (2, "DIFlagFwdDecl"),
        (3, "DIFlagAppleBlock"),
        (4, "DIFlagReservedBit4"),
        (5, "DIFlagVirtual"),
        (6, "DIFlagArtificial"),
        (7, "DIFlagExplicit"),
        (8, "DIFlagPrototyped"),
        (9, "DIFlagObjcClassComplete"),
        (10, "DIFlagObjectPointer"),
        (11, "DIFlagVector"),
        (12, "DIFlagStaticMember"),
        (13, "DIFlagLValueReference"),
        (14, "DIFlagRValueReference"),
        (15, "DIFlagExportSymbols"),
        (18, "DIFlagIntroducedVirtual"),
        (19, "DIFlagBitField"),
        (20, "DIFlagNoReturn"),
        (22, "DIFlagTypePassByValue"),
        (23, "DIFlagTypePassByReference"),
        (24, "DIFlagEnumClass"),
        (25, "DIFlagThunk"),
        (26, "DIFlagNonTrivial"),
        (27, "DIFlagBigEndian"),
        (28, "DIFlagLittleEndian"),
        (29, "DIFlagAllCallsDescribed"),
        (63, ""),
    ];
    for (bit, name) in NAMES {
        if name.is_empty() {
            continue;
        }
        if f & (1 << bit) != 0 {
            parts.push(name.into());
            f &= !(1 << bit);
        }
    }
    // The flags are a 30-bit enumeration: clearing a named flag drops the
    // bits above it.
    if v & ((1 << 30) - 1) != 0 && !parts.is_empty() {
        f &= (1 << 30) - 1;
    }
    if f != 0 || parts.is_empty() {
        parts.push(f.to_string());
    }
    parts.join(" | ")
}

/// `DISPFlag…` names joined by ` | ` (unknown bits as a number).
pub fn sp_flags(v: u64) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut f = v;
    match f & 3 {
        1 => parts.push("DISPFlagVirtual".into()),
        2 => parts.push("DISPFlagPureVirtual".into()),
        _ => {}
    }
    if f & 3 != 3 {
        f &= !3;
    }
    const NAMES: [(u32, &str); 9] = [
        (2, "DISPFlagLocalToUnit"),
        (3, "DISPFlagDefinition"),
        (4, "DISPFlagOptimized"),
        (5, "DISPFlagPure"),
        (6, "DISPFlagElemental"),
        (7, "DISPFlagRecursive"),
        (8, "DISPFlagMainSubprogram"),
        (9, "DISPFlagDeleted"),
        (11, "DISPFlagObjCDirect"),
    ];
    for (bit, name) in NAMES {
        if f & (1 << bit) != 0 {
            parts.push(name.into());
            f &= !(1 << bit);
        }
    }
    if f != 0 || parts.is_empty() {
        parts.push(f.to_string());
    }
    parts.join(" | ")
}

/// The subprogram flags a pre-LLVM 8 SUBPROGRAM record spells as fields.
pub fn old_sp_flags(ops: &[u64]) -> u64 {
    let at = |k: usize| ops.get(k).copied().unwrap_or(0);
    let mut f = at(11) & 3;
    if at(7) != 0 {
        f |= 4;
    }
    if at(8) != 0 {
        f |= 8;
    }
    if at(14) != 0 {
        f |= 16;
    }
    // The old main-subprogram DIFlag.
    if at(13) & (1 << 21) != 0 {
        f |= 256;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_split_as_llvm_names_them() {
        assert_eq!(di_flags(0), "0");
        assert_eq!(di_flags(256), "DIFlagPrototyped");
        assert_eq!(
            di_flags(3 | 256 | (1 << 29)),
            "DIFlagPublic | DIFlagPrototyped | DIFlagAllCallsDescribed"
        );
        assert_eq!(di_flags((1 << 2) | (1 << 5)), "DIFlagIndirectVirtualBase");
        assert_eq!(di_flags(1 << 21), "2097152");
        assert_eq!(sp_flags(8 | 16), "DISPFlagDefinition | DISPFlagOptimized");
        assert_eq!(sp_flags(1 | 8), "DISPFlagVirtual | DISPFlagDefinition");
    }

    #[test]
    fn old_expressions_are_upgraded() {
        // Version 0 (LLVM 3.7): a bit piece, an inline DW_OP_plus.
        assert_eq!(
            expression_record(&[0, 0x9d, 32, 32]),
            "!DIExpression(DW_OP_LLVM_fragment, 32, 32)"
        );
        assert_eq!(
            expression_record(&[0, 0x22, 8]),
            "!DIExpression(DW_OP_plus_uconst, 8)"
        );
        assert_eq!(
            expression_record(&[0, 0x1c, 4]),
            "!DIExpression(DW_OP_constu, 4, DW_OP_minus)"
        );
        // Version 3 stays as written.
        assert_eq!(expression_record(&[6, 0x22]), "!DIExpression(DW_OP_plus)");
        // A leading deref moves to the end, before the fragment.
        assert_eq!(
            expression_record(&[0, 0x06, 0x22, 8, 0x9d, 0, 32]),
            "!DIExpression(DW_OP_plus_uconst, 8, DW_OP_deref, DW_OP_LLVM_fragment, 0, 32)"
        );
    }

    #[test]
    fn llvm_3_records_are_read_by_their_layout() {
        // LOCAL_VAR of LLVM 3.x: [distinct, tag, scope, name, file, line, type, arg, flags].
        let old = [0, 0x101, 5, 6, 7, 8, 9, 1, 0];
        assert_eq!(local_var_tag_shift(&old), 1);
        assert_eq!(node_operands(LOCAL_VAR, &old), vec![5, 6, 7, 9, 0]);
        // LLVM 19: [distinct | has alignment, scope, name, file, line, type, arg, flags, align, annotations].
        let new = [2, 5, 6, 7, 8, 9, 1, 0, 0, 0];
        assert_eq!(local_var_tag_shift(&new), 0);
        assert_eq!(node_operands(LOCAL_VAR, &new), vec![5, 6, 7, 9, 0]);
        // SUBPROGRAM of LLVM 3.7 (19 operands, a function at 15, no unit):
        // file, scope, name, linkage name, type, unit, declaration,
        // variables, containing type, template params, thrown types.
        let sp: Vec<u64> = (0..19).map(|k| if k == 0 { 1 } else { 100 + k }).collect();
        assert_eq!(
            node_operands(SUBPROGRAM, &sp),
            vec![104, 101, 102, 103, 106, 0, 117, 118, 110, 116, 0]
        );
        // The function is a reference too (to the function's value metadata).
        assert!(ref_fields(SUBPROGRAM, &sp).contains(&15));
        assert!(distinct(SUBPROGRAM, &sp));
    }

    #[test]
    fn expressions_name_their_operations() {
        assert_eq!(expression(&[]), "!DIExpression()");
        assert_eq!(
            expression(&[0x23, 8, 0x9f]),
            "!DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value)"
        );
        assert_eq!(
            expression(&[0x1001, 32, 5]),
            "!DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed)"
        );
        assert_eq!(
            expression(&[0x1000, 0, 32]),
            "!DIExpression(DW_OP_LLVM_fragment, 0, 32)"
        );
        // An operation without its operands: the raw elements.
        assert_eq!(expression(&[0x23]), "!DIExpression(35)");
        assert_eq!(expression(&[0x7777, 1]), "!DIExpression(30583, 1)");
    }
}
