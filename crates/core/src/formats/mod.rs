//! The registry of format decoders. Each format is one folder here and one
//! line of [`registry!`] below: its [`Format`] entry (in the folder's
//! `mod.rs`) says everything else — its name, root, probe, the signatures and
//! extent of a container of it found inside another file, the web viewer's
//! worker module that decodes it, its extensions. The lists the rest of the
//! project uses are made from those entries: [`formats`] (the decoders built
//! in), [`catalog`] (every format, without decoder code, for the page),
//! [`modules`] and [`module_for`] (the page's choice of worker module), the
//! signatures the [`embedded`] scan looks for. What a Rust static cannot carry
//! (the cargo features and worker bins, the page's module links, the fuzz
//! targets) is checked against the registry by tests (`tests/registry.rs`).
//!
//! A format that is not compiled in (one described at run time) joins with
//! [`register`].

use crate::builder::{Builder, DResult};
use crate::source::ByteSource;
use std::sync::RwLock;

pub(crate) mod nest;

/// A registered decoder: everything hexlens knows about a format.
pub struct Format {
    /// Short stable name used in JSON output and on the command line; the
    /// format's folder (`-` read as `_`) and its cargo feature have this name.
    pub name: &'static str,
    /// Name given to the root node.
    pub root: &'static str,
    /// One line describing the format.
    pub description: &'static str,
    /// File extensions commonly used.
    pub extensions: &'static [&'static str],
    /// The web viewer's decode-worker module that holds this decoder (its
    /// worker's cargo feature, and `hexlens-worker-NAME` is its bin).
    pub module: &'static str,
    /// True if `src` looks like this format (usually a magic number check).
    pub probe: Probe,
    /// True if [`Format::probe`] reads no more than the first [`HEAD_BYTES`]
    /// of a file: the page picks the worker module with it.
    pub head_probe: bool,
    /// How a container of this format is found inside another file, if it can
    /// be (see [`embedded`]).
    pub embedded: Option<Embedded>,
    /// Decodes the whole file into the builder's root.
    pub decode: &'static Decode,
    /// What the format's own description says of a node of a tree it
    /// decoded (a `.ksy` field's `doc`), shown in its details.
    pub doc: Option<&'static DocOf>,
}

/// A format's decode function (see [`Format::decode`]): a plain function for a
/// format compiled in, a closure holding its description for one registered
/// at run time.
pub type Decode = dyn Fn(&mut Builder) -> DResult<()> + Send + Sync;

/// A format's words on node `id` of a tree it decoded ([`Format::doc`]).
pub type DocOf = dyn Fn(&crate::tree::Tree, crate::NodeId) -> Option<String> + Send + Sync;

/// A format's probe (see [`Format::probe`]).
pub type Probe = fn(&dyn ByteSource) -> bool;

/// How a container is found inside a file of another kind.
#[derive(Clone, Copy)]
pub struct Embedded {
    /// The byte strings a container starts with (at least 4 bytes each).
    pub signatures: &'static [&'static [u8]],
    /// The bytes of the container whose signature is at `offset` of `src`,
    /// `room` bytes before the file's end, if its header says where it ends;
    /// `None` if it does not say or the end does not fit.
    pub extent: fn(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64>,
}

/// The registry: one line per format, its folder and its name (which is also
/// its cargo feature), in probe order. Formats with a magic number at offset 0
/// come first; the cDAC probe, which searches a whole file (and object files)
/// for an embedded blob, comes after them; the scan for containers inside
/// other files, whose probe never matches, last.
macro_rules! registry {
    ($($folder:ident => $name:literal),* $(,)?) => {
        $(pub mod $folder;)*

        /// Every decoder built in (each when its cargo feature is on; all are
        /// by default).
        static BUILT_IN: &[Format] = &[$(#[cfg(feature = $name)] $folder::FORMAT,)*];

        /// What every format is, built in or not, evaluated when compiling: it
        /// refers to no decoder code.
        static CATALOG: &[About] = &[$($folder::FORMAT.about(),)*];

        /// Each format's head probe (see [`Format::head_probe`]), in
        /// [`CATALOG`]'s order: the only decoder code the page links.
        static HEAD_PROBES: &[Option<Probe>] = &[$(
            if $folder::FORMAT.head_probe { Some($folder::FORMAT.probe) } else { None },
        )*];

        /// Each registry line's folder and name, and whether its feature is
        /// on in this build, for the registry's tests.
        #[cfg(test)]
        static LINES: &[(&str, &str, bool)] = &[$((stringify!($folder), $name, cfg!(feature = $name)),)*];
    };
}

registry! {
    dxcontainer => "dxcontainer",
    msf => "msf",
    chapel_dyno => "chapel-dyno",
    llvm1_bytecode => "llvm1-bytecode",
    bitcode => "bitcode",
    cdac => "cdac",
    embedded => "embedded",
}

/// Formats registered at run time ([`register`]), after the built-in ones.
static LOADED: RwLock<Vec<&'static Format>> = RwLock::new(Vec::new());

/// Adds a format that is not compiled in (one described at run time) to the
/// registry, after the built-in ones: [`detect`](crate::detect) tries its
/// probe and [`by_name`] finds it. A format of the same name registered before
/// is replaced. The entry lives as long as the program.
pub fn register(format: Format) -> &'static Format {
    let f: &'static Format = Box::leak(Box::new(format));
    let mut loaded = LOADED.write().unwrap_or_else(|e| e.into_inner());
    loaded.retain(|g| g.name != f.name);
    loaded.push(f);
    f
}

/// Every decoder: the built-in ones in probe order, then those registered at
/// run time.
pub fn formats() -> Vec<&'static Format> {
    let loaded = LOADED.read().unwrap_or_else(|e| e.into_inner());
    BUILT_IN.iter().chain(loaded.iter().copied()).collect()
}

