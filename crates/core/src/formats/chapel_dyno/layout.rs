//! The three module-section layouts a `.dyno` file with format version 0.1 can
//! follow, and how a file is told to follow one of them.
//!
//! * **spec** — `chapel-dyno.md`: a 128-byte module header with seven start/end
//!   pairs (symbol table, uAST, long strings, locations, types, functions,
//!   dependencies), sections padded to 8 bytes, no generated-code region.
//! * **writer** — Chapel's `LibraryFileWriter.cpp` (2024): a 96-byte header with five
//!   start/end pairs (symbol table, uAST, long strings, locations, generated code),
//!   sections written in the order uAST, long strings, locations, symbol table,
//!   generated code, each padded to 16 bytes.
//! * **writer-2023** — the 2021–2023 writer (`LibraryFileFormat.h` @0ca2cc43): an
//!   80-byte header (magic, flags, length, seven single offsets), a module table
//!   without the end offset, 12-byte symbol entries and a 24-byte uAST header.
//!
//! All three write the same file header and version number, so the module header
//! decides ([`detect`]): its word at +16 is the module length in the 2023 header but
//! the first region's start in the others (start ≤ end), and the writer's fifth
//! region starts with the generated-code magic where the spec has its types region.

use super::prim::{peek_u64, GEN_CODE_MAGIC, MODULE_MAGIC};
use crate::builder::Builder;

/// A module-section layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    /// The layout `chapel-dyno.md` describes.
    Spec,
    /// The layout Chapel's 2024 writer produces.
    Writer,
    /// The layout of the 2021–2023 writer.
    Writer2023,
}

/// A section a module header can point to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sect {
    SymbolTable,
    Uast,
    LongStrings,
    Locations,
    Types,
    Functions,
    Dependencies,
    GenCode,
}

impl Sect {
    /// Node name of the section (and of its entry in the module header).
    pub fn name(self) -> &'static str {
        match self {
            Sect::SymbolTable => "SymbolTable",
            Sect::Uast => "Uast",
            Sect::LongStrings => "LongStrings",
            Sect::Locations => "Locations",
            Sect::Types => "Types",
            Sect::Functions => "Functions",
            Sect::Dependencies => "Dependencies",
            Sect::GenCode => "GeneratedCode",
        }
    }
}

impl Layout {
    /// Short stable name (the value of the `Layout` node).
    pub fn name(self) -> &'static str {
        match self {
            Layout::Spec => "spec",
            Layout::Writer => "writer",
            Layout::Writer2023 => "writer-2023",
        }
    }

    /// One line saying what the layout is.
    pub fn describe(self) -> &'static str {
        match self {
            Layout::Spec => "the spec's layout (128-byte module header, 7 start/end pairs, 8-byte alignment)",
            Layout::Writer => "Chapel's writer (2024; 96-byte module header, 5 start/end pairs with generated code, 16-byte alignment)",
            Layout::Writer2023 => "Chapel's 2021-2023 writer (80-byte module header: length and 7 single offsets, 16-byte alignment)",
        }
    }

    /// A few words naming who wrote the layout (for the root's display).
    pub fn short(self) -> &'static str {
        match self {
            Layout::Spec => "chapel-dyno.md",
            Layout::Writer => "Chapel's 2024 writer",
            Layout::Writer2023 => "Chapel's 2021-2023 writer",
        }
    }

    /// Alignment of module sections (file offsets).
    pub fn align(self) -> u64 {
        match self {
            Layout::Spec => 8,
            _ => 16,
        }
    }

    /// The module header's fixed part (before the two strings).
    pub fn header_size(self) -> u64 {
        match self {
            Layout::Spec => 128,
            Layout::Writer => 96,
            Layout::Writer2023 => 80,
        }
    }

    /// True if the module table ends with the offset just after the last module.
    pub fn table_has_end(self) -> bool {
        self != Layout::Writer2023
    }

    /// The sections the module header lists, in header order.
    pub fn sections(self) -> &'static [Sect] {
        match self {
            Layout::Writer => &[
                Sect::SymbolTable,
                Sect::Uast,
                Sect::LongStrings,
                Sect::Locations,
                Sect::GenCode,
            ],
            _ => &[
                Sect::SymbolTable,
                Sect::Uast,
                Sect::LongStrings,
                Sect::Locations,
                Sect::Types,
                Sect::Functions,
                Sect::Dependencies,
            ],
        }
    }
}

