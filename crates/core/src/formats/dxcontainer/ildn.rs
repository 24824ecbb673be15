//! ILDN: the shader debug name DXC writes when debug information goes to an
//! external PDB (`DxilShaderDebugName` in DXC's `DxilContainer.h`; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`). `specs/dxcontainer.md` lists the part but does
//! not lay it out.

use super::padding::{align4, reserved, zero_padding};
use super::Context;
use crate::builder::{Builder, DResult, Field};

/// ILDN (`DxilShaderDebugName`): flags, name length, name, NUL, zero padding to 4.
pub(super) fn ildn(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    reserved(b, "Flags", 2)?;
    let Field {
        value: len,
        id: len_id,
    } = b.uint_field("NameLength", 2)?;
    let expected = align4(4 + len + 1);
    if expected != size {
        b.set_error(
            len_id,
            format!(
                "a {len}-byte name plus its NUL, padded to 4 bytes, needs a {expected}-byte part, but the part holds {size} bytes"
            ),
        );
    }
    let room = size.saturating_sub(4);
    b.fixed_str("Name", len.min(room))?;
    if len >= room {
        return Ok(());
    }
    let t = b.u8("Terminator")?;
    if t != 0 {
        b.error(format!(
            "expected the name's NUL terminator, found 0x{t:02X}"
        ));
    }
    let rest = b.remaining();
    zero_padding(b, "Padding", rest)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_tree, container, error, fuzz, node, num, text};

    fn ildn_part(name: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&(name.len() as u16).to_le_bytes());
        v.extend_from_slice(name);
        v.push(0);
        while v.len() % 4 != 0 {
            v.push(0);
        }
        v
    }

    #[test]
    fn decodes_ildn_debug_name() {
        let part = ildn_part(b"0123456789abcdef.pdb");
        let file = container(&[(b"ILDN", &part)]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let p = "Parts/[0]/DebugName";
        assert_eq!(num(&d.tree, &format!("{p}/NameLength")), 20);
        assert_eq!(text(&d.tree, &format!("{p}/Name")), "0123456789abcdef.pdb");
        assert_eq!(node(&d.tree, &format!("{p}/Padding")).span.len_bits(), 24);
        fuzz(&file, 36, 300);
    }

    #[test]
    fn reports_an_ildn_name_length_that_does_not_match_the_part() {
        let mut part = ildn_part(b"abc");
        part[2] = 9; // NameLength 9, but the part is 8 bytes
        let d = crate::decode_bytes(&container(&[(b"ILDN", &part)]));
        check_tree(&d.tree);
        let e = error(&d.tree, "Parts/[0]/DebugName/NameLength");
        assert!(
            e.contains("needs a 16-byte part") && e.contains("holds 8 bytes"),
            "{e}"
        );
    }
}
