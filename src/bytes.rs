//! The one place the app reads file bytes from.
//!
//! Everything that shows or inspects bytes (hex rows, the data inspector, the
//! decoder) goes through [`FileBytes`], so a later change that keeps big files on
//! disk and reads windows lazily (from a `Blob` in a Web Worker) only has to swap
//! this struct's internals, not its callers.

use hexlens_core::ByteSource;

/// An opened file: its name and its bytes (held in memory for now).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBytes {
    name: String,
    data: Vec<u8>,
}

impl FileBytes {
    /// Wraps the bytes of a file called `name`.
    pub fn new(name: impl Into<String>, data: Vec<u8>) -> Self {
        FileBytes {
            name: name.into(),
            data,
        }
    }

    /// The file's name as the user gave it (text only: never rendered as HTML).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The bytes in `[start, end)`, clipped to the file: shorter (or empty) at the end.
    pub fn window(&self, start: u64, end: u64) -> &[u8] {
        let len = self.data.len();
        let s = usize::try_from(start).unwrap_or(len).min(len);
        let e = usize::try_from(end).unwrap_or(len).clamp(s, len);
        &self.data[s..e]
    }

    /// The byte at `offset`, if inside the file.
    pub fn byte(&self, offset: u64) -> Option<u8> {
        usize::try_from(offset)
            .ok()
            .and_then(|i| self.data.get(i).copied())
    }
}

impl ByteSource for FileBytes {
    fn len(&self) -> u64 {
        FileBytes::len(self)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        self.data.as_slice().read_at(offset, buf)
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn windows_are_clipped_to_the_file() {
        let f = FileBytes::new("x", vec![1, 2, 3]);
        assert_eq!(f.window(1, 10), &[2, 3]);
        assert_eq!(f.window(5, 10), &[] as &[u8]);
        assert_eq!(f.window(2, 1), &[] as &[u8]);
        assert_eq!(f.window(u64::MAX, u64::MAX), &[] as &[u8]);
        assert_eq!(f.byte(2), Some(3));
        assert_eq!(f.byte(3), None);
    }
}