/// The decoders compiled in, in probe order.
pub fn built_in() -> &'static [Format] {
    BUILT_IN
}

/// Finds a decoder by its short name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    if let Some(f) = BUILT_IN.iter().find(|f| f.name == name) {
        return Some(f);
    }
    let loaded = LOADED.read().unwrap_or_else(|e| e.into_inner());
    loaded.iter().copied().find(|f| f.name == name)
}

/// One of the web viewer's decode-worker modules: a build of the worker whose
/// registry holds only these formats (`crates/worker`'s cargo feature of the
/// same name). The page picks the module for a file with [`module_for`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The module's name: its cargo feature, and `hexlens-worker-NAME` is its bin.
    pub name: &'static str,
    /// The formats it decodes, by [`Format::name`].
    pub formats: Vec<&'static str>,
}

/// The decode worker's modules, in the order their formats first appear in
/// the registry ([`Format::module`]). Every format is in exactly one (a module
/// may also link decoders it runs inside its own formats: the `pdb` module's
/// MSF decoder runs the DXContainer decoder on a container in a stream). The
/// formats whose probe looks past a file's first bytes (cDAC, which searches
/// the file) are in [`FALLBACK`], the module for any file no first-bytes probe
/// recognises; the scan for containers inside a file, which no probe picks, in
/// [`SCAN`].
pub fn modules() -> Vec<Module> {
    let mut out: Vec<Module> = Vec::new();
    for a in CATALOG {
        match out.iter_mut().find(|m| m.name == a.module) {
            Some(m) => m.formats.push(a.name),
            None => out.push(Module {
                name: a.module,
                formats: vec![a.name],
            }),
        }
    }
    out
}

/// The module for files no first-bytes probe recognises.
pub const FALLBACK: &str = "cdac";

/// The module for a file the others leave undecoded (the [`FALLBACK`] finds
/// no cDAC blob in it), and for any file scanned for containers on request:
/// it holds the [`embedded`] scan and every decoder.
pub const SCAN: &str = "tools";

/// How many bytes of a file [`module_for`] needs (or the whole of a shorter file):
/// the longest magic a first-bytes probe reads (MSF's 32 bytes).
pub const HEAD_BYTES: usize = 32;

/// The first bytes of a file of `len` bytes, as a source that reads nothing else.
struct Head<'a> {
    bytes: &'a [u8],
    len: u64,
}

impl ByteSource for Head<'_> {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let n = (self.bytes.len() as u64).min(self.len) as usize;
        let held = &self.bytes[..n];
        crate::source::ByteSource::read_at(&held, offset, buf)
    }
}

/// The decode-worker module for a file of `len` bytes starting with `head`
/// (its first [`HEAD_BYTES`] bytes, or all of a shorter file). A file decodes
/// in that module as it does with every decoder registered: the module holds
/// the format the full registry would pick (and for a file no first-bytes
/// probe recognises, every format that searches further). Uses the
/// registry's head probes only, so a program asking only this (the page)
/// links no decoder.
pub fn module_for(head: &[u8], len: u64) -> &'static str {
    let src = Head { bytes: head, len };
    CATALOG
        .iter()
        .zip(HEAD_PROBES)
        .find(|(_, probe)| probe.is_some_and(|p| p(&src)))
        .map_or(FALLBACK, |(a, _)| a.module)
}

