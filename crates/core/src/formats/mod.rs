//! The registry of format decoders: each has a probe (does this look like my
//! format?) and a decode function that fills a [`Builder`].

use crate::builder::{Builder, DResult};
use crate::source::ByteSource;

pub mod bitcode;
pub mod cdac;
pub mod dxcontainer;
pub mod dyno;
pub mod embedded;
pub mod llvm1;
pub mod msf;
pub(crate) mod nest;

/// A registered decoder.
pub struct Format {
    /// Short stable name used in JSON output and on the command line.
    pub name: &'static str,
    /// Name given to the root node.
    pub root: &'static str,
    /// One line describing the format.
    pub description: &'static str,
    /// File extensions commonly used.
    pub extensions: &'static [&'static str],
    /// True if `src` looks like this format (usually a magic number check).
    pub probe: Probe,
    /// Decodes the whole file into the builder's root.
    pub decode: fn(&mut Builder) -> DResult<()>,
}

/// Probe order matters: formats with a magic number at offset 0 come first; the
/// cDAC probe, which searches a whole file (and object files) for an embedded blob,
/// comes last.
///
/// Each entry is there when its cargo feature is on (all are by default).
static FORMATS: &[Format] = &[
    #[cfg(feature = "dxcontainer")]
    dxcontainer::FORMAT,
    #[cfg(feature = "msf")]
    msf::FORMAT,
    #[cfg(feature = "dyno")]
    dyno::FORMAT,
    #[cfg(feature = "llvm1")]
    llvm1::FORMAT,
    #[cfg(feature = "bitcode")]
    bitcode::FORMAT,
    #[cfg(feature = "cdac")]
    cdac::FORMAT,
    // Never matches a probe: runs when none does (see `crate::decode_with`).
    #[cfg(feature = "embedded")]
    embedded::FORMAT,
];

/// One of the web viewer's decode-worker modules: a build of the worker whose
/// registry holds only these formats (`crates/worker`'s cargo feature of the
/// same name). The page picks the module for a file with [`module_for`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    /// The module's name: its cargo feature, and `hexlens-worker-NAME` is its bin.
    pub name: &'static str,
    /// The formats it decodes, by [`Format::name`].
    pub formats: &'static [&'static str],
}

/// The decode worker's modules. Every format is in exactly one (a module may
/// also link decoders it runs inside its own formats); the one whose
/// probe looks past a file's first bytes (cDAC, which searches the file) is in
/// [`FALLBACK`], the module for any file no first-bytes probe recognises, and
/// the scan for containers inside a file, which no probe picks, in [`SCAN`].
pub static MODULES: &[Module] = &[
    Module {
        name: "llvm",
        formats: &["dxcontainer", "llvm1-bytecode", "bitcode"],
    },
    // PDBs apart from the shaders they hold: the MSF decoder (about 20 KB of a
    // module, gzip) is fetched for a PDB only. Its build also links the
    // DXContainer decoder, which it runs on a container inside a stream.
    Module {
        name: "pdb",
        formats: &["msf"],
    },
    Module {
        name: "dyno",
        formats: &["chapel-dyno"],
    },
    Module {
        name: "cdac",
        formats: &["cdac"],
    },
    // Every decoder: the scan for containers inside other files decodes each
    // it finds. Also serves exports, subtrees copied as JSON and structure
    // searches (the worker's `tools` handler).
    Module {
        name: "tools",
        formats: &["embedded"],
    },
];

/// The module for files no first-bytes probe recognises.
pub const FALLBACK: &str = "cdac";

/// The module for a file the others leave undecoded (the [`FALLBACK`] finds
/// no cDAC blob in it), and for any file scanned for containers on request:
/// it holds the [`embedded`] scan and every decoder.
pub const SCAN: &str = "tools";

/// How many bytes of a file [`module_for`] needs (or the whole of a shorter file):
/// the longest magic a first-bytes probe reads (MSF's 32 bytes).
pub const HEAD_BYTES: usize = 32;

/// The first-bytes probes, in the registry's probe order: the registry's
/// entries whose probe reads nothing past [`HEAD_BYTES`], named as they are.
/// A plain function list, so that a program asking only which module decodes
/// a file (the page) links no decoder.
static HEAD_PROBES: &[(&str, Probe)] = &[
    ("dxcontainer", dxcontainer::probe),
    ("msf", msf::probe),
    ("chapel-dyno", dyno::probe),
    ("llvm1-bytecode", llvm1::probe),
    ("bitcode", bitcode::probe),
];

/// A format's probe (see [`Format::probe`]).
type Probe = fn(&dyn ByteSource) -> bool;

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
/// probe recognises, every format that searches further).
pub fn module_for(head: &[u8], len: u64) -> &'static str {
    let src = Head { bytes: head, len };
    let format = HEAD_PROBES
        .iter()
        .find(|(_, probe)| probe(&src))
        .map(|&(name, _)| name);
    format
        .and_then(|f| MODULES.iter().find(|m| m.formats.contains(&f)))
        .map_or(FALLBACK, |m| m.name)
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
}

