//! An opened file as the page knows it: its bytes, and what the decode worker
//! said about it. The page keeps no copy of the tree; it asks the worker for
//! what it shows (see [`crate::state`]).

use crate::bytes::FileBytes;
use hexlens_core::protocol::{NodeInfo, Summary};
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_ID: AtomicU32 = AtomicU32::new(1);

/// An opened file. Shared behind `Rc`; two `Doc`s are equal only if they are
/// the same value (decoding finishing makes a new `Doc`).
#[derive(Debug)]
pub struct Doc {
    /// Distinguishes `Doc` values (so re-opening the same file still refreshes the view).
    pub id: u32,
    /// The load this belongs to: the decode worker's job number for the file.
    pub load: u32,
    /// The file's bytes.
    pub bytes: Rc<FileBytes>,
    /// The decoder used (`raw` if none recognised the file).
    pub format: &'static str,
    /// The decoder's one-line description.
    pub format_description: &'static str,
    /// What the worker said once it decoded the file (`None` while decoding).
    pub summary: Option<Summary>,
}

impl PartialEq for Doc {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

/// Name of the placeholder root shown while a file is being decoded.
pub const PENDING_ROOT: &str = "file";

impl Doc {
    /// The doc shown while `bytes` is being decoded: the bytes alone.
    pub fn pending(bytes: Rc<FileBytes>, load: u32) -> Self {
        Doc {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            load,
            bytes,
            format: "raw",
            format_description: "decoding…",
            summary: None,
        }
    }

    /// This doc once the worker decoded it.
    pub fn decoded(&self, summary: Summary) -> Self {
        let f = hexlens_core::formats::about(&summary.format);
        Doc {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            load: self.load,
            bytes: self.bytes.clone(),
            format: f.map(|f| f.name).unwrap_or("raw"),
            format_description: f
                .map(|f| f.description)
                .unwrap_or("no decoder recognised this file"),
            summary: Some(summary),
        }
    }

    /// False while the decoder is still working on the file.
    pub fn is_decoded(&self) -> bool {
        self.summary.is_some()
    }

    /// The root's description, once decoded.
    pub fn root(&self) -> Option<&NodeInfo> {
        self.summary.as_ref().map(|s| &s.root)
    }

    /// True if no decoder recognised the file (known only once decoded).
    pub fn is_raw(&self) -> bool {
        self.is_decoded() && self.format == "raw"
    }
}