/// What a decoder is, without the decoder: for a program that lists or names
/// formats but decodes nothing itself (a page whose decoding runs in a worker
/// links none of the decoders through this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct About {
    /// See [`Format::name`].
    pub name: &'static str,
    /// See [`Format::description`].
    pub description: &'static str,
    /// See [`Format::extensions`].
    pub extensions: &'static [&'static str],
    /// See [`Format::module`].
    pub module: &'static str,
}

impl Format {
    /// The decoder's [`About`].
    pub const fn about(&self) -> About {
        About {
            name: self.name,
            description: self.description,
            extensions: self.extensions,
            module: self.module,
        }
    }
}

/// [`About`] of every format hexlens knows, built in or not, in probe order.
pub fn catalog() -> &'static [About] {
    CATALOG
}

/// The [`About`] of the format called `name`.
pub fn about(name: &str) -> Option<&'static About> {
    CATALOG.iter().find(|a| a.name == name)
}

/// Reads `n` bytes at `at`, or `None` if the file ends first.
pub(crate) fn read_exact(src: &dyn ByteSource, at: u64, n: usize) -> Option<Vec<u8>> {
    let mut v = vec![0u8; n];
    (src.read_at(at, &mut v) == n).then_some(v)
}

/// The `u32` at byte `i` of `b` (zero if `b` is too short), big-endian if `big`.
pub(crate) fn u32_at(b: &[u8], i: usize, big: bool) -> u32 {
    let w: [u8; 4] = b
        .get(i..i + 4)
        .and_then(|w| w.try_into().ok())
        .unwrap_or_default();
    if big {
        u32::from_be_bytes(w)
    } else {
        u32::from_le_bytes(w)
    }
}

/// The `u64` at byte `i` of `b` (zero if `b` is too short), big-endian if `big`.
pub(crate) fn u64_at(b: &[u8], i: usize, big: bool) -> u64 {
    let w: [u8; 8] = b
        .get(i..i + 8)
        .and_then(|w| w.try_into().ok())
        .unwrap_or_default();
    if big {
        u64::from_be_bytes(w)
    } else {
        u64::from_le_bytes(w)
    }
}

