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
        let (format, format_description) = match hexlens_core::formats::about(&summary.format) {
            Some(f) => (f.name, f.description),
            // A format the user gave (`ksy:<id>`), not compiled in.
            None if summary.format.starts_with("ksy:") => (
                interned(&summary.format),
                "decoded with a .ksy format you gave",
            ),
            None => ("raw", "no decoder recognised this file"),
        };
        Doc {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            load: self.load,
            bytes: self.bytes.clone(),
            format,
            format_description,
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

/// `name` for the life of the page: one copy of each format name the user's
/// formats give (a handful).
fn interned(name: &str) -> &'static str {
    thread_local! {
        static NAMES: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    NAMES.with(|n| {
        let mut n = n.borrow_mut();
        if let Some(&s) = n.iter().find(|s| **s == name) {
            return s;
        }
        let s: &'static str = Box::leak(name.to_string().into_boxed_str());
        n.push(s);
        s
    })
}
