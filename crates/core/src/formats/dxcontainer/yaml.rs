//! The DirectX Container as the YAML document LLVM 19's `obj2yaml` writes
//! (`hexlens dump FILE --yaml`), which `yaml2obj` turns back into a container.
//!
//! The document is written from the decoded tree, whose node names are
//! obj2yaml's keys: `--- !dxcontainer`, `Header` (Hash, Version, FileSize,
//! PartCount, PartOffsets), then `Parts`, each with `Name` and `Size` and, for
//! the parts LLVM 19 reads, one mapping: `Program` (DXIL), `Flags` (SFI0, when
//! a flag is set), `Hash` (HASH, when the part holds a flag or a digest),
//! `PSVInfo` (PSV0) and `Signature` (ISG1, OSG1, PSG1). Every other part (SHEX,
//! ISGN, RDAT, RTS0, STAT, …) has only its name and size, as in obj2yaml 19.
//! Keys come in obj2yaml's order and values in its forms: decimal integers,
//! `0x`-prefixed upper-case hex for byte lists, dependency masks and
//! `DynamicMask`, `true`/`false` for flags, enum names for signature fields,
//! and flow lists (`[ 1, 2 ]`) wrapped after column 70 as LLVM's YAML writer
//! wraps them, so for the files obj2yaml reads the text is obj2yaml's, line
//! for line.
//!
//! Two LLVM 19 names differ from hexlens's: SFI0 bit 31, which LLVM 19 calls
//! `NextUnusedBit` (DirectX later named it `SampleCmpWithGradientOrBias`), and
//! bit 32 (`ExtendedCommandInfo`), which LLVM 19 has no key for and so is not
//! written.
//!
//! The emitter is written here rather than taken from a crate: the document is
//! small and fixed in shape, the core must stay small and build for wasm32, and
//! the one widely used Rust YAML serialiser (serde_yaml) is deprecated and lays
//! out flow lists and key padding differently from LLVM, so its text would not
//! be obj2yaml's.

use super::names;
use crate::source::ByteSource;
use crate::tree::{NameRef, NodeId, Tree, ValueRef};
use crate::Decoded;
use std::fmt;

/// LLVM's YAML writer starts a new line in a flow list once a line is longer
/// than this.
const WRAP_COLUMN: usize = 70;

/// A mapping key's value starts this many columns after the key, unless the
/// key is at least this long (then one space follows the colon).
const KEY_WIDTH: usize = 16;

/// PSV shader stages whose stage-specific fields obj2yaml writes.
use super::psv::{
    STAGE_AMPLIFICATION, STAGE_DOMAIN, STAGE_GEOMETRY, STAGE_HULL, STAGE_MESH, STAGE_PIXEL,
    STAGE_VERTEX,
};

/// The YAML of one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Yaml {
    /// The document, ending with `...` and a newline.
    pub text: String,
    /// One line for each part mapping left out of the document because the
    /// tree does not hold a value it needs (a damaged part), saying which.
    /// Empty for a container that decodes cleanly.
    pub left_out: Vec<String>,
    /// The container decoded with no error (a file with errors may still
    /// have every mapping written, from values that decoded).
    pub clean: bool,
}

/// Why no YAML could be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlError {
    /// The file is not a DirectX Container (the format it decoded as).
    NotDxContainer(&'static str),
    /// The container header lacks a value the document cannot do without.
    Damaged(String),
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YamlError::NotDxContainer(format) => write!(
                f,
                "YAML output is for DirectX Containers only; this file decodes as '{format}'"
            ),
            YamlError::Damaged(why) => write!(f, "no YAML: {why}"),
        }
    }
}

impl std::error::Error for YamlError {}

/// Decodes `src` and writes its YAML (see [`to_yaml`]). The DXIL part's
/// bitcode is copied as bytes, so its blocks are left undecoded.
///
/// Errors if `src` is not a DirectX Container or its header is unreadable.
pub fn dump(src: &dyn ByteSource) -> Result<Yaml, YamlError> {
    let opts = crate::Options {
        lazy_threshold: Some(0),
        ..Default::default()
    };
    to_yaml(&crate::decode_with(src, &opts), src)
}