/// True if a module header whose words at +16 and +24 are `w16` and `w24`
/// follows the 2021–2023 layout: there +16 holds the module's length, larger
/// than the next word; in the others it starts a start/end pair (start ≤ end).
/// [`detect`] decides with it, and so does the extent of a file found inside
/// another (`super::extent`).
pub(super) fn is_2023_header(w16: u64, w24: u64) -> bool {
    w16 > w24
}

/// The outcome of [`detect`].
#[derive(Clone, Debug)]
pub struct Detection {
    /// The layout the file is decoded with.
    pub layout: Layout,
    /// How it was told (or why it could not be).
    pub evidence: String,
    /// Absolute offset of the module header the decision rests on.
    pub module: Option<u64>,
}

/// Decides the layout from the first module header (among `offsets`) that carries
/// the module magic. Never fails: a file without one is read as the writer's layout
/// and the evidence says so.
pub fn detect(b: &Builder, offsets: &[u64], n_modules: u64) -> Detection {
    if n_modules == 0 {
        return Detection {
            layout: Layout::Writer,
            evidence: "the file holds no modules, so no module header tells the layouts apart; the file header reads the same in all of them".into(),
            module: None,
        };
    }
    let Some(&m) = offsets
        .iter()
        .find(|&&m| peek_u64(b, m) == Some(MODULE_MAGIC))
    else {
        return Detection {
            layout: Layout::Writer,
            evidence: "no module-table entry points at a module header with the module magic 0x4D4DD01E5EC14D4D; read as the writer's layout".into(),
            module: None,
        };
    };
    let word = |rel: u64| peek_u64(b, m.saturating_add(rel));
    let room = b.file_len().saturating_sub(m);
    let (Some(w16), Some(w24)) = (word(16), word(24)) else {
        return Detection {
            layout: Layout::Writer,
            evidence: format!("the module header at 0x{m:X} is cut short by the end of the file; read as the writer's layout"),
            module: Some(m),
        };
    };
    if is_2023_header(w16, w24) {
        return Detection {
            layout: Layout::Writer2023,
            evidence: format!(
                "module header at 0x{m:X}: its word at +16 (0x{w16:X}) is larger than the word at +24 (0x{w24:X}), so it is not the start of a start/end pair; it is the module length of the 2021-2023 header (magic, flags, length, then single offsets)"
            ),
            module: Some(m),
        };
    }
    if let (Some(gs), Some(ge)) = (word(80), word(88)) {
        if gs <= ge && peek_u64(b, m.saturating_add(gs)) == Some(GEN_CODE_MAGIC) {
            return Detection {
                layout: Layout::Writer,
                evidence: format!(
                    "module header at 0x{m:X}: start/end pairs from +16, and the fifth pair (+80) points at a section starting with the generated-code magic 0x4E4547075EC110E0: the writer's five regions, not the spec's types section"
                ),
                module: Some(m),
            };
        }
    }
    let pairs_ok = (0..7u64).all(|k| match (word(16 + 16 * k), word(24 + 16 * k)) {
        (Some(s), Some(e)) => s <= e && e <= room && (s == e || s >= 128),
        _ => false,
    });
    let strings_ok = || {
        let Some((l1, n1)) = super::prim::peek_varint(b, m + 128, m + room) else {
            return false;
        };
        let next = (m + 128 + n1).saturating_add(l1);
        next < m + room && super::prim::peek_varint(b, next, m + room).is_some()
    };
    if pairs_ok && strings_ok() {
        return Detection {
            layout: Layout::Spec,
            evidence: format!(
                "module header at 0x{m:X}: start/end pairs from +16, no generated-code magic where the fifth pair points, and +96..+128 hold two more valid pairs followed by the module name string: the spec's seven regions"
            ),
            module: Some(m),
        };
    }
    Detection {
        layout: Layout::Writer,
        evidence: format!(
            "module header at 0x{m:X}: start/end pairs from +16, but neither a generated-code section at the fifth pair nor valid pairs at +96..+128; read as the writer's five regions"
        ),
        module: Some(m),
    }
}
