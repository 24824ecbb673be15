//! A bitstream read as records, without a tree: for readers that need what the
//! records say (the LLVM module reader of `hexlens dis`), not where each field
//! lies. Blocks, abbreviation definitions, BLOCKINFO and the three record
//! encodings are handled as LLVM's "LLVM Bitcode File Format" document gives
//! them; each record keeps the bits it spans, so text made from it can point
//! back at it.
//!
//! Nothing here panics or allocates more than the stream can hold: counts are
//! checked against the bits left before anything is reserved, and every read
//! past a block's end is an error.

use super::abbrev::Encoding;
use std::collections::HashMap;
use std::rc::Rc;

/// Abbreviation IDs every block knows.
const END_BLOCK: u64 = 0;
const ENTER_SUBBLOCK: u64 = 1;
const DEFINE_ABBREV: u64 = 2;
const UNABBREV_RECORD: u64 = 3;

/// The BLOCKINFO block's ID and its `SETBID` record.
const BLOCKINFO: u64 = 0;
const SETBID: u64 = 1;

/// An abbreviation: its operands' encodings (operand 0 gives the code).
type Abbrev = Rc<[Encoding]>;

/// One record: its code, its operands (arrays flattened in place, a blob
/// left out), where its blob's bytes lie, and the bits it spans.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub code: u64,
    pub ops: Vec<u64>,
    /// Byte offset (in the stream's bytes) and length of the blob.
    pub blob: Option<(usize, usize)>,
    /// Bits `[start, end)` of the record, abbreviation ID included.
    pub bits: (u64, u64),
}

/// A block met in a body: its ID, abbreviation width, and the bits of its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub id: u64,
    pub width: u64,
    /// First bit of the body (after the header and its alignment).
    pub body: u64,
    /// Bit just past the block (its `NumWords` counted from `body`).
    pub end: u64,
    /// First bit of the block's `ENTER_SUBBLOCK`.
    pub start: u64,
}

/// What comes next in a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Record(Record),
    Block(Block),
    /// The block's `END_BLOCK` (or the end of a top-level stream).
    End,
}

/// A place in a block's body: where the next entry starts, and the
/// abbreviations in force there.
#[derive(Clone, Debug)]
pub struct Cursor {
    pub pos: u64,
    pub end: u64,
    pub width: u64,
    pub block: u64,
    abbrevs: Vec<Abbrev>,
}

/// The bytes of a bitstream (after its magic, or including it: offsets are
/// bits from the first byte given) and the BLOCKINFO abbreviations read so far.
pub struct Stream<'a> {
    data: &'a [u8],
    info: HashMap<u64, Vec<Abbrev>>,
    /// How many BLOCKINFO blocks have been read.
    infos: u32,
}

/// The BLOCKINFO abbreviations a stream has read: what a block entered
/// later, from another [`Stream`] over the same bytes, needs.
#[derive(Clone, Debug, Default)]
pub struct BlockInfo(HashMap<u64, Vec<Abbrev>>);