/// Writes the YAML document of `d`, a DirectX Container decoded from `src`
/// (byte lists are read from `src`). The tree may leave bitcode blocks lazy,
/// but not part bodies (decode without a page size).
///
/// Errors if `d` is not a DirectX Container, or its header lacks the hash,
/// version or part count. A part whose mapping needs a value the tree lacks
/// is written with its name and size only and listed in [`Yaml::left_out`].
pub fn to_yaml(d: &Decoded, src: &dyn ByteSource) -> Result<Yaml, YamlError> {
    if d.format != super::FORMAT.name {
        return Err(YamlError::NotDxContainer(d.format));
    }
    let r = Reader { tree: &d.tree, src };
    let mut w = Writer::default();
    w.out.push_str("--- !dxcontainer\n");
    r.header(&mut w).map_err(YamlError::Damaged)?;
    let mut left_out = Vec::new();
    let parts = r
        .child(r.tree.root(), "Parts")
        .map(|p| r.indexed(p))
        .unwrap_or_default();
    w.key(0, "Parts");
    let mut written = 0;
    for (i, &part) in parts.iter().enumerate() {
        let (Ok(name), Ok(size)) = (r.str_at(part, "Name"), r.uint_at(part, "Size")) else {
            left_out.push(format!(
                "Parts/[{i}]: the part has no name or size (it lies outside the file)"
            ));
            continue;
        };
        written += 1;
        w.item();
        w.key(4, "Name");
        w.string(&name);
        w.key(4, "Size");
        w.uint(size);
        let mut body = Writer::default();
        let mapping = match name.as_str() {
            "DXIL" => r.program(&mut body, part),
            "SFI0" => r.flags(&mut body, part),
            "HASH" => r.hash(&mut body, part),
            "PSV0" => r.psv(&mut body, part, &parts),
            "ISG1" | "OSG1" | "PSG1" => r.signature(&mut body, part),
            _ => Ok(()),
        };
        match mapping {
            Ok(()) => w.out.push_str(&body.out),
            Err(why) => left_out.push(format!(
                "Parts/[{i}] ({name}): its mapping is left out: {why}"
            )),
        }
    }
    if written == 0 {
        w.empty_block_list();
    }
    w.out.push_str("...\n");
    Ok(Yaml {
        text: w.out,
        left_out,
        clean: d.is_clean(),
    })
}

/// Reads values out of the tree; each error names the path that lacks one.
struct Reader<'a> {
    tree: &'a Tree,
    src: &'a dyn ByteSource,
}

type R<T> = Result<T, String>;