/// True if `src` starts with `magic`.
pub fn has_magic(src: &dyn ByteSource, magic: &[u8]) -> bool {
    if src.len() < magic.len() as u64 {
        return false;
    }
    let mut buf = vec![0u8; magic.len()];
    src.read_at(0, &mut buf) == magic.len() && buf == magic
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats this build holds, by the cargo features that put them in
    /// the registry: every feature in a test build, the worker module's own
    /// in a single-module build (`scripts/test-modules.sh` runs these tests
    /// with each module's feature set, as `hexlens-worker-NAME` is built).
    fn compiled() -> Vec<&'static str> {
        LINES.iter().filter(|l| l.2).map(|l| l.1).collect()
    }

    /// The modules whose formats this build holds all of (every module in a
    /// test build; the module itself, at least, in a single-module build).
    fn served() -> Vec<Module> {
        let have = compiled();
        modules()
            .into_iter()
            .filter(|m| m.formats.iter().all(|f| have.contains(f)))
            .collect()
    }

    #[test]
    fn each_registry_line_names_its_folder_and_its_entry() {
        assert_eq!(LINES.len(), CATALOG.len());
        for ((folder, name, _), about) in LINES.iter().zip(CATALOG) {
            assert_eq!(*folder, name.replace('-', "_"), "the folder of {name}");
            assert_eq!(about.name, *name, "the entry in formats/{folder}");
        }
    }

    #[test]
    fn the_catalog_says_what_the_registry_holds() {
        let have = compiled();
        let names: Vec<&str> = built_in().iter().map(|f| f.name).collect();
        assert_eq!(
            names, have,
            "the registry holds the formats of the features on"
        );
        let about: Vec<_> = built_in().iter().map(|f| f.about()).collect();
        let listed: Vec<About> = catalog()
            .iter()
            .filter(|a| have.contains(&a.name))
            .copied()
            .collect();
        assert_eq!(listed, about);
        assert_eq!(
            super::about("chapel-dyno").map(|a| a.name),
            Some("chapel-dyno")
        );
        assert!(super::about("nope").is_none());
        // The `.ksy` module's build holds the interpreter and no built-in format.
        assert!(
            !served().is_empty() || (cfg!(feature = "ksy") && have.is_empty()),
            "this build serves no module: {have:?}"
        );
        for f in built_in() {
            let p = HEAD_PROBES[CATALOG.iter().position(|a| a.name == f.name).unwrap()];
            assert_eq!(p.is_some(), f.head_probe, "{}", f.name);
            if let Some(p) = p {
                assert!(std::ptr::fn_addr_eq(f.probe, p), "{}", f.name);
            }
        }
    }

    #[test]
    fn the_fallback_and_scan_modules_hold_the_formats_no_head_probe_picks() {
        let mods = modules();
        assert!(mods.iter().any(|m| m.name == FALLBACK));
        assert!(mods.iter().any(|m| m.name == SCAN));
        for (a, p) in CATALOG.iter().zip(HEAD_PROBES) {
            if p.is_none() {
                assert!(
                    a.module == FALLBACK || a.module == SCAN,
                    "{}: no head probe, so its module must be {FALLBACK} or {SCAN}",
                    a.name
                );
            }
        }
        // The scan holds only the scan (which runs every decoder).
        let scan = mods.iter().find(|m| m.name == SCAN).unwrap();
        assert_eq!(scan.formats, ["embedded"]);
    }

    #[test]
    fn a_format_registered_at_run_time_is_found_and_decodes() {
        fn decode(b: &mut Builder) -> DResult<()> {
            let root = b.current();
            b.set_display(root, "registered at run time".to_string());
            Ok(())
        }
        let magic = b"RUNTIME!";
        let f = register(Format {
            name: "runtime-test",
            root: "RuntimeTest",
            description: "a format registered by a test",
            extensions: &[],
            module: SCAN,
            probe: |src| has_magic(src, b"RUNTIME!"),
            head_probe: false,
            embedded: None,
            decode: &decode,
            doc: None,
        });
        assert!(std::ptr::eq(by_name("runtime-test").unwrap(), f));
        assert!(formats().iter().any(|g| std::ptr::eq(*g, f)));
        assert!(catalog().iter().all(|a| a.name != "runtime-test"));
        let d = crate::decode(&magic.as_slice());
        assert_eq!(d.format, "runtime-test");
        assert_eq!(
            d.tree.display(d.tree.root()).as_deref(),
            Some("registered at run time")
        );
    }

    #[test]
    fn the_module_for_a_file_holds_the_format_that_decodes_it() {
        let cases: &[(&[u8], &str)] = &[
            (b"DXBC\0\0\0\0", "llvm"),
            (b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0", "pdb"),
            (b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0", "cdac"),
            (b"BC\xC0\xDE\x35\x14\0\0", "llvm"),
            (b"\xDE\xC0\x17\x0B\0\0\0\0", "llvm"),
            (b"llvm\x01\x02", "llvm1"),
            (b"\x7FLIBCHPL", "dyno"),
            (b"LPHCBIL\x7F", "dyno"),
            (b"\x7FELF\x02\x01", "cdac"),
            (b"DACBLOB\0", "cdac"),
            (b"", "cdac"),
            (b"DXB", "cdac"),
        ];
        for &(head, want) in cases {
            assert_eq!(module_for(head, head.len() as u64), want, "{head:?}");
        }
        // Only the first bytes count, and only as many as the file has.
        assert_eq!(module_for(b"DXBC", 3), "cdac");
        assert_eq!(module_for(b"DXBCxxxxxxxxxxxxxxxxxxxx", 1 << 40), "llvm");
    }

    /// Every file under `dir`, recursively.
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    #[test]
    fn every_sample_and_fixture_is_routed_to_the_module_of_the_format_that_decodes_it() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let mut paths = Vec::new();
        files(
            &std::path::Path::new(root).join("static/samples"),
            &mut paths,
        );
        files(
            &std::path::Path::new(root).join("tests/fixtures"),
            &mut paths,
        );
        assert!(paths.len() > 100, "{} files", paths.len());
        let served = served();
        let mut seen = std::collections::BTreeSet::new();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            let module = module_for(&data[..data.len().min(HEAD_BYTES)], data.len() as u64);
            // A file is checked in the builds that serve its module.
            let Some(m) = served.iter().find(|m| m.name == module) else {
                continue;
            };
            match crate::detect(&data.as_slice()) {
                Some(f) => {
                    assert!(
                        m.formats.contains(&f.name),
                        "{}: {} decodes it, but the page would load module {module}",
                        p.display(),
                        f.name
                    );
                    seen.insert(f.name);
                }
                None => {
                    // The fallback first; what it leaves raw goes to the scan.
                    assert_eq!(module, FALLBACK, "{}", p.display());
                    if let Some(scan) = served.iter().find(|m| m.name == SCAN) {
                        let f = crate::decode(&data.as_slice()).format;
                        if f != "raw" {
                            assert!(scan.formats.contains(&f), "{}: {f}", p.display());
                            seen.insert(f);
                        }
                    }
                }
            }
        }
        let want: std::collections::BTreeSet<&str> = served
            .iter()
            .flat_map(|m| m.formats.iter().copied())
            .collect();
        assert_eq!(seen, want, "every format served has a file here");
    }
}