impl<'a> Stream<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Stream {
            data,
            info: HashMap::new(),
            infos: 0,
        }
    }

    /// A stream over `data` that knows the BLOCKINFO abbreviations `info`
    /// (taken from another stream over the same bytes).
    pub fn with_blockinfo(data: &'a [u8], info: &BlockInfo) -> Self {
        Stream {
            data,
            info: info.0.clone(),
            infos: 0,
        }
    }

    /// The BLOCKINFO abbreviations read so far.
    pub fn block_info(&self) -> BlockInfo {
        BlockInfo(self.info.clone())
    }

    /// How many BLOCKINFO blocks have been read (what changes when
    /// [`Stream::block_info`] may).
    pub fn blockinfo_reads(&self) -> u32 {
        self.infos
    }

    /// The stream's bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// A cursor over top-level entries from bit `pos` (abbreviation width 2).
    pub fn top(&self, pos: u64) -> Cursor {
        Cursor {
            pos,
            end: self.data.len() as u64 * 8,
            width: 2,
            block: u64::MAX,
            abbrevs: Vec::new(),
        }
    }

    /// A cursor at the start of `b`'s body, with the BLOCKINFO abbreviations
    /// for its ID.
    pub fn enter(&self, b: &Block) -> Cursor {
        Cursor {
            pos: b.body,
            end: b.end,
            width: b.width,
            block: b.id,
            abbrevs: self.info.get(&b.id).cloned().unwrap_or_default(),
        }
    }

    /// `n` bits at bit `pos` (`n` ≤ 64), if they lie before `end`.
    // Inlined even where the build is for size: the hot path of every read.
    #[inline(always)]
    fn bits(&self, pos: u64, n: u64, end: u64) -> Option<u64> {
        if n == 0 {
            return Some(0);
        }
        if n > 64 || pos.checked_add(n)? > end {
            return None;
        }
        // Most fields: one unaligned little-endian load of the eight bytes
        // the field starts in.
        let at = (pos / 8) as usize;
        let off = pos % 8;
        if n + off <= 64 {
            if let Some(w) = self.data.get(at..at + 8) {
                let w = u64::from_le_bytes(w.try_into().ok()?) >> off;
                return Some(if n == 64 { w } else { w & ((1 << n) - 1) });
            }
        }
        let mut v = 0u64;
        let mut got = 0;
        let mut p = pos;
        while got < n {
            let byte = *self.data.get((p / 8) as usize)? as u64;
            let off = p % 8;
            let take = (8 - off).min(n - got);
            v |= ((byte >> off) & ((1 << take) - 1)) << got;
            got += take;
            p += take;
        }
        Some(v)
    }

    // Inlined even where the build is for size: the hot path of every read.
    #[inline(always)]
    fn fixed(&self, c: &mut Cursor, n: u64) -> Result<u64, String> {
        let v = self
            .bits(c.pos, n, c.end)
            .ok_or_else(|| format!("the block ends inside a {n}-bit field at bit {}", c.pos))?;
        c.pos += n;
        Ok(v)
    }

    // Inlined even where the build is for size: the hot path of every read.
    #[inline(always)]
    fn vbr(&self, c: &mut Cursor, n: u64) -> Result<u64, String> {
        if !(2..=32).contains(&n) {
            return Err(format!("a vbr({n}) field"));
        }
        let hi = 1u64 << (n - 1);
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let chunk = self.fixed(c, n)?;
            if shift < 64 {
                v |= (chunk & (hi - 1)) << shift;
            }
            if chunk & hi == 0 {
                return Ok(v);
            }
            shift += n - 1;
            if shift > 70 {
                return Err(format!("a vbr field longer than 64 bits at bit {}", c.pos));
            }
        }
    }

    fn align32(c: &mut Cursor) {
        c.pos = c.pos.div_ceil(32) * 32;
    }

    /// The next entry of the body `c` stands in. BLOCKINFO blocks are read
    /// (their abbreviations registered) and passed over; abbreviation
    /// definitions are taken in.
    pub fn next(&mut self, c: &mut Cursor) -> Result<Entry, String> {
        loop {
            if c.pos >= c.end || (c.block == u64::MAX && c.end - c.pos < c.width.max(32)) {
                return Ok(Entry::End);
            }
            let start = c.pos;
            let width = c.width;
            let id = self.fixed(c, width)?;
            match id {
                END_BLOCK => {
                    Self::align32(c);
                    return Ok(Entry::End);
                }
                ENTER_SUBBLOCK => {
                    let block = self.vbr(c, 8)?;
                    let width = self.vbr(c, 4)?;
                    Self::align32(c);
                    let words = self.fixed(c, 32)?;
                    let body = c.pos;
                    let end = body
                        .checked_add(words.saturating_mul(32))
                        .filter(|&e| e <= c.end)
                        .ok_or_else(|| {
                            format!(
                                "block {block} at bit {start} runs past its parent ({words} words)"
                            )
                        })?;
                    if width == 0 || width > 32 {
                        return Err(format!("block {block}: abbreviation width {width}"));
                    }
                    let b = Block {
                        id: block,
                        width,
                        body,
                        end,
                        start,
                    };
                    c.pos = end;
                    if block == BLOCKINFO {
                        self.blockinfo(&b)?;
                        continue;
                    }
                    return Ok(Entry::Block(b));
                }
                DEFINE_ABBREV => {
                    let a = self.define(c)?;
                    c.abbrevs.push(a);
                }
                UNABBREV_RECORD => {
                    let code = self.vbr(c, 6)?;
                    let n = self.vbr(c, 6)?;
                    // Each operand takes at least 6 bits.
                    if n > (c.end - c.pos) / 6 {
                        return Err(format!("a record of {n} operands runs past its block"));
                    }
                    let mut ops = Vec::with_capacity(n as usize);
                    for _ in 0..n {
                        ops.push(self.vbr(c, 6)?);
                    }
                    return Ok(Entry::Record(Record {
                        code,
                        ops,
                        blob: None,
                        bits: (start, c.pos),
                    }));
                }
                k => {
                    let a =
                        c.abbrevs.get((k - 4) as usize).cloned().ok_or_else(|| {
                            format!("abbreviation {k} is not defined (bit {start})")
                        })?;
                    let mut r = self.abbreviated(c, &a)?;
                    r.bits = (start, c.pos);
                    return Ok(Entry::Record(r));
                }
            }
        }
    }

    /// Reads a `DEFINE_ABBREV` after its ID.
    fn define(&self, c: &mut Cursor) -> Result<Abbrev, String> {
        let n = self.vbr(c, 5)?;
        if n > (c.end - c.pos) {
            return Err("an abbreviation of more operands than bits".into());
        }
        let mut ops = Vec::with_capacity(n as usize);
        let mut k = 0;
        while k < n {
            let literal = self.fixed(c, 1)? == 1;
            let e = if literal {
                Encoding::Literal(self.vbr(c, 8)?)
            } else {
                match self.fixed(c, 3)? {
                    1 => Encoding::Fixed(self.vbr(c, 5)?),
                    2 => Encoding::Vbr(self.vbr(c, 5)?),
                    3 => Encoding::Array,
                    4 => Encoding::Char6,
                    5 => Encoding::Blob,
                    e => return Err(format!("abbreviation operand encoding {e}")),
                }
            };
            if let Encoding::Fixed(w) | Encoding::Vbr(w) = e {
                if w > 64 {
                    return Err(format!("an abbreviation field of {w} bits"));
                }
            }
            ops.push(e);
            k += 1;
        }
        if ops.is_empty() {
            return Err("an abbreviation without operands".into());
        }
        Ok(ops.into())
    }

    fn scalar(&self, c: &mut Cursor, e: Encoding) -> Result<u64, String> {
        match e {
            Encoding::Literal(v) => Ok(v),
            Encoding::Fixed(w) => self.fixed(c, w),
            Encoding::Vbr(0) => Ok(0),
            Encoding::Vbr(w) => self.vbr(c, w),
            Encoding::Char6 => self.fixed(c, 6).map(|v| u64::from(super::abbrev::char6(v))),
            Encoding::Array | Encoding::Blob => {
                Err("an array or blob where a value belongs".into())
            }
        }
    }

    fn abbreviated(&self, c: &mut Cursor, a: &[Encoding]) -> Result<Record, String> {
        // The first value is the record's code, the rest its operands.
        let mut code: Option<u64> = None;
        let mut vals: Vec<u64> = Vec::with_capacity(a.len());
        let mut put = |v: u64, vals: &mut Vec<u64>| {
            if code.is_none() {
                code = Some(v);
            } else {
                vals.push(v);
            }
        };
        let mut blob = None;
        let mut i = 0;
        while i < a.len() {
            match a[i] {
                Encoding::Array => {
                    let elt = *a
                        .get(i + 1)
                        .ok_or("an array without its element encoding")?;
                    let n = self.vbr(c, 6)?;
                    let min = match elt {
                        Encoding::Fixed(w) | Encoding::Vbr(w) => w.max(1),
                        Encoding::Char6 => 6,
                        _ => return Err("an array of arrays or blobs".into()),
                    };
                    if n > (c.end - c.pos) / min {
                        return Err(format!("an array of {n} elements runs past its block"));
                    }
                    vals.reserve(n as usize);
                    for _ in 0..n {
                        put(self.scalar(c, elt)?, &mut vals);
                    }
                    i += 2;
                }
                Encoding::Blob => {
                    let n = self.vbr(c, 6)?;
                    Self::align32(c);
                    let at = c.pos / 8;
                    let bits = n.saturating_mul(8);
                    if bits > c.end - c.pos {
                        return Err(format!("a blob of {n} bytes runs past its block"));
                    }
                    c.pos += bits;
                    Self::align32(c);
                    blob = Some((at as usize, n as usize));
                    i += 1;
                }
                e => {
                    put(self.scalar(c, e)?, &mut vals);
                    i += 1;
                }
            }
        }
        let Some(code) = code else {
            return Err("an abbreviated record without a code".into());
        };
        Ok(Record {
            code,
            ops: vals,
            blob,
            bits: (0, 0),
        })
    }

    /// Reads a BLOCKINFO block: `SETBID` picks the block the following
    /// definitions are for.
    fn blockinfo(&mut self, b: &Block) -> Result<(), String> {
        self.infos += 1;
        let mut c = Cursor {
            pos: b.body,
            end: b.end,
            width: b.width,
            block: BLOCKINFO,
            abbrevs: Vec::new(),
        };
        let mut target: Option<u64> = None;
        loop {
            if c.pos >= c.end {
                return Ok(());
            }
            let width = c.width;
            let id = self.fixed(&mut c, width)?;
            match id {
                END_BLOCK => return Ok(()),
                DEFINE_ABBREV => {
                    let a = self.define(&mut c)?;
                    let t = target.ok_or("a BLOCKINFO abbreviation before SETBID")?;
                    self.info.entry(t).or_default().push(a);
                }
                UNABBREV_RECORD => {
                    let code = self.vbr(&mut c, 6)?;
                    let n = self.vbr(&mut c, 6)?;
                    let mut first = None;
                    for k in 0..n {
                        let v = self.vbr(&mut c, 6)?;
                        if k == 0 {
                            first = Some(v);
                        }
                    }
                    if code == SETBID {
                        target = first;
                    }
                }
                ENTER_SUBBLOCK => {
                    return Err("a block inside BLOCKINFO".into());
                }
                k => return Err(format!("abbreviation {k} inside BLOCKINFO")),
            }
        }
    }

    /// The bytes of a record's blob.
    pub fn blob(&self, r: &Record) -> &'a [u8] {
        r.blob
            .and_then(|(at, n)| self.data.get(at..at.checked_add(n)?))
            .unwrap_or_default()
    }
}

