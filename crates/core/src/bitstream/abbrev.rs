//! Abbreviations and the BLOCKINFO state (LLVM "Bitstream Format": Abbreviations,
//! Standard Blocks / BLOCKINFO).
//!
//! An abbreviation is a list of operand encodings (`literal`, `fixed(N)`, `vbr(N)`,
//! `array`, `char6`, `blob`) that a record with that abbreviation ID follows. Each
//! operand remembers where it was defined, so a literal value, which takes no bits
//! in the record, can point back at its definition.

use crate::sorted::VecMap;
use crate::tree::BitSpan;
use std::sync::Arc;

/// Widest fixed field this reader accepts (LLVM itself stops at 32).
pub const MAX_FIXED_WIDTH: u64 = 64;
/// Widest VBR chunk (LLVM's `MaxChunkSize`).
pub const MAX_VBR_WIDTH: u64 = 32;

/// How one operand of an abbreviated record is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// A constant: the operand takes no bits.
    Literal(u64),
    /// A fixed-width field of `N` bits.
    Fixed(u64),
    /// A variable-width field of `N`-bit chunks.
    Vbr(u64),
    /// A `vbr6` count, then that many elements encoded as the next (last) operand.
    Array,
    /// A 6-bit character from `[a-zA-Z0-9._]`.
    Char6,
    /// A `vbr6` byte count, 32-bit alignment, the bytes, 32-bit alignment.
    Blob,
}

impl Encoding {
    /// Short human text: `literal 7`, `fixed(8)`, `vbr(6)`, `array`, `char6`, `blob`.
    pub fn describe(&self) -> String {
        match self {
            Encoding::Literal(v) => format!("literal {v}"),
            Encoding::Fixed(w) => format!("fixed({w})"),
            Encoding::Vbr(w) => format!("vbr({w})"),
            Encoding::Array => "array".into(),
            Encoding::Char6 => "char6".into(),
            Encoding::Blob => "blob".into(),
        }
    }

    /// True for encodings that read bits of their own and can be array elements.
    pub fn is_scalar_field(&self) -> bool {
        matches!(
            self,
            Encoding::Fixed(_) | Encoding::Vbr(_) | Encoding::Char6
        )
    }

    /// The fewest bits one value in this encoding takes.
    pub fn min_bits(&self) -> u64 {
        match *self {
            Encoding::Literal(_) => 0,
            Encoding::Fixed(w) | Encoding::Vbr(w) => w,
            Encoding::Char6 => 6,
            Encoding::Array | Encoding::Blob => 6,
        }
    }
}

/// One operand of an abbreviation and where it was defined.
#[derive(Clone, Copy, Debug)]
pub struct AbbrevOp {
    /// The encoding.
    pub enc: Encoding,
    /// The bits of its definition (inside a `DEFINE_ABBREV`).
    pub def: BitSpan,
}

/// An abbreviation: operand 0 gives the record code, the rest its operands.
#[derive(Clone, Debug)]
pub struct Abbrev {
    /// The operands in order.
    pub ops: Vec<AbbrevOp>,
    /// The `DEFINE_ABBREV` that defined it.
    pub def: BitSpan,
    /// Why a record cannot use it, if its definition is malformed.
    pub problem: Option<String>,
}

impl Abbrev {
    /// Checks the rules LLVM's reader applies when a record uses an abbreviation:
    /// at least one operand, no array or blob as the record code, an array only as
    /// the second-to-last operand and followed by a scalar element encoding.
    pub fn validate(ops: &[AbbrevOp]) -> Option<String> {
        let first = ops.first()?;
        if matches!(first.enc, Encoding::Array | Encoding::Blob) {
            return Some(format!(
                "the record code cannot be {} (it must be a literal or a scalar field)",
                if first.enc == Encoding::Array {
                    "an array"
                } else {
                    "a blob"
                }
            ));
        }
        for (i, op) in ops.iter().enumerate() {
            if op.enc != Encoding::Array {
                continue;
            }
            if i + 2 != ops.len() {
                return Some(format!(
                    "operand {i} is an array, which must be the second-to-last operand (the last gives its element encoding)"
                ));
            }
            let elt = ops[i + 1].enc;
            if !elt.is_scalar_field() {
                return Some(format!(
                    "the array's element encoding is {}; it must be fixed, vbr or char6",
                    elt.describe()
                ));
            }
        }
        None
    }

    /// Text like `[literal 19, array of char6]`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let mut i = 0;
        while i < self.ops.len() {
            let e = self.ops[i].enc;
            if e == Encoding::Array {
                match self.ops.get(i + 1) {
                    Some(n) => parts.push(format!("array of {}", n.enc.describe())),
                    None => parts.push("array of ?".into()),
                }
                i += 2;
            } else {
                parts.push(e.describe());
                i += 1;
            }
        }
        format!("[{}]", parts.join(", "))
    }
}

/// What BLOCKINFO blocks registered: abbreviations for other blocks and names
/// given by `BLOCKNAME` / `SETRECORDNAME`.
#[derive(Clone, Debug, Default)]
pub struct BlockInfo {
    abbrevs: VecMap<u64, Vec<Arc<Abbrev>>>,
    block_names: VecMap<u64, String>,
    record_names: VecMap<(u64, u64), String>,
}

impl BlockInfo {
    /// The abbreviations registered for `block` (IDs 4, 5, … in a block of that ID).
    pub fn abbrevs(&self, block: u64) -> &[Arc<Abbrev>] {
        self.abbrevs.get(&block).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Registers an abbreviation for `block`; returns the ID it will have there.
    pub fn add_abbrev(&mut self, block: u64, a: Arc<Abbrev>) -> u64 {
        let list = self.abbrevs.get_or_insert_with(block, Vec::new);
        list.push(a);
        3 + list.len() as u64
    }

    /// Records a `BLOCKNAME`.
    pub fn set_block_name(&mut self, block: u64, name: String) {
        self.block_names.insert(block, name);
    }

    /// Records a `SETRECORDNAME`.
    pub fn set_record_name(&mut self, block: u64, code: u64, name: String) {
        self.record_names.insert((block, code), name);
    }

    /// The name a BLOCKINFO block gave `block`, if any.
    pub fn block_name(&self, block: u64) -> Option<&str> {
        self.block_names.get(&block).map(String::as_str)
    }

    /// The name a BLOCKINFO block gave record `code` of `block`, if any.
    pub fn record_name(&self, block: u64, code: u64) -> Option<&str> {
        self.record_names.get(&(block, code)).map(String::as_str)
    }
}

/// Decodes a char6 value: `a`–`z`, `A`–`Z`, `0`–`9`, `.`, `_`.
pub fn char6(v: u64) -> u8 {
    match v & 63 {
        x @ 0..=25 => b'a' + x as u8,
        x @ 26..=51 => b'A' + (x - 26) as u8,
        x @ 52..=61 => b'0' + (x - 52) as u8,
        62 => b'.',
        _ => b'_',
    }
}