impl Reader<'_> {
    fn child(&self, id: NodeId, name: &str) -> Option<NodeId> {
        self.tree.child_named(id, name)
    }

    fn need(&self, id: NodeId, name: &str) -> R<NodeId> {
        self.child(id, name)
            .ok_or_else(|| format!("no {}", self.path(id, name)))
    }

    fn path(&self, id: NodeId, name: &str) -> String {
        let p = self.tree.path(id);
        if p.is_empty() {
            name.to_string()
        } else {
            format!("{p}/{name}")
        }
    }

    /// The `[0]`, `[1]`, … children of `id`, in order.
    fn indexed(&self, id: NodeId) -> Vec<NodeId> {
        self.tree
            .children_flat(id)
            .into_iter()
            .filter(|&c| matches!(self.tree.name(c), NameRef::Index(_)))
            .collect()
    }

    fn uint(&self, id: NodeId) -> R<u64> {
        self.tree
            .value_ref(id)
            .and_then(|v| v.as_u64())
            .ok_or_else(|| format!("{} has no integer value", self.tree.path(id)))
    }

    fn uint_at(&self, id: NodeId, name: &str) -> R<u64> {
        self.uint(self.need(id, name)?)
    }

    fn bool_at(&self, id: NodeId, name: &str) -> R<bool> {
        let c = self.need(id, name)?;
        match self.tree.value_ref(c) {
            Some(ValueRef::Bool(b)) => Ok(b),
            _ => Err(format!("{} has no true/false value", self.tree.path(c))),
        }
    }

    fn str_at(&self, id: NodeId, name: &str) -> R<String> {
        let c = self.need(id, name)?;
        match self.tree.value_ref(c) {
            Some(ValueRef::Str(s)) => Ok(s.to_string()),
            _ => Err(format!("{} has no text value", self.tree.path(c))),
        }
    }

    /// The integer values of the `[i]` children of `id`'s child `name`.
    fn uints_at(&self, id: NodeId, name: &str) -> R<Vec<u64>> {
        let list = self.need(id, name)?;
        self.indexed(list)
            .into_iter()
            .map(|c| self.uint(c))
            .collect()
    }

    /// The bytes of node `id`'s span, read from the file.
    fn bytes(&self, id: NodeId) -> R<Vec<u8>> {
        let span = self.tree.span(id);
        let len = usize::try_from(span.end_byte() - span.start_byte())
            .map_err(|_| format!("{} is too big to list", self.tree.path(id)))?;
        let mut buf = vec![0u8; len];
        if self.src.read_at(span.start_byte(), &mut buf) != len {
            return Err(format!(
                "{} lies past the end of the file",
                self.tree.path(id)
            ));
        }
        Ok(buf)
    }

    /// An enum field: its value's name in `table`.
    fn enum_at(
        &self,
        id: NodeId,
        name: &str,
        table: fn(u64) -> Option<&'static str>,
    ) -> R<&'static str> {
        let c = self.need(id, name)?;
        let v = self.uint(c)?;
        table(v).ok_or_else(|| {
            format!(
                "{} is {v}, which LLVM 19 has no name for",
                self.tree.path(c)
            )
        })
    }

    fn header(&self, w: &mut Writer) -> R<()> {
        let h = self.need(self.tree.root(), "Header")?;
        w.key(0, "Header");
        w.newline();
        w.key(2, "Hash");
        let hash = self.bytes(self.need(h, "Hash")?)?;
        w.flow(hash.iter().map(|&b| hex(b.into())));
        let v = self.need(h, "Version")?;
        w.key(2, "Version");
        w.newline();
        w.key(4, "Major");
        w.uint(self.uint_at(v, "Major")?);
        w.key(4, "Minor");
        w.uint(self.uint_at(v, "Minor")?);
        if let Ok(size) = self.uint_at(h, "FileSize") {
            w.key(2, "FileSize");
            w.uint(size);
        }
        w.key(2, "PartCount");
        w.uint(self.uint_at(h, "PartCount")?);
        if let Ok(offsets) = self.uints_at(h, "PartOffsets") {
            w.key(2, "PartOffsets");
            w.flow(offsets.iter().map(u64::to_string));
        }
        Ok(())
    }

    /// DXIL: the program header and the bitcode's bytes.
    fn program(&self, w: &mut Writer, part: NodeId) -> R<()> {
        let p = self.need(part, "Program")?;
        w.key(4, "Program");
        w.newline();
        for key in [
            "MajorVersion",
            "MinorVersion",
            "ShaderKind",
            "Size",
            "DXILMajorVersion",
            "DXILMinorVersion",
            "DXILSize",
        ] {
            w.key(6, key);
            w.uint(self.uint_at(p, key)?);
        }
        let bitcode = self.bytes(self.need(p, "DXIL")?)?;
        if bitcode.len() as u64 != self.uint_at(p, "DXILSize")? {
            return Err(format!(
                "{} is shorter than DXILSize says",
                self.path(p, "DXIL")
            ));
        }
        w.key(6, "DXIL");
        w.flow(bitcode.iter().map(|&b| hex(b.into())));
        Ok(())
    }

    /// SFI0: one flag a key, written when any bit is set.
    fn flags(&self, w: &mut Writer, part: NodeId) -> R<()> {
        let f = self.need(part, "Flags")?;
        if self.uint(f)? == 0 {
            return Ok(());
        }
        w.key(4, "Flags");
        w.newline();
        // LLVM 19 names bits 0-31; bit 31 is its `NextUnusedBit`.
        for (bit, name) in names::FEATURE_FLAGS.iter().take(32).enumerate() {
            w.key(6, if bit == 31 { "NextUnusedBit" } else { name });
            w.boolean(self.bool_at(f, name)?);
        }
        Ok(())
    }

    /// HASH: written when the flags or the digest are not all zero.
    fn hash(&self, w: &mut Writer, part: NodeId) -> R<()> {
        let h = self.need(part, "Hash")?;
        let includes = self.bool_at(h, "IncludesSource")?;
        let reserved = self.uint_at(h, "ReservedFlags")?;
        let digest = self.bytes(self.need(h, "Digest")?)?;
        if !includes && reserved == 0 && digest.iter().all(|&b| b == 0) {
            return Ok(());
        }
        w.key(4, "Hash");
        w.newline();
        w.key(6, "IncludesSource");
        w.boolean(includes);
        w.key(6, "Digest");
        w.flow(digest.iter().map(|&b| hex(b.into())));
        Ok(())
    }

    fn signature(&self, w: &mut Writer, part: NodeId) -> R<()> {
        let s = self.need(part, "Signature")?;
        let params = self.indexed(self.need(s, "Parameters")?);
        let mut body = Writer::default();
        body.key(6, "Parameters");
        if params.is_empty() {
            body.empty_block_list();
        }
        for p in params {
            body.item();
            body.key(10, "Stream");
            body.uint(self.uint_at(p, "Stream")?);
            body.key(10, "Name");
            body.string(&self.str_at(p, "Name")?);
            body.key(10, "Index");
            body.uint(self.uint_at(p, "Index")?);
            body.key(10, "SystemValue");
            body.plain(self.enum_at(p, "SystemValue", names::system_value)?);
            body.key(10, "CompType");
            body.plain(self.enum_at(p, "CompType", names::comp_type)?);
            for key in ["Register", "Mask", "ExclusiveMask"] {
                body.key(10, key);
                body.uint(self.uint_at(p, key)?);
            }
            body.key(10, "MinPrecision");
            body.plain(self.enum_at(p, "MinPrecision", names::min_precision)?);
        }
        w.key(4, "Signature");
        w.newline();
        w.out.push_str(&body.out);
        Ok(())
    }

    /// PSV0: the RuntimeInfo fields of its version and stage, the resource
    /// bindings, and from v1 on the signature elements and dependency maps.
    fn psv(&self, w: &mut Writer, part: NodeId, parts: &[NodeId]) -> R<()> {
        let p = self.need(part, "PSVInfo")?;
        let version = self.uint_at(p, "Version")?;
        // v0 does not store the stage: LLVM takes the DXIL program's shader
        // kind, and writes no PSVInfo without a DXIL part.
        let stage = if version == 0 {
            let dxil = parts
                .iter()
                .find(|&&q| self.str_at(q, "Name").as_deref() == Ok("DXIL"));
            match dxil {
                Some(&q) => self.uint_at(self.need(q, "Program")?, "ShaderKind")?,
                None => return Ok(()),
            }
        } else {
            self.uint_at(p, "ShaderStage")?
        };
        let mut b = Writer::default();
        let u = |b: &mut Writer, key: &str| -> R<()> {
            b.key(6, key);
            b.uint(self.uint_at(p, key)?);
            Ok(())
        };
        b.key(6, "Version");
        b.uint(version);
        b.key(6, "ShaderStage");
        b.uint(stage);
        let stage_keys: &[&str] = match stage {
            STAGE_PIXEL => &["DepthOutput", "SampleFrequency"],
            STAGE_VERTEX => &["OutputPositionPresent"],
            STAGE_GEOMETRY => &[
                "InputPrimitive",
                "OutputTopology",
                "OutputStreamMask",
                "OutputPositionPresent",
            ],
            STAGE_HULL => &[
                "InputControlPointCount",
                "OutputControlPointCount",
                "TessellatorDomain",
                "TessellatorOutputPrimitive",
            ],
            STAGE_DOMAIN => &[
                "InputControlPointCount",
                "OutputPositionPresent",
                "TessellatorDomain",
            ],
            STAGE_MESH => &[
                "GroupSharedBytesUsed",
                "GroupSharedBytesDependentOnViewID",
                "PayloadSizeInBytes",
                "MaxOutputVertices",
                "MaxOutputPrimitives",
            ],
            STAGE_AMPLIFICATION => &["PayloadSizeInBytes"],
            _ => &[],
        };
        for key in stage_keys
            .iter()
            .chain(&["MinimumWaveLaneCount", "MaximumWaveLaneCount"])
        {
            u(&mut b, key)?;
        }
        let mut uses_view_id = false;
        if version >= 1 {
            uses_view_id = self.uint_at(p, "UsesViewID")? != 0;
            u(&mut b, "UsesViewID")?;
            let geom: &[&str] = match stage {
                STAGE_GEOMETRY => &["MaxVertexCount"],
                STAGE_HULL | STAGE_DOMAIN => &["SigPatchConstOrPrimVectors"],
                STAGE_MESH => &["SigPrimVectors", "MeshOutputTopology"],
                _ => &[],
            };
            for key in geom.iter().chain(&["SigInputVectors"]) {
                u(&mut b, key)?;
            }
            b.key(6, "SigOutputVectors");
            b.flow(
                self.uints_at(p, "SigOutputVectors")?
                    .iter()
                    .map(u64::to_string),
            );
        }
        if version >= 2 {
            for key in ["NumThreadsX", "NumThreadsY", "NumThreadsZ"] {
                u(&mut b, key)?;
            }
        }
        if version >= 3 {
            b.key(6, "EntryName");
            b.string(&self.str_at(p, "EntryName")?);
        }
        u(&mut b, "ResourceStride")?;
        let resources = self.indexed(self.need(p, "Resources")?);
        b.key(6, "Resources");
        if resources.is_empty() {
            b.empty_block_list();
        }
        for r in resources {
            b.item();
            let keys: &[&str] = if version >= 2 {
                &["Type", "Space", "LowerBound", "UpperBound", "Kind", "Flags"]
            } else {
                &["Type", "Space", "LowerBound", "UpperBound"]
            };
            for key in keys {
                b.key(10, key);
                b.uint(self.uint_at(r, key)?);
            }
        }
        if version >= 1 {
            for list in [
                "SigInputElements",
                "SigOutputElements",
                "SigPatchOrPrimElements",
            ] {
                self.elements(&mut b, p, list)?;
            }
            if uses_view_id {
                b.key(6, "OutputVectorMasks");
                self.mask_lists(&mut b, self.need(p, "OutputVectorMasks")?)?;
                if stage == STAGE_HULL {
                    b.key(6, "PatchOrPrimMasks");
                    b.flow(self.uints_at(p, "PatchOrPrimMasks")?.into_iter().map(hex));
                }
            }
            b.key(6, "InputOutputMap");
            self.mask_lists(&mut b, self.need(p, "InputOutputMap")?)?;
            if stage == STAGE_HULL {
                b.key(6, "InputPatchMap");
                b.flow(self.uints_at(p, "InputPatchMap")?.into_iter().map(hex));
            }
            if stage == STAGE_DOMAIN {
                b.key(6, "PatchOutputMap");
                b.flow(self.uints_at(p, "PatchOutputMap")?.into_iter().map(hex));
            }
        }
        w.key(4, "PSVInfo");
        w.newline();
        w.out.push_str(&b.out);
        Ok(())
    }

    /// Four lists of 32-bit masks, one a line.
    fn mask_lists(&self, w: &mut Writer, list: NodeId) -> R<()> {
        for l in self.indexed(list) {
            let masks: Vec<u64> = self
                .indexed(l)
                .into_iter()
                .map(|c| self.uint(c))
                .collect::<R<_>>()?;
            w.item_flow(8, masks.into_iter().map(hex));
        }
        Ok(())
    }

    fn elements(&self, w: &mut Writer, psv: NodeId, list: &str) -> R<()> {
        let items = self.indexed(self.need(psv, list)?);
        w.key(6, list);
        if items.is_empty() {
            w.empty_block_list();
        }
        for e in items {
            w.item();
            w.key(10, "Name");
            w.string(&self.str_at(e, "Name")?);
            w.key(10, "Indices");
            w.flow(self.uints_at(e, "Indices")?.iter().map(u64::to_string));
            for key in ["StartRow", "Cols", "StartCol"] {
                w.key(10, key);
                w.uint(self.uint_at(e, key)?);
            }
            w.key(10, "Allocated");
            w.boolean(self.bool_at(e, "Allocated")?);
            w.key(10, "Kind");
            w.plain(self.enum_at(e, "Kind", names::semantic_kind)?);
            w.key(10, "ComponentType");
            w.plain(self.enum_at(e, "ComponentType", names::comp_type)?);
            w.key(10, "Interpolation");
            w.plain(self.enum_at(e, "Interpolation", names::interpolation)?);
            w.key(10, "DynamicMask");
            w.plain(&hex(self.uint_at(e, "DynamicMask")?));
            w.key(10, "Stream");
            w.uint(self.uint_at(e, "Stream")?);
        }
        Ok(())
    }
}