impl Format {
    /// The decoder's [`About`].
    pub const fn about(&self) -> About {
        About {
            name: self.name,
            description: self.description,
            extensions: self.extensions,
        }
    }
}

/// [`About`] of every registered decoder, in probe order, evaluated when
/// compiling: it refers to no decoder code.
static CATALOG: &[About] = &[
    dxcontainer::FORMAT.about(),
    msf::FORMAT.about(),
    dyno::FORMAT.about(),
    llvm1::FORMAT.about(),
    bitcode::FORMAT.about(),
    cdac::FORMAT.about(),
    embedded::FORMAT.about(),
];

/// What every registered decoder is, in probe order (see [`About`]).
pub fn catalog() -> &'static [About] {
    CATALOG
}

/// The [`About`] of the decoder called `name`.
pub fn about(name: &str) -> Option<&'static About> {
    CATALOG.iter().find(|f| f.name == name)
}

/// Every registered decoder, in probe order.
pub fn formats() -> &'static [Format] {
    FORMATS
}

/// Finds a decoder by its short name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|f| f.name == name)
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
        [
            ("dxcontainer", cfg!(feature = "dxcontainer")),
            ("msf", cfg!(feature = "msf")),
            ("chapel-dyno", cfg!(feature = "dyno")),
            ("llvm1-bytecode", cfg!(feature = "llvm1")),
            ("bitcode", cfg!(feature = "bitcode")),
            ("cdac", cfg!(feature = "cdac")),
            ("embedded", cfg!(feature = "embedded")),
        ]
        .into_iter()
        .filter(|&(_, on)| on)
        .map(|(name, _)| name)
        .collect()
    }

    /// The modules whose formats this build holds all of (every module in a
    /// test build; the module itself, at least, in a single-module build).
    fn served() -> Vec<&'static Module> {
        let have = compiled();
        MODULES
            .iter()
            .filter(|m| m.formats.iter().all(|f| have.contains(f)))
            .collect()
    }

    #[test]
    fn the_catalog_says_what_the_registry_holds() {
        let have = compiled();
        let names: Vec<&str> = formats().iter().map(|f| f.name).collect();
        assert_eq!(
            names, have,
            "the registry holds the formats of the features on"
        );
        let about: Vec<_> = formats().iter().map(|f| f.about()).collect();
        let listed: Vec<About> = catalog()
            .iter()
            .filter(|a| have.contains(&a.name))
            .copied()
            .collect();
        assert_eq!(listed, about);
        assert_eq!(catalog().len(), 7, "the catalog lists every format");
        assert_eq!(
            super::about("chapel-dyno").map(|a| a.name),
            Some("chapel-dyno")
        );
        assert!(super::about("nope").is_none());
        assert!(
            !served().is_empty(),
            "this build serves no module: {have:?}"
        );
    }

    #[test]
    fn every_format_is_in_one_module_and_the_head_probes_are_the_registrys() {
        for f in catalog() {
            let n = MODULES
                .iter()
                .filter(|m| m.formats.contains(&f.name))
                .count();
            assert_eq!(n, 1, "{} is in {n} modules", f.name);
        }
        assert!(MODULES.iter().any(|m| m.name == FALLBACK));
        assert!(MODULES.iter().any(|m| m.name == SCAN));
        // The head probes are the registry's entries in its order, less those
        // of the fallback and scan modules: all of them in a full build, those
        // of the formats compiled in otherwise.
        let later: Vec<&str> = MODULES
            .iter()
            .filter(|m| m.name == FALLBACK || m.name == SCAN)
            .flat_map(|m| m.formats.iter().copied())
            .collect();
        let head: Vec<&str> = formats()
            .iter()
            .map(|f| f.name)
            .filter(|n| !later.contains(n))
            .collect();
        let probes: Vec<&str> = HEAD_PROBES
            .iter()
            .map(|p| p.0)
            .filter(|n| by_name(n).is_some())
            .collect();
        assert_eq!(head, probes);
        for (name, probe) in HEAD_PROBES {
            if let Some(f) = by_name(name) {
                assert!(std::ptr::fn_addr_eq(f.probe, *probe), "{name}");
            }
        }
        // Every catalogued format that is not searched for later has a head probe.
        let all_head: Vec<&str> = catalog()
            .iter()
            .map(|a| a.name)
            .filter(|n| !later.contains(n))
            .collect();
        let all_probes: Vec<&str> = HEAD_PROBES.iter().map(|p| p.0).collect();
        assert_eq!(all_head, all_probes);
    }

    #[test]
    fn the_module_for_a_file_holds_the_format_that_decodes_it() {
        let cases: &[(&[u8], &str)] = &[
            (b"DXBC\0\0\0\0", "llvm"),
            (b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0", "pdb"),
            (b"Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0", "cdac"),
            (b"BC\xC0\xDE\x35\x14\0\0", "llvm"),
            (b"\xDE\xC0\x17\x0B\0\0\0\0", "llvm"),
            (b"llvm\x01\x02", "llvm"),
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
