//! Little-endian base-128 integers (LEB128; LLVM 1.x calls them vbr, Chapel's
//! `.dyno` files variable-byte integers, the messages between hexlens's page and workers use them):
//! seven bits a byte, least significant first, the high bit set on every byte
//! but the last. One reader for every decoder; what each accepts is its own
//! policy, applied to what [`scan`] reports:
//!
//! | reader | longest | a value past 64 bits | more |
//! |---|---|---|---|
//! | `.dyno` (`chapel_dyno::prim`) | [`MAX_LEN`] | flagged, low bits kept | longer-than-needed forms shown as read |
//! | LLVM 1.x (`llvm1_bytecode::vbr`, its skim) | [`MAX_LEN`] | an error | a longer run is measured to its end for the error |
//! | wasm `u32` (cDAC's container scan) | 5 bytes | — | over `u32::MAX` refused |
//! | request and answer data (`protocol`) | [`MAX_LEN`] | refused | — |

/// Bytes that can encode any 64-bit value (10 · 7 = 70 bits).
pub const MAX_LEN: u64 = 10;

/// What [`scan`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scanned {
    /// Bytes read: through the final byte if `terminated`, else every byte given.
    pub len: u64,
    /// True if a final byte (high bit clear) was among the bytes given.
    pub terminated: bool,
    /// The low 64 bits of the number the first [`MAX_LEN`] bytes encode.
    pub value: u64,
    /// True if those bytes set a bit past the 64th.
    pub overflow: bool,
}

impl Scanned {
    /// The value, if the integer ended, within [`MAX_LEN`] bytes, and fits 64 bits.
    pub fn fits(&self) -> Option<u64> {
        (self.terminated && self.len <= MAX_LEN && !self.overflow).then_some(self.value)
    }
}

/// Reads one integer from the start of `bytes`, up to and including its final
/// byte (however long the run before it: the caller bounds what it gives).
pub fn scan(bytes: impl IntoIterator<Item = u8>) -> Scanned {
    let mut s = Scanned {
        len: 0,
        terminated: false,
        value: 0,
        overflow: false,
    };
    for c in bytes {
        let part = u64::from(c & 0x7F);
        if s.len < MAX_LEN {
            let shift = 7 * s.len as u32;
            s.value |= part << shift;
            // Bits the shift pushed past 64 (only the tenth byte can).
            if shift > 57 && part >> (64 - shift) != 0 {
                s.overflow = true;
            }
        }
        s.len += 1;
        if c & 0x80 == 0 {
            s.terminated = true;
            break;
        }
    }
    s
}

/// Appends the shortest encoding of `v`.
pub fn encode(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// The signed value a ZigZag-encoded `u` stands for (0, -1, 1, -2, … for 0, 1, 2, 3, …).
pub fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// The ZigZag encoding of `s` (the inverse of [`unzigzag`]).
pub fn zigzag(s: i64) -> u64 {
    ((s << 1) ^ (s >> 63)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_and_the_64_bit_edge_round_trip() {
        for v in [
            0,
            1,
            127,
            128,
            300,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut out = Vec::new();
            encode(v, &mut out);
            let s = scan(out.iter().copied());
            assert_eq!((s.fits(), s.len), (Some(v), out.len() as u64), "{v}");
        }
        for s in [0i64, -1, 1, -2, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(s)), s);
        }
    }

    #[test]
    fn unterminated_overlong_and_overflowing_runs_are_told_apart() {
        // Ends with the bytes: not terminated, every byte read.
        let s = scan([0x80, 0x80]);
        assert_eq!((s.terminated, s.len, s.fits()), (false, 2, None));
        // A longer-than-needed form of 0 is still 0.
        assert_eq!(scan([0x80, 0x80, 0x00]).fits(), Some(0));
        // Eleven bytes: terminated, measured to its end, too long.
        let mut long = vec![0x80; 10];
        long.push(0x01);
        let s = scan(long);
        assert_eq!((s.terminated, s.len, s.fits()), (true, 11, None));
        // Ten bytes whose last sets bit 64: overflow, low bits kept.
        let mut big = vec![0xFF; 9];
        big.push(0x02);
        let s = scan(big);
        assert!(s.terminated && s.overflow && s.fits().is_none());
        assert_eq!(s.value, u64::MAX >> 1);
    }
}