/// `0x` and upper-case hex digits, as LLVM writes its `Hex8`/`Hex32` values.
fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// Builds the document as LLVM's YAML writer lays it out: a key's value
/// starts at column 16 after the key's indentation (one space after longer
/// keys), block list items start with `- ` two columns in from their keys.
#[derive(Default)]
struct Writer {
    out: String,
    /// The next key starts a block list item (`- `).
    dash: bool,
}

impl Writer {
    /// `key:` at `indent` columns (the item's dash two columns before it when
    /// the key starts an item), then the padding before a scalar value.
    fn key(&mut self, indent: usize, key: &str) {
        if self.dash {
            self.spaces(indent.saturating_sub(2));
            self.out.push_str("- ");
            self.dash = false;
        } else {
            self.spaces(indent);
        }
        self.out.push_str(key);
        self.out.push(':');
        self.spaces(KEY_WIDTH.saturating_sub(key.len()).max(1));
    }

    /// Ends a key whose value is a mapping or a block list on the next lines
    /// (drops the padding [`key`](Self::key) wrote).
    fn newline(&mut self) {
        let trimmed = self.out.trim_end_matches(' ').len();
        self.out.truncate(trimmed);
        self.out.push('\n');
    }

    /// The next key starts a new block list item; the list's key ends its line.
    fn item(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.newline();
        }
        self.dash = true;
    }

    /// A block list with no items.
    fn empty_block_list(&mut self) {
        self.out.push_str("[]\n");
    }

    fn spaces(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    fn plain(&mut self, v: &str) {
        self.out.push_str(v);
        self.out.push('\n');
    }

    fn uint(&mut self, v: u64) {
        self.plain(&v.to_string());
    }

    fn boolean(&mut self, v: bool) {
        self.plain(if v { "true" } else { "false" });
    }

    /// A text value: plain when it cannot be read as anything else,
    /// single-quoted when it is printable ASCII, double-quoted with escapes
    /// otherwise.
    fn string(&mut self, s: &str) {
        let quoted = quote(s);
        self.plain(&quoted);
    }

    /// The column the next character lands in.
    fn column(&self) -> usize {
        self.out.len() - self.out.rfind('\n').map_or(0, |i| i + 1)
    }

    /// A flow list `[ a, b ]` ending its line; a line longer than
    /// [`WRAP_COLUMN`] continues two columns in from the `[`.
    fn flow(&mut self, items: impl Iterator<Item = String>) {
        let start = self.column();
        self.out.push_str("[ ");
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if self.column() > WRAP_COLUMN {
                self.out.push('\n');
                self.spaces(start + 2);
            }
            self.out.push_str(&item);
        }
        self.out.push_str(" ]\n");
    }

    /// A block list item that is a flow list, its dash at `indent`.
    fn item_flow(&mut self, indent: usize, items: impl Iterator<Item = String>) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.newline();
        }
        self.spaces(indent);
        self.out.push_str("- ");
        self.flow(items);
    }
}

