//! Encoding primitives (spec "Encoding Primitives"): variable bit rate integers
//! (`uint_vbr`, `uint64_vbr`, `int64_vbr`), `string` and type slot numbers.
//!
//! A vbr keeps 7 bits per byte, least significant group first; bit 7 set means
//! another byte follows. Each vbr becomes one [`Kind::VarInt`] node spanning its
//! encoded bytes: `value` is the decoded number, `display` the encoded bytes in
//! hex. A vbr longer than 10 bytes, or one whose value needs more than 64 bits,
//! is an error node over its bytes and stops the enclosing region (nothing after
//! it can be trusted); a `uint_vbr` above 32 bits carries an error but decoding
//! goes on with the value.

use crate::builder::{hex_preview, Builder, DResult, Field, Stop};
use crate::tree::{Kind, Name, NodeId, Value};
use crate::varint;

/// Longest vbr: 10 bytes carry 70 bits, enough for any 64-bit value.
pub(crate) const MAX_VBR_BYTES: u64 = varint::MAX_LEN;

/// The type slot escape of revisions 3 and later: a type slot of `0x00FFFFFF`
/// or more is written as this value followed by the real slot in a second vbr
/// (LLVM 1.x's reader, `read_typeid`).
pub(crate) const TYPE_SLOT_ESCAPE: u64 = 0x00FF_FFFF;

// Kept: a LEB128 crate cannot span an over-long vbr's error (bench/RESULTS.md, "Library choices").
/// The bytes from `at` up to `limit` (read in chunks, as far as they are asked for).
fn bytes_from<'a>(b: &'a Builder<'_>, at: u64, limit: u64) -> impl Iterator<Item = u8> + 'a {
    let mut pos = at;
    std::iter::from_fn(move || {
        if pos >= limit {
            return None;
        }
        let chunk = b.peek_bytes(pos, (limit - pos).min(64));
        pos += chunk.len() as u64;
        (!chunk.is_empty()).then_some(chunk)
    })
    .flatten()
}

/// The vbr at `at`, measured to its final byte however long (not past `limit`).
fn scan(b: &Builder, at: u64, limit: u64) -> varint::Scanned {
    varint::scan(bytes_from(b, at, limit))
}

/// Peeks the vbr at `at` (ending before `limit`): its length and value, or `None`
/// if it is unterminated, too long or too large.
pub(crate) fn peek(b: &Builder, at: u64, limit: u64) -> Option<(u64, u64)> {
    let s = scan(b, at, limit);
    s.fits().map(|v| (s.len, v))
}

/// Hex of the encoded bytes (the first 10, then how many more).
fn encoded(b: &Builder, at: u64, len: u64) -> String {
    let shown = b.peek_bytes(at, len.min(MAX_VBR_BYTES));
    let mut s = hex_preview(&shown);
    if len > MAX_VBR_BYTES {
        s.push_str(&format!(" … ({len} bytes)"));
    }
    s
}

/// A node of kind `kind` from the cursor over exactly `len` bytes, with no children.
/// The caller has checked the bytes lie inside the current region.
pub(crate) fn span_node(
    b: &mut Builder,
    name: impl Into<Name>,
    kind: Kind,
    len: u64,
) -> DResult<NodeId> {
    let end = b.pos().saturating_add(len);
    let g = b.valued_group_field(name, kind, |b| {
        b.seek(end);
        Ok(())
    })?;
    Ok(g.id)
}

/// Reads the vbr at the cursor as a [`Kind::VarInt`] node: `what` names the
/// encoding for error messages. Returns the node and its value.
fn read(b: &mut Builder, name: Name, what: &str) -> DResult<(NodeId, u64)> {
    let at = b.pos();
    let limit = b.limit();
    let scanned = scan(b, at, limit);
    let (len, done) = (scanned.len, scanned.terminated);
    if !done {
        let id = span_node(b, name, Kind::VarInt, len)?;
        let msg = if len == 0 {
            format!(
                "expected {what} at 0x{at:X}, but the enclosing region ends there (at 0x{limit:X})"
            )
        } else {
            format!(
                "expected {what} at 0x{at:X}, found {len} byte(s) with bit 7 set (more to follow) and no final byte before the enclosing region ends at 0x{limit:X}"
            )
        };
        if len > 0 {
            b.set_display(id, encoded(b, at, len));
        }
        b.set_error(id, msg);
        return Err(Stop);
    }
    let id = span_node(b, name, Kind::VarInt, len)?;
    b.set_display(id, encoded(b, at, len));
    if len > MAX_VBR_BYTES {
        b.set_error(
            id,
            format!(
                "expected {what} of at most {MAX_VBR_BYTES} bytes at 0x{at:X}, found one {len} bytes long (it ends at 0x{:X})",
                at + len
            ),
        );
        return Err(Stop);
    }
    match (!scanned.overflow).then_some(scanned.value) {
        Some(v) => {
            b.set_value(id, Value::U(v));
            Ok((id, v))
        }
        None => {
            b.set_error(
                id,
                format!(
                    "expected {what} at 0x{at:X}, found a 10-byte value that overflows 64 bits"
                ),
            );
            Err(Stop)
        }
    }
}

