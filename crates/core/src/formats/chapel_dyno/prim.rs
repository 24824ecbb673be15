//! The `.dyno` building blocks (spec §"Building Block"): variable-byte integers,
//! length-prefixed strings, and the uAST strings that may point into the long
//! strings table.
//!
//! A variable-byte integer is 7 bits a byte, least-significant group first, bit 7
//! meaning "more follows"; Chapel's reader stops after 10 bytes (`readUnsignedVarint`).
//! Signed values are ZigZag-mapped first. Each one becomes a [`Kind::VarInt`] node
//! over its encoded bytes whose value is the decoded number and whose display shows
//! both.
//!
//! The section magics and the reads every section decoder shares (a checked
//! magic number, alignment padding, a derived note) are here too, so the
//! section decoders import building blocks from this module and nothing from
//! the format's root.

use crate::builder::{hex_preview, Builder, DResult, Endian, Field, Stop, MAX_STRING_VALUE};
use crate::tree::{BitSpan, Kind, Name, NodeId, Tree, Value, ValueRef};
use std::fmt::Write as _;

/// Longest encoding Chapel's reader accepts for a 64-bit value.
pub const MAX_VARINT_BYTES: u64 = varint::MAX_LEN;

pub use crate::varint::unzigzag;
use crate::varint::{self, zigzag};

/// The display of a varint that fits in 64 bits, rendered from its node: its
/// bytes (the only encoding of its value in that many bytes: 7 bits each, the
/// continuation bit on all but the last), then the value, `03 → 3` or
/// `05 → ZigZag 5 → -3`.
pub(super) fn varint_shown(t: &Tree, id: NodeId, out: &mut String) -> Option<()> {
    let n = t.span(id).len_bits() / 8;
    let (v, signed) = match t.value_ref(id)? {
        ValueRef::U(v) => (v, None),
        ValueRef::I(s) => (zigzag(s), Some(s)),
        _ => return None,
    };
    let bytes: Vec<u8> = (0..n)
        .map(|i| {
            let group = v.checked_shr(7 * i as u32).unwrap_or(0) & 0x7F;
            group as u8 | if i + 1 < n { 0x80 } else { 0 }
        })
        .collect();
    let enc = hex_preview(&bytes);
    match signed {
        Some(s) => write!(out, "{enc} → ZigZag {v} → {s}"),
        None => write!(out, "{enc} → {v}"),
    }
    .ok()
}

// Kept: crates reject overlong forms or drop overflowed values (bench/RESULTS.md, "Library choices").
/// Decodes a variable-byte integer from `bytes`: `(value, length, overflowed)`, or
/// `None` if no terminating byte comes within `bytes` (or within 10 bytes).
pub fn decode_varint(bytes: &[u8]) -> Option<(u64, u64, bool)> {
    let s = varint::scan(bytes.iter().copied().take(MAX_VARINT_BYTES as usize));
    s.terminated.then_some((s.value, s.len, s.overflow))
}

/// Reads a variable-byte integer at `offset` without creating a node; `None` if it is
/// unterminated before `end`.
pub fn peek_varint(b: &Builder, offset: u64, end: u64) -> Option<(u64, u64)> {
    let window = end.saturating_sub(offset).min(MAX_VARINT_BYTES);
    let bytes = b.peek_bytes(offset, window);
    decode_varint(&bytes).map(|(v, n, _)| (v, n))
}

/// Reads an unsigned variable-byte integer node. Errors (unterminated, more than 10
/// bytes) are recorded on the node and stop the enclosing region.
pub fn vuint(b: &mut Builder, name: impl Into<Name>) -> DResult<u64> {
    varint(b, name.into(), false).map(|f| f.value)
}

/// Reads a signed (ZigZag) variable-byte integer node; returns the signed value.
pub fn vint(b: &mut Builder, name: impl Into<Name>) -> DResult<i64> {
    varint(b, name.into(), true).map(|f| unzigzag(f.value))
}

/// Reads a variable-byte integer, signed or not, and returns the raw (unsigned,
/// un-ZigZagged) number with the node.
pub fn varint_of(b: &mut Builder, name: impl Into<Name>, signed: bool) -> DResult<Field<u64>> {
    varint(b, name.into(), signed)
}

