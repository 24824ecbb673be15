//! The block IDs the bitstream readers look for, from LLVM's `LLVMBitCodes.h`
//! (`llvm/Bitcode/LLVMBitCodes.h`, enum `BlockIDs`), named as `llvm-bcanalyzer`
//! prints them: without the `_ID` suffix (`MODULE_BLOCK_ID` → `MODULE_BLOCK`,
//! `TYPE_BLOCK_ID_NEW` → `TYPE_BLOCK_NEW`). The names of every block and record
//! are the decoder's ([`super::decode`]).

/// The BLOCKINFO block's ID.
pub const BLOCKINFO_BLOCK: u64 = 0;
/// `MODULE_BLOCK_ID`.
pub const MODULE_BLOCK: u64 = 8;
/// `CONSTANTS_BLOCK_ID`.
pub const CONSTANTS_BLOCK: u64 = 11;
/// `FUNCTION_BLOCK_ID`.
pub const FUNCTION_BLOCK: u64 = 12;
/// `VALUE_SYMTAB_BLOCK_ID`.
pub const VALUE_SYMTAB_BLOCK: u64 = 14;
/// `METADATA_BLOCK_ID`.
pub const METADATA_BLOCK: u64 = 15;
/// `TYPE_BLOCK_ID_NEW`.
pub const TYPE_BLOCK_NEW: u64 = 17;
/// `STRTAB_BLOCK_ID`.
pub const STRTAB_BLOCK: u64 = 23;
