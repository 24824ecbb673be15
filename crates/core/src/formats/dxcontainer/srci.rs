//! SRCI: shader source information (`DxilSourceInfo` in DXC's `DxilContainer.h`, as
//! its `SourceInfoWriter` writes it; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`): source names, source contents (shown as one
//! run when compressed) and compiler arguments. `specs/dxcontainer.md` lists the part
//! but does not lay it out.

use super::names::pick;
use super::padding::{reserved, zero_padding};
use super::place::index_name;
use super::Context;
use crate::builder::{Builder, DResult, Field};
use crate::tree::Kind;

/// SRCI (`DxilSourceInfo`): sections of source names, source contents and
/// compiler arguments, each 4-byte aligned.
pub(super) fn srci(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let end = b.pos() + size;
    let aligned = b.u32("AlignedSizeInBytes")? as u64;
    if aligned != size {
        b.error(format!(
            "source info says it is {aligned} bytes, but the part holds {size} bytes"
        ));
    }
    reserved(b, "Flags", 2)?;
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("SectionCount", 2)?;
    b.array("Sections", |b| {
        let mut pos = b.pos();
        for i in 0..count {
            if pos + 8 > end {
                b.set_error(
                    count_id,
                    format!(
                        "{count} sections declared, but only {i} fit before the end of the part at 0x{end:X}"
                    ),
                );
                break;
            }
            let sz = b.peek_uint(pos, 4).unwrap_or(0);
            let len = if sz < 8 { end - pos } else { sz };
            b.region(index_name(i), Kind::Struct, pos, len, |b| {
                srci_section(b, sz)
            });
            if sz < 8 || pos + sz > end {
                break;
            }
            pos += sz;
        }
        Ok(())
    })?;
    let rest = end.saturating_sub(b.pos());
    if rest > 0 {
        zero_padding(b, "Padding", rest)?;
    }
    Ok(())
}

fn srci_section(b: &mut Builder, sz: u64) -> DResult<()> {
    b.u32("AlignedSizeInBytes")?;
    if sz < 8 {
        b.error(format!(
            "a section is at least its 8-byte header, found size {sz}; the rest of the part is not decoded"
        ));
        return Ok(());
    }
    if !sz.is_multiple_of(4) {
        b.error(format!("section size {sz} is not a multiple of 4"));
    }
    reserved(b, "Flags", 2)?;
    let ty = b.uint_enum("Type", 2, source_info_section_type)?;
    match ty {
        0 => source_contents(b)?,
        1 => source_names(b)?,
        2 => source_args(b)?,
        _ => {
            let r = b.remaining();
            if r > 0 {
                b.bytes("Data", r)?;
            }
        }
    }
    let r = b.remaining();
    zero_padding(b, "Padding", r)
}

fn source_names(b: &mut Builder) -> DResult<()> {
    reserved(b, "Flags", 4)?;
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("Count", 4)?;
    b.u16("EntriesSizeInBytes")?;
    b.array("Entries", |b| {
        for k in 0..count {
            if b.remaining() < 16 {
                b.set_error(
                    count_id,
                    format!("{count} names declared, but only {k} fit in the section"),
                );
                break;
            }
            let at = b.pos();
            let sz = b.peek_uint(at, 4).unwrap_or(0);
            let len = if sz < 16 { b.remaining() } else { sz };
            b.region(index_name(k), Kind::Struct, at, len, |b| {
                b.u32("AlignedSizeInBytes")?;
                if sz < 16 {
                    b.error(format!(
                        "an entry is at least its 16-byte header, found size {sz}"
                    ));
                    return Ok(());
                }
                reserved(b, "Flags", 4)?;
                let n = b.u32("NameSizeInBytes")? as u64;
                b.u32("ContentSizeInBytes")?;
                b.display("the content is in the SourceContents section");
                let r = b.remaining();
                if n > r {
                    b.error(format!(
                        "name of {n} bytes, but only {r} remain in the entry"
                    ));
                }
                b.fixed_str("Name", n.min(r))?;
                let r = b.remaining();
                zero_padding(b, "Padding", r)
            });
            if sz < 16 {
                break;
            }
        }
        Ok(())
    })
}