fn varint(b: &mut Builder, name: Name, signed: bool) -> DResult<Field<u64>> {
    let start = b.pos();
    let limit = b.limit();
    let avail = limit.saturating_sub(start);
    let window = b.peek_bytes(start, avail.min(MAX_VARINT_BYTES));
    match decode_varint(&window) {
        Some((v, n, overflow)) => {
            let id = b
                .valued_group_field(name, Kind::VarInt, |b| {
                    b.seek(start + n);
                    Ok(())
                })?
                .id;
            if signed {
                b.set_value(id, Value::I(unzigzag(v)));
            } else {
                b.set_value(id, Value::U(v));
            }
            if overflow {
                // Its bytes are not the encoding of its value: show them as read.
                let enc = hex_preview(window.get(..n as usize).unwrap_or_default());
                let shown = if signed {
                    format!("{enc} → ZigZag {v} → {}", unzigzag(v))
                } else {
                    format!("{enc} → {v}")
                };
                b.set_display(id, shown);
                b.set_error(
                    id,
                    format!("variable-byte integer at 0x{start:X} ({enc}) does not fit in 64 bits"),
                );
            } else {
                b.set_display_with(id, varint_shown);
            }
            Ok(Field { value: v, id })
        }
        None => {
            let take = window.len() as u64;
            let id = b
                .valued_group_field(name, Kind::VarInt, |b| {
                    b.seek(start + take);
                    Ok(())
                })?
                .id;
            let msg = if take >= MAX_VARINT_BYTES {
                format!(
                    "variable-byte integer at 0x{start:X}: all of its first {MAX_VARINT_BYTES} bytes have the continuation bit (0x80) set, but at most {MAX_VARINT_BYTES} bytes encode a 64-bit value"
                )
            } else if take == 0 {
                format!(
                    "expected a variable-byte integer at 0x{start:X}, but the enclosing region ends at 0x{limit:X}"
                )
            } else {
                format!(
                    "expected a variable-byte integer at 0x{start:X}, found {take} byte(s) all with the continuation bit (0x80) set before the enclosing region ends at 0x{limit:X}"
                )
            };
            b.set_error(id, msg);
            Err(Stop)
        }
    }
}

