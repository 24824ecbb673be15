//! The one place the page reads file bytes from.
//!
//! Everything that shows bytes (hex rows, the data inspector) goes through
//! [`FileBytes`]. In the browser a dropped file stays a `Blob` on disk: only the
//! pages in view are read (asynchronously) and kept in a bounded [`PageCache`],
//! so a 4 GiB file costs the page a few megabytes. Natively (tests) the bytes are
//! held in memory.
//!
//! A window that is not loaded yet is `None`; asking for it starts the reads, and
//! the `on_loaded` callback given at creation fires when they land so the view
//! can draw again.

#[cfg(target_arch = "wasm32")]
use crate::pages::PageCache;
use hexlens_core::ByteSource;
#[cfg(target_arch = "wasm32")]
use std::cell::RefCell;
use std::rc::Rc;

/// Pages the page keeps (64 KiB each): 4 MiB.
pub const PAGE_CACHE_PAGES: usize = 64;

enum Store {
    /// All bytes in memory.
    Memory(Rc<[u8]>),
    /// A `Blob` read a page at a time.
    #[cfg(target_arch = "wasm32")]
    Blob(BlobPages),
}

#[cfg(target_arch = "wasm32")]
struct BlobPages {
    blob: web_sys::Blob,
    cache: Rc<RefCell<PageCache>>,
    /// Pages being read (a few at a time: those of the window on screen).
    pending: Rc<RefCell<Vec<u64>>>,
    on_loaded: Rc<dyn Fn()>,
}

/// An opened file: its name and a way to read its bytes.
pub struct FileBytes {
    name: String,
    len: u64,
    store: Store,
}

impl std::fmt::Debug for FileBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileBytes")
            .field("name", &self.name)
            .field("len", &self.len)
            .finish()
    }
}

impl FileBytes {
    /// Wraps bytes held in memory.
    pub fn new(name: impl Into<String>, data: Vec<u8>) -> Self {
        FileBytes {
            name: name.into(),
            len: data.len() as u64,
            store: Store::Memory(data.into()),
        }
    }

    /// Reads `blob` lazily, a page at a time; `on_loaded` runs when requested
    /// pages arrive.
    #[cfg(target_arch = "wasm32")]
    pub fn from_blob(
        name: impl Into<String>,
        blob: web_sys::Blob,
        on_loaded: Rc<dyn Fn()>,
    ) -> Self {
        let len = blob.size() as u64;
        FileBytes {
            name: name.into(),
            len,
            store: Store::Blob(BlobPages {
                blob,
                cache: Rc::new(RefCell::new(PageCache::new(len, PAGE_CACHE_PAGES))),
                pending: Rc::default(),
                on_loaded,
            }),
        }
    }

    /// The `Blob` behind this file, if it is one.
    #[cfg(target_arch = "wasm32")]
    pub fn blob(&self) -> Option<&web_sys::Blob> {
        match &self.store {
            Store::Blob(b) => Some(&b.blob),
            Store::Memory(_) => None,
        }
    }

    /// The file's name as the user gave it (text only: never rendered as HTML).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes in `[start, end)`, clipped to the file (shorter or empty at the
    /// end), or `None` while they are being read.
    pub fn window(&self, start: u64, end: u64) -> Option<Vec<u8>> {
        match &self.store {
            Store::Memory(d) => {
                let len = d.len();
                let s = usize::try_from(start).unwrap_or(len).min(len);
                let e = usize::try_from(end).unwrap_or(len).clamp(s, len);
                Some(d[s..e].to_vec())
            }
            #[cfg(target_arch = "wasm32")]
            Store::Blob(b) => {
                let w = b.cache.borrow_mut().window(start, end);
                if w.is_none() {
                    b.load(start, end);
                }
                w
            }
        }
    }

    /// Pages (of [`crate::pages::PAGE`] bytes) held in memory right now.
    pub fn held_bytes(&self) -> u64 {
        match &self.store {
            Store::Memory(d) => d.len() as u64,
            #[cfg(target_arch = "wasm32")]
            Store::Blob(b) => b.cache.borrow().held_bytes(),
        }
    }

    /// The byte at `offset`: `Some(None)` if it is inside the file but not read
    /// yet, `None` if it is past the end.
    pub fn byte(&self, offset: u64) -> Option<Option<u8>> {
        if offset >= self.len {
            return None;
        }
        Some(
            self.window(offset, offset + 1)
                .and_then(|w| w.first().copied()),
        )
    }
}

#[cfg(target_arch = "wasm32")]
impl BlobPages {
    /// Starts reading the pages of `[start, end)` that are neither held nor
    /// already being read.
    fn load(&self, start: u64, end: u64) {
        let missing = self.cache.borrow().missing(start, end);
        for n in missing {
            if self.pending.borrow().contains(&n) {
                continue;
            }
            self.pending.borrow_mut().push(n);
            let (s, e) = self.cache.borrow().page_range(n);
            let slice = self.blob.slice_with_f64_and_f64(s as f64, e as f64);
            let cache = self.cache.clone();
            let pending = self.pending.clone();
            let on_loaded = self.on_loaded.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let got = match slice {
                    Ok(sl) => wasm_bindgen_futures::JsFuture::from(sl.array_buffer())
                        .await
                        .ok()
                        .map(|buf| js_sys::Uint8Array::new(&buf).to_vec()),
                    Err(_) => None,
                };
                pending.borrow_mut().retain(|&p| p != n);
                if let Some(v) = got {
                    cache.borrow_mut().insert(n, v.into());
                    on_loaded();
                }
            });
        }
    }
}

/// Bytes held in memory read directly; a `Blob` cannot be read synchronously
/// on the page (the decode worker reads it its own way), so it reads as empty.
impl ByteSource for FileBytes {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        match &self.store {
            Store::Memory(d) => (&d[..]).read_at(offset, buf),
            #[cfg(target_arch = "wasm32")]
            Store::Blob(_) => 0,
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn windows_are_clipped_to_the_file() {
        let f = FileBytes::new("x", vec![1, 2, 3]);
        assert_eq!(f.window(1, 10).unwrap(), &[2, 3]);
        assert_eq!(f.window(5, 10).unwrap(), &[] as &[u8]);
        assert_eq!(f.window(2, 1).unwrap(), &[] as &[u8]);
        assert_eq!(f.window(u64::MAX, u64::MAX).unwrap(), &[] as &[u8]);
        assert_eq!(f.byte(2), Some(Some(3)));
        assert_eq!(f.byte(3), None);
    }
}
