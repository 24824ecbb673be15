//! The checks of the `diff` fuzz target: what a structure comparison of two
//! inputs reports, held against the bytes themselves.

use hexlens_core::diff::{self, Change, Diff};

/// Most differences asked for (small, so the limit itself is exercised).
pub const MAX: usize = 64;

/// Compares `a` with `b` and `a` with itself; returns the first property the
/// reports break:
/// - sizes are the inputs' lengths; `changed_bytes` is the naive count (bytes
///   differing at the same offset plus the bytes past the shorter one's end);
/// - a comparison with no differing bytes is equal, and `a` with itself is
///   equal with nothing listed;
/// - at most [`MAX`] differences; under the limit the list is the one made
///   without it, and a truncated list begins that one and is shorter;
///   every difference's spans lie in its file, an addition has only B's and a
///   removal only A's; every row's spans lie in their files and point at an
///   existing difference, and every difference is shown by at most one row;
/// - the next run of differing bytes after an offset, and the last before it,
///   are the naive ones.
pub fn check(a: &[u8], b: &[u8]) -> Result<(), String> {
    let d = diff::diff(&a, &b, MAX);
    let naive = naive_changed(a, b);
    if d.sizes != (a.len() as u64, b.len() as u64) {
        return Err(format!(
            "sizes {:?} for {} and {}",
            d.sizes,
            a.len(),
            b.len()
        ));
    }
    if d.changed_bytes != naive {
        return Err(format!(
            "changed_bytes {} but {naive} bytes differ",
            d.changed_bytes
        ));
    }
    if naive == 0 && !d.is_equal() {
        return Err(format!("identical inputs not equal: {:?}", d.differences));
    }
    check_lists(&d, a.len() as u64, b.len() as u64)?;
    // The limit only shortens the list: without it, the same list when it was
    // not reached, a longer one when it was.
    let all = diff::diff(&a, &b, diff::MAX_DIFFERENCES);
    if !d.truncated && all.differences != d.differences {
        return Err(format!(
            "{} differences under the limit, {} without it",
            d.differences.len(),
            all.differences.len()
        ));
    }
    if d.truncated && all.differences.get(..d.differences.len()) != Some(&d.differences[..]) {
        return Err(format!(
            "the {} differences listed up to the limit do not begin the {} without it",
            d.differences.len(),
            all.differences.len()
        ));
    }
    if d.truncated && all.differences.len() <= d.differences.len() {
        return Err(format!(
            "truncated at {}, {} without the limit",
            d.differences.len(),
            all.differences.len()
        ));
    }
    let same = diff::diff(&a, &a, MAX);
    if !same.is_equal() || !same.differences.is_empty() || same.changed_bytes != 0 {
        return Err(format!(
            "an input and itself differ: {:?}",
            same.differences
        ));
    }
    let runs = naive_runs(a, b);
    let end = a.len().max(b.len()) as u64;
    for from in [0, end / 2, end] {
        let next = diff::next_byte_difference(&a, &b, from, 0, false);
        let want = runs.iter().copied().find(|r| r.0 > from);
        if next != want {
            return Err(format!(
                "next differing run after {from}: {next:?}, naive {want:?}"
            ));
        }
        let prev = diff::next_byte_difference(&a, &b, from, 0, true);
        let want = runs.iter().copied().rev().find(|r| r.0 < from);
        if prev != want {
            return Err(format!(
                "last differing run before {from}: {prev:?}, naive {want:?}"
            ));
        }
    }
    Ok(())
}

fn check_lists(d: &Diff, la: u64, lb: u64) -> Result<(), String> {
    if d.differences.len() > MAX {
        return Err(format!(
            "{} differences, asked for {MAX}",
            d.differences.len()
        ));
    }
    let inside = |s: Option<(u64, u64)>, len: u64| s.is_none_or(|(x, y)| x <= y && y <= len);
    for x in &d.differences {
        if !inside(x.a, la) || !inside(x.b, lb) {
            return Err(format!(
                "{}: spans {:?} {:?} outside the files",
                x.path, x.a, x.b
            ));
        }
        match x.change {
            Change::Added if x.a.is_some() || x.b.is_none() => {
                return Err(format!(
                    "{}: an addition with spans {:?} {:?}",
                    x.path, x.a, x.b
                ))
            }
            Change::Removed if x.b.is_some() || x.a.is_none() => {
                return Err(format!(
                    "{}: a removal with spans {:?} {:?}",
                    x.path, x.a, x.b
                ))
            }
            _ => {}
        }
    }
    let mut shown = vec![false; d.differences.len()];
    for r in &d.rows {
        if !inside(r.a, la) || !inside(r.b, lb) {
            return Err(format!(
                "row {}: spans {:?} {:?} outside the files",
                r.path, r.a, r.b
            ));
        }
        if let Some(i) = r.difference {
            match shown.get_mut(i) {
                None => {
                    return Err(format!(
                        "row {} shows difference {i} of {}",
                        r.path,
                        d.differences.len()
                    ))
                }
                Some(true) => return Err(format!("difference {i} shown by two rows")),
                Some(s) => *s = true,
            }
        }
    }
    Ok(())
}

fn naive_changed(a: &[u8], b: &[u8]) -> u64 {
    let common = a.iter().zip(b).filter(|(x, y)| x != y).count();
    (common + a.len().abs_diff(b.len())) as u64
}

/// Every run `[start, end)` of offsets where the inputs differ (a byte only
/// one has differs).
fn naive_runs(a: &[u8], b: &[u8]) -> Vec<(u64, u64)> {
    let end = a.len().max(b.len());
    let mut out: Vec<(u64, u64)> = Vec::new();
    for i in 0..end {
        if a.get(i) != b.get(i) {
            match out.last_mut() {
                Some(r) if r.1 == i as u64 => r.1 += 1,
                _ => out.push((i as u64, i as u64 + 1)),
            }
        }
    }
    out
}

/// Two inputs cut from one: the first two bytes (little-endian) give the first
/// input's length (clipped to what follows), the rest is the second.
pub fn pair(data: &[u8]) -> (&[u8], &[u8]) {
    let n = u16::from_le_bytes([
        data.first().copied().unwrap_or(0),
        data.get(1).copied().unwrap_or(0),
    ]) as usize;
    let rest = data.get(2..).unwrap_or(&[]);
    rest.split_at(n.min(rest.len()))
}
