//! What the decoder ([`super::decode`]) and the readers that run ahead of it
//! share: the abbreviation IDs every reader of entries knows, the page index the
//! skim ([`super::skim`]) makes, and the names of a module's functions and global
//! values the pre-pass ([`super::symbols`]) reads. The decoder and those readers
//! import it; it imports none of them.

use super::abbrev::Abbrev;
use crate::tree::BitSpan;
use std::sync::Arc;

/// Abbreviation ID 0: the end of a block.
pub(super) const END_BLOCK: u64 = 0;
/// Abbreviation ID 1: a block starts.
pub(super) const ENTER_SUBBLOCK: u64 = 1;
/// Abbreviation ID 2: an abbreviation is defined.
pub(super) const DEFINE_ABBREV: u64 = 2;
/// Abbreviation ID 3: a record without an abbreviation.
pub(super) const UNABBREV_RECORD: u64 = 3;

/// Where a page of a body's entries starts and what decoding it needs to know.
#[derive(Clone, Debug)]
pub(crate) struct PageMark {
    /// Index of the page's first entry in the body.
    pub index: u32,
    /// Absolute bit of that entry's abbreviation ID.
    pub bit: u64,
    /// Abbreviations in force there (BLOCKINFO's for the block, then those the
    /// body defined before the entry).
    pub abbrevs: Vec<Arc<Abbrev>>,
}

/// A body's pages, as [`Decoder::skim_pages`] found them.
#[derive(Debug)]
pub(crate) struct Pages {
    /// One mark per page, in order.
    pub marks: Vec<PageMark>,
    /// Entries of the body before its `END_BLOCK`.
    pub entries: u64,
    /// Bit where the body's `END_BLOCK` ends it.
    pub end: u64,
}

/// The pages of bodies, found by one skim of the whole stream, by the bit each
/// body starts at; a body that is not there is not paged.
pub(crate) type PageIndex = std::collections::HashMap<u64, Arc<Pages>>;

/// What the pre-pass learnt about one module.
#[derive(Debug, Default)]
pub(crate) struct ModuleNames {
    /// The name of each function with a body, in record order: the function
    /// the module's `FUNCTION_BLOCK`s hold, in order.
    pub(super) functions: Vec<Option<Arc<str>>>,
    /// Before `VERSION` 2: the symbol table's name of each global value, by
    /// value ID, and the bits of the symbol-table record that gives it.
    pub(super) values: Vec<Option<(Arc<str>, BitSpan)>>,
}

impl ModuleNames {
    /// The name of the function the module's `k`-th `FUNCTION_BLOCK` holds.
    pub(super) fn function(&self, k: u64) -> Option<Arc<str>> {
        self.functions.get(usize::try_from(k).ok()?)?.clone()
    }

    /// The symbol table's name of global value `id` (before `VERSION` 2) and
    /// the bits of the record that gives it.
    pub(super) fn value(&self, id: u64) -> Option<(Arc<str>, BitSpan)> {
        let (name, span) = self.values.get(usize::try_from(id).ok()?)?.as_ref()?;
        Some((Arc::clone(name), *span))
    }
}