/// `s` as a YAML scalar that reads back as the same text.
fn quote(s: &str) -> String {
    const WORDS: &[&str] = &[
        "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "y", "Y", "yes",
        "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
    ];
    let word = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !WORDS.contains(&s);
    if word {
        return s.to_string();
    }
    if s.chars().all(|c| (' '..='~').contains(&c)) {
        return format!("'{}'", s.replace('\'', "''"));
    }
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7F}' => q.push_str(&format!("\\x{:02X}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_quoted_only_when_it_would_read_as_something_else() {
        assert_eq!(quote("SV_Position"), "SV_Position");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("true"), "'true'");
        assert_eq!(quote("12"), "'12'");
        assert_eq!(quote("a b: c's"), "'a b: c''s'");
        assert_eq!(quote("tab\there"), "\"tab\\there\"");
        assert_eq!(quote("é"), "\"é\"");
    }

    #[test]
    fn flow_lists_wrap_after_column_70_two_columns_in_from_the_bracket() {
        let mut w = Writer::default();
        w.key(2, "Hash");
        w.flow((0..16u64).map(hex));
        assert_eq!(
            w.out,
            "  Hash:            [ 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, \n                     0xA, 0xB, 0xC, 0xD, 0xE, 0xF ]\n"
        );
        let mut w = Writer::default();
        w.item_flow(8, std::iter::empty());
        assert_eq!(w.out, "        - [  ]\n");
    }

    /// A hull shader: SFI0, ISG1, OSG1, PSG1, PSV0 v3, HASH and DXIL.
    const HULL: &[u8] = include_bytes!(
        "../../../../../tests/fixtures/dxcontainer/curated/hs_topology_line_code_dxil.dxil.dxbc"
    );

    #[test]
    fn a_clean_container_gets_every_mapping_llvm_19_writes_for_its_parts() {
        let y = dump(&HULL).unwrap();
        assert!(y.clean && y.left_out.is_empty(), "{:?}", y.left_out);
        assert!(y
            .text
            .starts_with("--- !dxcontainer\nHeader:\n  Hash:            [ 0x"));
        assert!(y.text.ends_with("\n...\n"));
        for key in [
            "\n    Signature:\n      Parameters:\n        - Stream:          0\n",
            "\n    PSVInfo:\n      Version:         3\n      ShaderStage:     3\n",
            "\n      InputPatchMap:   [ ",
            "\n    Hash:\n      IncludesSource:  false\n      Digest:          [ ",
            "\n    Program:\n      MajorVersion:    6\n",
            "\n      DXIL:            [ 0x42, 0x43, 0xC0, 0xDE, ",
        ] {
            assert!(y.text.contains(key), "{key:?} not in\n{}", y.text);
        }
    }

    #[test]
    fn truncated_or_corrupted_containers_get_yaml_or_an_error_never_a_panic() {
        let mut written = 0;
        for len in 0..HULL.len() {
            let cut = &HULL[..len];
            match dump(&cut) {
                Ok(y) => {
                    assert!(!y.clean, "truncated at {len} but clean");
                    assert!(y.text.ends_with("...\n"));
                    written += 1;
                }
                Err(YamlError::Damaged(why)) => assert!(why.contains("Header"), "{why}"),
                Err(e) => assert!(len < 4, "truncated at {len}: {e}"),
            }
        }
        // Past the header every truncation still gets a document.
        assert!(written >= HULL.len() - 60, "{written} documents");
        for at in 0..HULL.len() {
            for byte in [0x00, 0xFF] {
                let mut bad = HULL.to_vec();
                bad[at] = byte;
                let _ = dump(&bad.as_slice());
            }
        }
    }

    #[test]
    fn a_file_that_is_not_a_container_is_refused() {
        let data = b"not a container".as_slice();
        assert_eq!(dump(&data).unwrap_err(), YamlError::NotDxContainer("raw"));
    }
}
