//! VERS: the compiler version DXC writes (`DxilCompilerVersion` in DXC's
//! `DxilContainer.h`, in the string-list form DXC 1.8 writes; layout notes §8,
//! `specs/notes/dxcontainer-layout.md`). `specs/dxcontainer.md` lists the part but does
//! not lay it out. It is tested in `rdat`'s tests, whose sample holds both parts.

use super::padding::{align4, zero_padding};
use super::Context;
use crate::builder::{Builder, DResult};
use crate::tree::Kind;

/// VERS (`DxilCompilerVersion` as DXC 1.8 writes it): version, flags, commit count,
/// then a list of two NUL-terminated strings (commit SHA, version string).
pub(super) fn vers(b: &mut Builder, size: u64, _ctx: &Context) -> DResult<()> {
    let base = b.pos();
    let major = b.u16("Major")?;
    let minor = b.u16("Minor")?;
    let root = b.current();
    b.set_display(root, format!("compiler {major}.{minor}"));
    b.uint_flags("VersionFlags", 4, VERSION_FLAGS)?;
    b.u32("CommitCount")?;
    let list = b.u32("VersionStringListSizeInBytes")? as u64;
    let expected = if list == 0 { 16 } else { align4(16 + list) };
    if expected != size {
        b.error(format!(
            "a {list}-byte string list after the 16-byte header, padded to 4 bytes, needs a {expected}-byte part, but the part holds {size} bytes"
        ));
    }
    let n = list.min(size.saturating_sub(16));
    if n > 0 {
        b.region("VersionStringList", Kind::Struct, base + 16, n, |b| {
            b.cstr("CommitSha")?;
            if b.remaining() > 0 {
                b.cstr("CustomVersionString")?;
            }
            let rest = b.remaining();
            if rest > 0 {
                b.bytes("Extra", rest)?;
                b.display("bytes after the two version strings");
            }
            Ok(())
        });
    }
    let rest = b.remaining();
    zero_padding(b, "Padding", rest)
}

/// Compiler version flags in VERS (`DxcVersionInfoFlags`).
pub const VERSION_FLAGS: &[(u64, &str)] = &[(0x1, "Debug"), (0x2, "Internal")];
