//! Formats the user describes: Kaitai Struct `.ksy` files, read and
//! interpreted. [`yaml`] reads the YAML they are written in, keeping where
//! every node is, so an error in a `.ksy` can name its line and column;
//! [`model`] turns it into types, fields and enums with every name
//! resolved; [`expr`] is the expression language; [`interp`] decodes a file
//! with a model into the same tree every format gives.

pub mod encoding;
pub mod expr;
mod inflate;
pub mod interp;
pub mod model;
pub mod yaml;

pub(crate) fn encoding_known(name: &str) -> bool {
    encoding::known(name)
}

use crate::formats::Format;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use model::{compile, Importer, KsyError, NoImports, Spec};

/// Finds imported `.ksy` files on disk: a relative name beside the file
/// that imports it, an absolute one (`/common/riff`) under each folder
/// given, in order.
pub struct DirImporter {
    pub dirs: Vec<PathBuf>,
}

impl Importer for DirImporter {
    fn import(&mut self, name: &str, from: &str) -> Result<(String, String), String> {
        let file = format!("{}.ksy", name.trim_start_matches('/'));
        let candidates: Vec<PathBuf> = if name.starts_with('/') {
            self.dirs.iter().map(|d| d.join(&file)).collect()
        } else {
            let here = Path::new(from).parent().unwrap_or(Path::new("."));
            vec![here.join(&file)]
        };
        for c in &candidates {
            if let Ok(text) = std::fs::read_to_string(c) {
                let key = std::fs::canonicalize(c).unwrap_or_else(|_| c.clone());
                return Ok((key.to_string_lossy().into_owned(), text));
            }
        }
        Err(if candidates.is_empty() {
            format!(
                "cannot import '{name}': an absolute import needs an import folder (--ksy-path)"
            )
        } else {
            format!(
                "cannot import '{name}': no file at {}",
                candidates
                    .iter()
                    .map(|c| c.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }
}

/// Reads a `.ksy` file and what it imports (from `dirs`).
pub fn load_file(path: &Path, dirs: &[PathBuf]) -> Result<Spec, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut imp = DirImporter {
        dirs: dirs.to_vec(),
    };
    compile(&path.to_string_lossy(), &text, &mut imp).map_err(|e| e.to_string())
}

/// The registry entry of a `.ksy` format, named `ksy:<meta/id>` (the
/// entry and its names live as long as the program: made once per format
/// a program uses). `at`: the format applies from that byte of the file.
pub fn format(spec: Spec, at: u64) -> Format {
    let spec = Arc::new(spec);
    let name: &'static str = Box::leak(format!("ksy:{}", spec.id).into_boxed_str());
    let root: &'static str = if at == 0 {
        Box::leak(spec.id.clone().into_boxed_str())
    } else {
        "file"
    };
    let exts: Vec<&'static str> = spec
        .extensions
        .iter()
        .map(|e| &*Box::leak(e.clone().into_boxed_str()))
        .collect();
    let decode: Box<crate::formats::Decode> = Box::new(move |b| interp::decode_at(&spec, b, at));
    Format {
        name,
        root,
        description: "a format described by a Kaitai Struct .ksy file",
        extensions: Box::leak(exts.into_boxed_slice()),
        module: "ksy",
        probe: |_| false,
        head_probe: true,
        embedded: None,
        decode: Box::leak(decode),
    }
}
