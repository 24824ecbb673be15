//! The checks of the `search` fuzz target. The input is cut into a query and
//! the bytes to search:
//!
//! - byte 0: the mode (`% 4`: hex, text, number, structure), bit 2 ignore case,
//!   bit 3 UTF-16;
//! - byte 1: the number type (`% 11`, in [`TYPES`]) and the byte order
//!   (`/ 11 % 3`: little, big, both);
//! - byte 2: the query's length n; the next n bytes are its text (UTF-8, bad
//!   sequences replaced);
//! - the rest: the file searched.

use hexlens_core::search::{self, Mode, NumberType, Order, Query};

/// The number types, in the order byte 1 picks them.
pub const TYPES: [&str; 11] = [
    "int", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64",
];

/// Parses the query, searches with it and returns the first property broken:
/// - a byte search reports exactly the offsets a naive scan over every offset
///   finds, each with the longest needle matching there (the first of equal
///   length), and reaches the end of the file; every needle has a mask as long
///   as its bytes, at most [`search::MAX_NEEDLE`] of them;
/// - a structure search's hits lie in the file, at most as many as asked for.
pub fn check(data: &[u8]) -> Result<(), String> {
    let (q, hay) = query(data);
    if q.mode == Mode::Structure {
        let hits = search::find_nodes(&hay, &q.text, 50, false, &mut |_| {});
        if hits.len() > 50 {
            return Err(format!("{} structure hits, asked for 50", hits.len()));
        }
        for h in &hits {
            if h.start > h.end || h.end > hay.len() as u64 {
                return Err(format!(
                    "{}: hit [{}, {}) outside the file",
                    h.path, h.start, h.end
                ));
            }
        }
        return Ok(());
    }
    let Ok(needles) = search::needles(&q) else {
        return Ok(());
    };
    for n in &needles {
        if n.bytes.len() != n.mask.len() || n.bytes.len() > search::MAX_NEEDLE {
            return Err(format!("needle {n:?}"));
        }
    }
    let found = search::find(&hay, &needles, 0, u64::MAX, usize::MAX);
    if found.reached != hay.len() as u64 {
        return Err(format!("reached {} of {}", found.reached, hay.len()));
    }
    let got: Vec<(u64, u32, u16)> = found
        .hits
        .iter()
        .map(|h| (h.start, h.len, h.needle))
        .collect();
    let want = naive(&needles, hay);
    if got != want {
        return Err(format!("query {q:?}: found {got:?}, a naive scan {want:?}"));
    }
    Ok(())
}

/// The query and the file cut from `data`.
pub fn query(data: &[u8]) -> (Query, &[u8]) {
    let at = |i: usize| data.get(i).copied().unwrap_or(0);
    let mode = [Mode::Hex, Mode::Text, Mode::Number, Mode::Structure][(at(0) % 4) as usize];
    let n = at(2) as usize;
    let text_end = (3 + n).min(data.len());
    let text = String::from_utf8_lossy(data.get(3..text_end).unwrap_or(&[]));
    let mut q = Query::new(mode, &text);
    q.ignore_case = at(0) & 4 != 0;
    q.utf16 = at(0) & 8 != 0;
    q.number = NumberType::from_name(TYPES[(at(1) % 11) as usize]).unwrap();
    q.order = [Order::Little, Order::Big, Order::Both][(at(1) / 11 % 3) as usize];
    (q, data.get(text_end..).unwrap_or(&[]))
}

fn naive(needles: &[search::Needle], hay: &[u8]) -> Vec<(u64, u32, u16)> {
    let mut out = Vec::new();
    for i in 0..hay.len() {
        let mut best: Option<(usize, usize)> = None;
        for (k, n) in needles.iter().enumerate() {
            let len = n.bytes.len();
            if len == 0 || i + len > hay.len() {
                continue;
            }
            let ok = (0..len).all(|j| hay[i + j] & n.mask[j] == n.bytes[j] & n.mask[j]);
            if ok && best.is_none_or(|(_, l)| len > l) {
                best = Some((k, len));
            }
        }
        if let Some((k, len)) = best {
            out.push((i as u64, len as u32, k as u16));
        }
    }
    out
}