fn source_contents(b: &mut Builder) -> DResult<()> {
    b.u32("AlignedSizeInBytes")?;
    reserved(b, "Flags", 2)?;
    let compress = b.uint_enum("CompressType", 2, source_contents_compress_type)?;
    let Field {
        value: size,
        id: size_id,
    } = b.uint_field("EntriesSizeInBytes", 4)?;
    let raw = b.u32("UncompressedEntriesSizeInBytes")? as u64;
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("Count", 4)?;
    let r = b.remaining();
    if size > r {
        b.set_error(
            size_id,
            format!("{size} bytes of entries declared, but only {r} remain in the section"),
        );
    }
    let n = size.min(r);
    if compress != 0 {
        if n > 0 {
            b.bytes("Entries", n)?;
            b.display(format!(
                "{} compressed, {n} bytes ({raw} bytes uncompressed); not inflated",
                source_contents_compress_type(compress).unwrap_or("unknown")
            ));
        }
        return Ok(());
    }
    let start = b.pos();
    b.region("Entries", Kind::Array, start, n, |b| {
        for k in 0..count {
            if b.remaining() < 12 {
                b.set_error(
                    count_id,
                    format!("{count} contents declared, but only {k} fit in the entries"),
                );
                break;
            }
            let at = b.pos();
            let sz = b.peek_uint(at, 4).unwrap_or(0);
            let len = if sz < 12 { b.remaining() } else { sz };
            b.region(index_name(k), Kind::Struct, at, len, |b| {
                b.u32("AlignedSizeInBytes")?;
                if sz < 12 {
                    b.error(format!(
                        "an entry is at least its 12-byte header, found size {sz}"
                    ));
                    return Ok(());
                }
                reserved(b, "Flags", 4)?;
                let n = b.u32("ContentSizeInBytes")? as u64;
                let r = b.remaining();
                if n > r {
                    b.error(format!(
                        "content of {n} bytes, but only {r} remain in the entry"
                    ));
                }
                b.fixed_str("Content", n.min(r))?;
                let r = b.remaining();
                zero_padding(b, "Padding", r)
            });
            if sz < 12 {
                break;
            }
        }
        Ok(())
    });
    Ok(())
}

fn source_args(b: &mut Builder) -> DResult<()> {
    reserved(b, "Flags", 4)?;
    let Field {
        value: size,
        id: size_id,
    } = b.uint_field("SizeInBytes", 4)?;
    let Field {
        value: count,
        id: count_id,
    } = b.uint_field("Count", 4)?;
    let r = b.remaining();
    if size > r {
        b.set_error(
            size_id,
            format!("{size} bytes of arguments declared, but only {r} remain in the section"),
        );
    }
    let start = b.pos();
    b.region("Args", Kind::Array, start, size.min(r), |b| {
        for k in 0..count {
            if b.remaining() == 0 {
                b.set_error(
                    count_id,
                    format!("{count} arguments declared, but the argument bytes end after {k}"),
                );
                break;
            }
            b.item(k, |b| {
                b.cstr("Name")?;
                b.cstr("Value")?;
                Ok(())
            })?;
        }
        Ok(())
    });
    Ok(())
}

/// SRCI section type as current DXC writes it (`DxilSourceInfoSectionType`:
/// the older header's Sources/Defines/Args/TargetProfile/EntryPoint numbering
/// is not what DXC emits).
pub fn source_info_section_type(v: u64) -> Option<&'static str> {
    pick(&["SourceContents", "SourceNames", "Args"], v)
}