/// Reads a `uint_vbr` (a 32-bit unsigned integer in 1 to 5 bytes). A value above
/// 32 bits is kept and flagged.
pub(crate) fn uint_vbr(b: &mut Builder, name: impl Into<Name>) -> DResult<u64> {
    uint_vbr_field(b, name).map(|f| f.value)
}

/// [`uint_vbr`], with the node it makes.
pub(crate) fn uint_vbr_field(b: &mut Builder, name: impl Into<Name>) -> DResult<Field<u64>> {
    let (id, v) = read(b, name.into(), "a uint_vbr")?;
    if v > u64::from(u32::MAX) {
        let at = b.tree().span(id).start_byte();
        b.set_error(
            id,
            format!("expected a 32-bit uint_vbr at 0x{at:X}, found the value {v}, which needs more than 32 bits"),
        );
    }
    Ok(Field { value: v, id })
}

/// Reads a `uint64_vbr` (a 64-bit unsigned integer in 1 to 10 bytes).
///
/// No layout the spec defines uses it (constants, where it appears, are "to be
/// determined"); kept and tested for when those are decoded.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn uint64_vbr(b: &mut Builder, name: impl Into<Name>) -> DResult<u64> {
    read(b, name.into(), "a uint64_vbr").map(|(_, v)| v)
}

/// Reads an `int64_vbr`: a `uint64_vbr` R holding the magnitude in bits 1–63 and
/// the sign in bit 0 (R = 1, "minus zero", stands for the most negative value).
/// The spec names the type without its sign rule; this one is LLVM 1.x's reader's
/// (`read_vbr_int64`). The node's value is the signed number.
///
/// Like [`uint64_vbr`], unused by the layouts the spec defines.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn int64_vbr(b: &mut Builder, name: impl Into<Name>) -> DResult<i64> {
    let (id, r) = read(b, name.into(), "an int64_vbr")?;
    let magnitude = (r >> 1) as i64;
    let v = match (r & 1, r) {
        (1, 1) => i64::MIN,
        (1, _) => -magnitude,
        _ => magnitude,
    };
    b.set_value(id, Value::I(v));
    Ok(v)
}

/// Reads a `string`: a `uint_vbr` length, then that many characters (no NUL). The
/// group's value is the text; its children are `Length` and `Characters`.
pub(crate) fn string(b: &mut Builder, name: impl Into<Name>) -> DResult<String> {
    let mut text = String::new();
    let g = b.valued_group_field(name, Kind::Str, |b| {
        let Field {
            value: len,
            id: len_id,
        } = uint_vbr_field(b, "Length")?;
        let room = b.remaining();
        if len > room {
            let at = b.pos();
            b.set_error(
                len_id,
                format!(
                    "expected {len} characters from 0x{at:X}, found only {room} before the enclosing region ends at 0x{:X}",
                    b.limit()
                ),
            );
            if room > 0 {
                b.bytes("Characters", room)?;
            }
            return Err(Stop);
        }
        if len > 0 {
            text = b.fixed_str("Characters", len)?;
        }
        Ok(())
    })?;
    b.set_value(g.id, Value::Str(text.clone()));
    Ok(text)
}