/// A record's operands read as characters (a name, a string).
pub fn text(ops: &[u64]) -> String {
    let bytes: Vec<u8> = ops.iter().map(|&v| v as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits written least significant first, as the bitstream holds them.
    #[derive(Default)]
    struct W {
        bits: Vec<bool>,
    }

    impl W {
        fn fixed(&mut self, v: u64, n: u64) {
            for k in 0..n {
                self.bits.push(v >> k & 1 == 1);
            }
        }
        fn vbr(&mut self, mut v: u64, n: u64) {
            let hi = 1 << (n - 1);
            loop {
                if v < hi {
                    self.fixed(v, n);
                    return;
                }
                self.fixed(v & (hi - 1) | hi, n);
                v >>= n - 1;
            }
        }
        fn align(&mut self) {
            while !self.bits.len().is_multiple_of(32) {
                self.bits.push(false);
            }
        }
        fn bytes(&self) -> Vec<u8> {
            self.bits
                .chunks(8)
                .map(|c| c.iter().enumerate().map(|(k, &b)| (b as u8) << k).sum())
                .collect()
        }
    }

    /// A block with an abbreviation from BLOCKINFO and one of its own, an
    /// unabbreviated record, an array of char6 and a blob.
    #[test]
    fn records_read_through_every_encoding() {
        let mut w = W::default();
        // BLOCKINFO (id 0), width 2: SETBID 8, DEFINE_ABBREV [literal 5, vbr(6)]
        w.fixed(1, 2);
        w.vbr(0, 8);
        w.vbr(2, 4);
        w.align();
        let len_at = w.bits.len();
        w.fixed(0, 32);
        let body = w.bits.len();
        w.fixed(3, 2);
        w.vbr(SETBID, 6);
        w.vbr(1, 6);
        w.vbr(8, 6);
        w.fixed(2, 2);
        w.vbr(2, 5);
        w.fixed(1, 1);
        w.vbr(5, 8);
        w.fixed(0, 1);
        w.fixed(2, 3);
        w.vbr(6, 5);
        w.fixed(0, 2);
        w.align();
        let words = ((w.bits.len() - body) / 32) as u64;
        for k in 0..32 {
            w.bits[len_at + k] = words >> k & 1 == 1;
        }
        // Block 8, width 3.
        w.fixed(1, 2);
        w.vbr(8, 8);
        w.vbr(3, 4);
        w.align();
        let len_at = w.bits.len();
        w.fixed(0, 32);
        let body = w.bits.len();
        // abbrev 4 (BLOCKINFO's): code 5, op 300
        w.fixed(4, 3);
        w.vbr(300, 6);
        // unabbreviated: code 7, ops [1, 2]
        w.fixed(3, 3);
        w.vbr(7, 6);
        w.vbr(2, 6);
        w.vbr(1, 6);
        w.vbr(2, 6);
        // DEFINE_ABBREV [fixed(4), array, char6, blob] as 5
        w.fixed(2, 3);
        w.vbr(4, 5);
        w.fixed(0, 1);
        w.fixed(1, 3);
        w.vbr(4, 5);
        w.fixed(0, 1);
        w.fixed(3, 3);
        w.fixed(0, 1);
        w.fixed(4, 3);
        w.fixed(0, 1);
        w.fixed(5, 3);
        // abbrev 5: code 9, "ab", blob "xyz"
        w.fixed(5, 3);
        w.fixed(9, 4);
        w.vbr(2, 6);
        w.fixed(26, 6);
        w.fixed(27, 6);
        w.vbr(3, 6);
        w.align();
        for &c in b"xyz" {
            w.fixed(u64::from(c), 8);
        }
        w.align();
        w.fixed(0, 3);
        w.align();
        let words = ((w.bits.len() - body) / 32) as u64;
        for k in 0..32 {
            w.bits[len_at + k] = words >> k & 1 == 1;
        }
        let data = w.bytes();
        let mut s = Stream::new(&data);
        let mut top = s.top(0);
        let Entry::Block(b) = s.next(&mut top).unwrap() else {
            panic!("no block");
        };
        assert_eq!((b.id, b.width), (8, 3));
        let mut c = s.enter(&b);
        let r = |e: Entry| match e {
            Entry::Record(r) => (r.code, r.ops, r.blob),
            other => panic!("{other:?}"),
        };
        assert_eq!(r(s.next(&mut c).unwrap()), (5, vec![300], None));
        assert_eq!(r(s.next(&mut c).unwrap()), (7, vec![1, 2], None));
        let (code, ops, blob) = r(s.next(&mut c).unwrap());
        assert_eq!((code, text(&ops)), (9, "AB".to_string()));
        let (at, n) = blob.unwrap();
        assert_eq!(&data[at..at + n], b"xyz");
        assert_eq!(s.next(&mut c).unwrap(), Entry::End);
        assert_eq!(s.next(&mut top).unwrap(), Entry::End);
    }

    /// Cut anywhere, the stream gives an error or an end, never a panic.
    #[test]
    fn cut_streams_end_or_fail() {
        let mut w = W::default();
        w.fixed(1, 2);
        w.vbr(8, 8);
        w.vbr(3, 4);
        w.align();
        w.fixed(3, 32);
        w.fixed(3, 3);
        w.vbr(7, 6);
        w.vbr(40, 6);
        let data = w.bytes();
        for n in 0..data.len() {
            let mut s = Stream::new(&data[..n]);
            let mut top = s.top(0);
            if let Ok(Entry::Block(b)) = s.next(&mut top) {
                let mut c = s.enter(&b);
                for _ in 0..4 {
                    if !matches!(s.next(&mut c), Ok(Entry::Record(_))) {
                        break;
                    }
                }
            }
        }
    }
}