/// SRCI source contents compression (`DxilSourceInfo_SourceContentsCompressType`).
pub fn source_contents_compress_type(v: u64) -> Option<&'static str> {
    pick(&["None", "Zlib"], v)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_tree, container, fuzz, num, put, shown, text};

    /// An SRCI section of type `ty` around `body`, padded to 4 bytes.
    fn section(ty: u16, body: &[u8]) -> Vec<u8> {
        let size = (8 + body.len()).div_ceil(4) * 4;
        let mut v = Vec::new();
        put(&mut v, &[size as u32]);
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&ty.to_le_bytes());
        v.extend_from_slice(body);
        v.resize(size, 0);
        v
    }

    fn srci_part(compressed: bool) -> Vec<u8> {
        // SourceNames: header (10 bytes), one entry.
        let name = b"main.hlsl\0";
        let content = b"float4 main() : SV_Target { return 1; }\0";
        let entry_size = (16 + name.len()).div_ceil(4) * 4;
        let mut names = Vec::new();
        put(&mut names, &[0, 1]);
        names.extend_from_slice(&(entry_size as u16).to_le_bytes());
        put(
            &mut names,
            &[
                entry_size as u32,
                0,
                name.len() as u32,
                content.len() as u32,
            ],
        );
        names.extend_from_slice(name);
        names.resize(10 + entry_size, 0);
        // SourceContents: header (20 bytes), one entry or a compressed blob.
        let centry = (12 + content.len()).div_ceil(4) * 4;
        let mut contents = Vec::new();
        put(&mut contents, &[0]);
        contents.extend_from_slice(&0u16.to_le_bytes());
        contents.extend_from_slice(&(compressed as u16).to_le_bytes());
        if compressed {
            put(&mut contents, &[6, centry as u32, 1]);
            contents.extend_from_slice(&[0x78, 0x9C, 1, 2, 3, 4]);
        } else {
            put(&mut contents, &[centry as u32, centry as u32, 1]);
            put(&mut contents, &[centry as u32, 0, content.len() as u32]);
            contents.extend_from_slice(content);
            contents.resize(20 + centry, 0);
        }
        // Args.
        let pairs = b"T\0ps_6_0\0E\0main\0";
        let mut args = Vec::new();
        put(&mut args, &[0, pairs.len() as u32, 2]);
        args.extend_from_slice(pairs);
        let body: Vec<u8> = [section(1, &names), section(0, &contents), section(2, &args)].concat();
        let mut v = Vec::new();
        put(&mut v, &[(8 + body.len()) as u32]);
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&3u16.to_le_bytes());
        v.extend_from_slice(&body);
        v
    }

    #[test]
    fn decodes_srci_sections() {
        let file = container(&[(b"SRCI", &srci_part(false))]);
        let d = crate::decode_bytes(&file);
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let t = &d.tree;
        let s = "Parts/[0]/SourceInfo/Sections";
        assert_eq!(num(t, "Parts/[0]/SourceInfo/SectionCount"), 3);
        assert_eq!(shown(t, &format!("{s}/[0]/Type")), "SourceNames");
        assert_eq!(text(t, &format!("{s}/[0]/Entries/[0]/Name")), "main.hlsl");
        assert_eq!(
            num(t, &format!("{s}/[0]/Entries/[0]/ContentSizeInBytes")),
            40
        );
        assert_eq!(shown(t, &format!("{s}/[1]/Type")), "SourceContents");
        assert_eq!(
            text(t, &format!("{s}/[1]/Entries/[0]/Content")),
            "float4 main() : SV_Target { return 1; }"
        );
        assert_eq!(shown(t, &format!("{s}/[2]/Type")), "Args");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[0]/Name")), "T");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[0]/Value")), "ps_6_0");
        assert_eq!(text(t, &format!("{s}/[2]/Args/[1]/Value")), "main");
        fuzz(&file, 36, 400);
    }

    #[test]
    fn shows_compressed_srci_contents_as_a_run() {
        let d = crate::decode_bytes(&container(&[(b"SRCI", &srci_part(true))]));
        check_tree(&d.tree);
        assert!(d.is_clean(), "errors: {:?}", d.tree.errors());
        let e = shown(&d.tree, "Parts/[0]/SourceInfo/Sections/[1]/Entries");
        assert!(
            e.contains("Zlib compressed, 6 bytes") && e.contains("not inflated"),
            "{e}"
        );
    }
}
