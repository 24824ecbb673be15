//! Random-access byte sources: what decoders read from.
//!
//! Decoders never hold the whole file; they ask a [`ByteSource`] for the few bytes
//! each field needs. A slice is a source; the browser and the CLI can supply
//! their own (a file, a `File` blob read through a worker).

/// A read-only, random-access sequence of bytes.
pub trait ByteSource {
    /// Total length in bytes.
    fn len(&self) -> u64;

    /// True if the source holds no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies bytes starting at `offset` into `buf` and returns how many were
    /// copied: fewer than `buf.len()` only at the end of the source. A read at or
    /// past the end (any `offset`, up to `u64::MAX`) returns 0 and fails nothing:
    /// every source must accept it. The decoders never ask for one (see
    /// [`clip`]), but a source must not trust that.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize;
}

/// The part of a read of `want` bytes at `offset` that lies inside a source of
/// `len` bytes: how many bytes can be read there (0 at or past the end). Sources
/// and decoders use it so that no read asks for bytes past the end.
pub fn clip(len: u64, offset: u64, want: usize) -> usize {
    let avail = len.saturating_sub(offset);
    usize::try_from(avail).map_or(want, |a| a.min(want))
}

impl ByteSource for &[u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let Ok(start) = usize::try_from(offset) else {
            return 0;
        };
        let Some(avail) = self.get(start..) else {
            return 0;
        };
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        n
    }
}

impl ByteSource for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        self.as_slice().read_at(offset, buf)
    }
}

impl<const N: usize> ByteSource for [u8; N] {
    fn len(&self) -> u64 {
        N as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        self.as_slice().read_at(offset, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_reads_stop_at_the_end() {
        let data: &[u8] = &[1, 2, 3, 4];
        let mut buf = [0u8; 3];
        assert_eq!(data.read_at(2, &mut buf), 2);
        assert_eq!(&buf[..2], &[3, 4]);
        assert_eq!(data.read_at(4, &mut buf), 0);
        assert_eq!(data.read_at(u64::MAX, &mut buf), 0);
    }

    #[test]
    fn clip_gives_what_lies_inside_the_source() {
        assert_eq!(clip(10, 0, 4), 4);
        assert_eq!(clip(10, 8, 4), 2);
        assert_eq!(clip(10, 10, 4), 0);
        assert_eq!(clip(10, u64::MAX, 4), 0);
        assert_eq!(clip(u64::MAX, 0, usize::MAX), usize::MAX);
    }
}