/// Reads a type slot number: a `uint_vbr`, where from revision 3 on (`escapes`)
/// the value `0x00FFFFFF` announces that the real slot follows in a second vbr.
/// An escaped slot is a group (`Escape`, `Slot`) whose value is the real slot.
pub(crate) fn type_slot(b: &mut Builder, name: impl Into<Name>, escapes: bool) -> DResult<u64> {
    let at = b.pos();
    let escaped = escapes && peek(b, at, b.limit()).map(|(_, v)| v) == Some(TYPE_SLOT_ESCAPE);
    if !escaped {
        return uint_vbr(b, name);
    }
    let mut slot = 0;
    let g = b.valued_group_field(name, Kind::VarInt, |b| {
        uint_vbr(b, "Escape")?;
        b.display("0x00FFFFFF: the type slot follows in a second uint_vbr");
        slot = uint_vbr(b, "Slot")?;
        Ok(())
    })?;
    b.set_value(g.id, Value::U(slot));
    Ok(slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;

    fn run<T>(data: &[u8], f: impl FnOnce(&mut Builder) -> DResult<T>) -> (DResult<T>, Tree) {
        let mut b = Builder::new(&data, "t");
        let r = f(&mut b);
        (r, b.finish())
    }

    #[test]
    fn a_uint_vbr_is_one_varint_node_over_its_bytes() {
        let (r, t) = run(&[0xAC, 0x02, 0x7F], |b| uint_vbr(b, "V"));
        assert_eq!(r, Ok(300));
        let n = t.node(t.find("V").unwrap());
        assert_eq!(n.kind, Kind::VarInt);
        assert_eq!((n.span.start_byte(), n.span.end_byte()), (0, 2));
        assert_eq!(n.value, Some(Value::U(300)));
        assert_eq!(n.display.as_deref(), Some("AC 02"));
        assert!(n.children.is_empty());
    }

    #[test]
    fn uint64_and_int64_vbrs_cover_the_whole_64_bit_range() {
        let max = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01];
        assert_eq!(run(&max, |b| uint64_vbr(b, "V")).0, Ok(u64::MAX));
        assert_eq!(run(&[0x07], |b| int64_vbr(b, "V")).0, Ok(-3));
        assert_eq!(run(&[0x06], |b| int64_vbr(b, "V")).0, Ok(3));
        let (r, t) = run(&[0x01], |b| int64_vbr(b, "V"));
        assert_eq!(r, Ok(i64::MIN));
        assert_eq!(t.value(t.find("V").unwrap()), Some(Value::I(i64::MIN)));
        // u64::MAX - 1 encodes the largest magnitude with a minus sign.
        let (r, _) = run(
            &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
            |b| int64_vbr(b, "V"),
        );
        assert_eq!(r, Ok(-(i64::MAX)));
    }

    #[test]
    fn an_eleven_byte_vbr_is_an_error_over_all_its_bytes() {
        let mut data = vec![0x80; 11];
        data.push(0x00);
        let (r, t) = run(&data, |b| uint_vbr(b, "V"));
        assert_eq!(r, Err(Stop));
        let n = t.node(t.find("V").unwrap());
        assert_eq!((n.span.start_byte(), n.span.end_byte()), (0, 12));
        assert!(n
            .error
            .as_deref()
            .unwrap()
            .contains("at most 10 bytes at 0x0, found one 12 bytes long"));
    }

    #[test]
    fn a_ten_byte_vbr_over_64_bits_and_a_uint_vbr_over_32_bits_are_errors() {
        let big = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02];
        let (r, t) = run(&big, |b| uint64_vbr(b, "V"));
        assert_eq!(r, Err(Stop));
        assert!(t.error(1).unwrap().contains("overflows 64 bits"));
        let (r, t) = run(&[0x80, 0x80, 0x80, 0x80, 0x10], |b| uint_vbr(b, "V"));
        assert_eq!(r, Ok(1 << 32));
        assert!(t.error(1).unwrap().contains("needs more than 32 bits"));
    }

    #[test]
    fn an_unterminated_vbr_stops_at_the_region_end() {
        let (r, t) = run(&[0x81, 0x82], |b| uint_vbr(b, "V"));
        assert_eq!(r, Err(Stop));
        let n = t.node(t.find("V").unwrap());
        assert_eq!((n.span.start_byte(), n.span.end_byte()), (0, 2));
        assert!(n
            .error
            .as_deref()
            .unwrap()
            .contains("found 2 byte(s) with bit 7 set"));
    }

    #[test]
    fn strings_and_escaped_type_slots_are_groups_with_their_value() {
        let (r, t) = run(b"\x04main", |b| string(b, "Name"));
        assert_eq!(r.as_deref(), Ok("main"));
        let n = t.node(t.find("Name").unwrap());
        assert_eq!(n.value, Some(Value::Str("main".into())));
        assert_eq!(t.value(t.find("Name/Length").unwrap()), Some(Value::U(4)));
        let (r, t) = run(b"\x09abc", |b| string(b, "Name"));
        assert_eq!(r, Err(Stop));
        assert!(t
            .error(t.find("Name/Length").unwrap())
            .unwrap()
            .contains("expected 9 characters from 0x1, found only 3"));
        let (r, t) = run(&[0xFF, 0xFF, 0xFF, 0x07, 0x80, 0x80, 0x80, 0x08], |b| {
            type_slot(b, "T", true)
        });
        assert_eq!(r, Ok(0x0100_0000));
        assert_eq!(t.value(t.find("T").unwrap()), Some(Value::U(0x0100_0000)));
        assert_eq!(
            t.value(t.find("T/Escape").unwrap()),
            Some(Value::U(TYPE_SLOT_ESCAPE))
        );
        // Before revision 3 the same bytes are a plain slot.
        let (r, _) = run(&[0xFF, 0xFF, 0xFF, 0x07], |b| type_slot(b, "T", false));
        assert_eq!(r, Ok(TYPE_SLOT_ESCAPE));
    }
}