/// "1 byte", "2 bytes".
pub fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Lossily decodes at most [`MAX_STRING_VALUE`] bytes of text at `offset`.
fn text_at(b: &Builder, offset: u64, len: u64) -> String {
    let bytes = b.peek_bytes(offset, len.min(MAX_STRING_VALUE as u64));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Reads a string stored as a variable-byte length and that many bytes (spec
/// "Storing a String", no long-strings table). The node's value is the text; its
/// children are the length and the bytes.
pub fn string(b: &mut Builder, name: impl Into<Name>) -> DResult<String> {
    let mut text = String::new();
    let Field { value: len, id } = b.valued_group_field(name, Kind::Str, |b| {
        let len = vuint(b, "Length")?;
        let at = b.pos();
        if len > 0 {
            b.bytes("Bytes", len)?;
        }
        text = text_at(b, at, len);
        Ok(len)
    })?;
    b.set_value(id, Value::Str(text.clone()));
    b.set_display(id, plural(len, "byte"));
    Ok(text)
}

/// Index → absolute byte span of every usable long string (index 0 and the last
/// index have none), found by scanning the long strings table before the uAST is
/// decoded.
#[derive(Default, Clone, Debug)]
pub struct LongStrings {
    /// Number of offsets the table header claims (two more than the usable strings).
    pub count: u64,
    /// `spans[i]` is string `i`'s bytes, if its offsets are sound.
    pub spans: Vec<Option<(u64, u64)>>,
    /// True if the module has a long strings table at all.
    pub present: bool,
    /// The table's string data, read once (so strings are not read back and
    /// forth from the file), and where it starts.
    pub data: std::sync::Arc<Vec<u8>>,
    pub data_at: u64,
}

impl LongStrings {
    /// The text of the bytes `[s, e)` if they are in the string data held.
    pub fn text(&self, s: u64, e: u64) -> Option<String> {
        let from = usize::try_from(s.checked_sub(self.data_at)?).ok()?;
        let to = usize::try_from(e.checked_sub(self.data_at)?).ok()?;
        let bytes = self.data.get(from..to)?;
        let bytes = &bytes[..bytes.len().min(MAX_STRING_VALUE)];
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The bytes of long string `idx`, or why it cannot be used.
    pub fn lookup(&self, idx: u64) -> Result<(u64, u64), String> {
        if !self.present {
            return Err(format!(
                "long string #{idx} is referenced, but the module has no long strings table"
            ));
        }
        if idx == 0 || idx + 1 >= self.count {
            return Err(format!(
                "long string index {idx} is outside the usable range 1..{} of a table with {} offsets",
                self.count.saturating_sub(2),
                self.count
            ));
        }
        match self.spans.get(idx as usize).copied().flatten() {
            Some(s) => Ok(s),
            None => Err(format!(
                "long string #{idx} has offsets outside its table (or beyond what the table holds)"
            )),
        }
    }
}

/// Reads a uAST string (`UniqueString::serialize`): a first byte without the high
/// bit is a length (< 128) followed by that many bytes; with the high bit, it and 3
/// more bytes are a big-endian index (high bit cleared) into the long strings table.
/// Returns the text (empty if the index does not resolve, which is an error on the
/// node).
pub fn ustring(b: &mut Builder, name: impl Into<Name>, strings: &LongStrings) -> DResult<String> {
    let first = b.peek_bytes(b.pos(), 1).first().copied();
    let mut out: (String, Option<BitSpan>, Option<String>, String) =
        (String::new(), None, None, String::new());
    let id = b
        .valued_group_field(name, Kind::Str, |b| {
            match first {
                Some(x) if x & 0x80 != 0 => {
                    let saved = b.endian();
                    b.set_endian(Endian::Big);
                    let raw = b.uint_field("LongStringIndex", 4);
                    b.set_endian(saved);
                    let Field { value: raw, id } = raw?;
                    let idx = raw & 0x7FFF_FFFF;
                    b.set_value(id, Value::U(idx));
                    b.set_display(
                        id,
                        format!(
                        "{:08X} → long string #{idx} (high bit marks an index; always big-endian)",
                        raw
                    ),
                    );
                    match strings.lookup(idx) {
                        Ok((s, e)) => {
                            out.0 = strings.text(s, e).unwrap_or_else(|| text_at(b, s, e - s));
                            out.1 = Some(BitSpan::bytes(s, e));
                            out.3 =
                                format!("long string #{idx} at 0x{s:X}, {}", plural(e - s, "byte"));
                        }
                        Err(msg) => {
                            out.2 = Some(msg);
                            out.3 = format!("long string #{idx}: does not resolve");
                        }
                    }
                }
                _ => {
                    let len = b.u8("Length")? as u64;
                    let at = b.pos();
                    if len > 0 {
                        b.bytes("Bytes", len)?;
                    }
                    out.0 = text_at(b, at, len);
                    out.3 = format!("inline, {}", plural(len, "byte"));
                }
            }
            Ok(())
        })?
        .id;
    b.set_value(id, Value::Str(out.0.clone()));
    b.set_display(id, out.3);
    if let Some(span) = out.1 {
        b.set_reference(id, span);
    }
    if let Some(msg) = out.2 {
        b.set_error(id, msg);
    }
    Ok(out.0)
}

// Section magics and the helpers every section decoder shares.

/// `MODULE_SECTION_MAGIC`.
pub const MODULE_MAGIC: u64 = 0x4D4D_D01E_5EC1_4D4D;
/// `SYMBOL_TABLE_MAGIC`.
pub const SYMBOL_TABLE_MAGIC: u64 = 0x4D59_531E_5EC1_10E0;
/// `UAST_SECTION_MAGIC`.
pub const UAST_MAGIC: u64 = 0x5453_411E_5EC1_10E0;
/// `LONG_STRINGS_TABLE_MAGIC` (4 bytes).
pub const LONG_STRINGS_MAGIC: u64 = 0x5254_5301;
/// `LOCATION_SECTION_MAGIC`.
pub const LOCATION_MAGIC: u64 = 0x434F_4C07_5EC1_10E0;
/// `GEN_CODE_SECTION_MAGIC`.
pub const GEN_CODE_MAGIC: u64 = 0x4E45_4707_5EC1_10E0;

/// Reads a `u64` in the byte order in force without creating a node.
pub(super) fn peek_u64(b: &Builder, offset: u64) -> Option<u64> {
    b.peek_uint(offset, 8)
}

/// Reads a magic number of `size` bytes, shows its bytes and what it should be, and
/// records an error if it is not `expected`. Returns whether it matched.
pub(super) fn magic(b: &mut Builder, size: u64, expected: u64, what: &str) -> DResult<bool> {
    let at = b.pos();
    let v = b.uint("Magic", size)?;
    let shown = hex_preview(&b.peek_bytes(at, size));
    if v == expected {
        b.display(format!(
            "0x{v:0w$X}, bytes {shown}: {what}",
            w = 2 * size as usize
        ));
        Ok(true)
    } else {
        b.display(format!("bytes {shown}"));
        b.error(format!(
            "expected the {what} magic 0x{expected:0w$X}, found 0x{v:0w$X}",
            w = 2 * size as usize
        ));
        Ok(false)
    }
}

/// Adds a derived text node that no particular bytes give (no reference).
pub(super) fn note(b: &mut Builder, name: &'static str, value: &str, display: &str) -> DResult<()> {
    let id = b.derived_group_field(name, None, |_| Ok(()))?.id;
    b.set_value(id, Value::Str(value.into()));
    b.set_display(id, display.to_string());
    Ok(())
}

/// Claims `[from, to)` as alignment padding if it is shorter than `align`, ends on
/// an `align` boundary and holds only zeros; otherwise leaves it unclaimed.
pub(super) fn pad(b: &mut Builder, from: u64, to: u64, align: u64, why: &str) {
    if to <= from || to - from >= align || !to.is_multiple_of(align) {
        return;
    }
    if b.peek_bytes(from, to - from).iter().any(|&x| x != 0) {
        return;
    }
    b.seek(from);
    if b.padding("Padding", to - from).is_ok() {
        let article = if align == 8 { "an" } else { "a" };
        b.display(format!(
            "zero bytes {why}, to {article} {align}-byte boundary"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_follow_the_spec_examples() {
        // 0b110110 fits in 7 bits.
        assert_eq!(decode_varint(&[0b0011_0110]), Some((0b110110, 1, false)));
        // 0b1010111011 → 0b10111011 0b00000101.
        assert_eq!(
            decode_varint(&[0b1011_1011, 0b0000_0101]),
            Some((0b10_1011_1011, 2, false))
        );
        assert_eq!(decode_varint(&[0x80, 0x80]), None);
        assert_eq!(decode_varint(&[0xFF; 12]), None);
        let max = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01];
        assert_eq!(decode_varint(&max), Some((u64::MAX, 10, false)));
        let over = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03];
        assert!(decode_varint(&over).unwrap().2);
    }

    #[test]
    fn zigzag_maps_small_magnitudes_to_small_codes() {
        assert_eq!(unzigzag(0), 0);
        assert_eq!(unzigzag(1), -1);
        assert_eq!(unzigzag(2), 1);
        assert_eq!(unzigzag(3), -2);
        assert_eq!(unzigzag(u64::MAX), i64::MIN);
        for v in [0, 1, 2, 3, 1000, u64::MAX - 1, u64::MAX] {
            assert_eq!(zigzag(unzigzag(v)), v);
        }
    }

    #[test]
    fn longer_than_needed_and_ten_byte_varints_show_the_bytes_they_span() {
        let mut data = vec![0x80, 0x80, 0x00, 0xFE, 0x80, 0x00];
        data.extend([0xFF; 9]);
        data.push(0x01);
        let data = data.as_slice();
        let mut b = Builder::new(&data, "t");
        assert_eq!(vuint(&mut b, "zero").unwrap(), 0);
        assert_eq!(vint(&mut b, "s").unwrap(), 63);
        assert_eq!(vuint(&mut b, "max").unwrap(), u64::MAX);
        let t = b.finish();
        let shown = |p: &str| t.display(t.find(p).unwrap()).unwrap().into_owned();
        assert_eq!(shown("zero"), "80 80 00 → 0");
        assert_eq!(shown("s"), "FE 80 00 → ZigZag 126 → 63");
        assert_eq!(
            shown("max"),
            "FF FF FF FF FF FF FF FF FF 01 → 18446744073709551615"
        );
    }

    #[test]
    fn a_varint_node_spans_its_encoded_bytes_and_shows_both_forms() {
        let data: &[u8] = &[0xBB, 0x05, 0x03, 0x80];
        let mut b = Builder::new(&data, "t");
        assert_eq!(vuint(&mut b, "a").unwrap(), 699);
        assert_eq!(vint(&mut b, "s").unwrap(), -2);
        assert_eq!(vuint(&mut b, "cut"), Err(Stop));
        let t = b.finish();
        let a = t.node(t.find("a").unwrap());
        assert_eq!(a.kind, Kind::VarInt);
        assert_eq!((a.span.start_byte(), a.span.end_byte()), (0, 2));
        assert_eq!(a.display.as_deref(), Some("BB 05 → 699"));
        let s = t.node(t.find("s").unwrap());
        assert_eq!(s.value, Some(Value::I(-2)));
        assert_eq!(s.display.as_deref(), Some("03 → ZigZag 3 → -2"));
        let cut = t.node(t.find("cut").unwrap());
        assert!(cut.error.as_deref().unwrap().contains("continuation bit"));
        assert_eq!((cut.span.start_byte(), cut.span.end_byte()), (3, 4));
    }
}
