//! A map kept as sorted vectors and a stable sort, both small in code.
//!
//! The decode worker is downloaded before it can decode anything, so its size
//! counts. Every `BTreeMap<K, V>` with its own key and value types, and every call
//! of the standard sorts with its own element type or key, is a fresh copy of the
//! standard library's code: a few KB of wasm apiece, about 76 KB of the worker's
//! code in all before this module (bench/RESULTS.md, "App transfer size"). Here a
//! map is sorted chunks of a bounded size (binary searches; keys that arrive in
//! order are pushes, keys in any other order move at most a chunk), and every
//! sort shares one merge sort of indices behind a `dyn` comparison.
//!
//! The decoders' maps and the tree's side tables use it. The side tables take
//! keys out of order whenever a group opens: as one sorted vector (this module's
//! first form) that made opening groups of a big tree twice as slow; as chunks,
//! opening groups measured faster than with `BTreeMap` (`open_cost --viewer`:
//! median cDAC group 1.1 ms against 1.6, the dense DXContainer opened in 14 ms
//! against 17).

use std::cmp::Ordering;

/// Entries a chunk of a [`VecMap`] holds before it is split in two.
const CHUNK: usize = 128;

/// A map from `K` to `V` kept as sorted chunks of at most `2 × CHUNK` entries:
/// a lookup is two binary searches, an insert moves at most a chunk's entries
/// (keys in any order, a hostile file's included, cost `O(log n + CHUNK)`), and
/// keys that arrive in order are pushes.
#[derive(Debug, Clone)]
pub struct VecMap<K, V> {
    chunks: Vec<Vec<(K, V)>>,
    len: usize,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq for VecMap<K, V> {
    fn eq(&self, o: &Self) -> bool {
        self.len == o.len && self.chunks.iter().flatten().eq(o.chunks.iter().flatten())
    }
}

impl<K, V> VecMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        VecMap {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<K: Ord + Copy, V> VecMap<K, V> {
    /// The chunk that holds `k` or would take it: the first whose last key is
    /// `k` or more, else the last. `None` when the map is empty.
    fn chunk_for(&self, k: &K) -> Option<usize> {
        let n = self.chunks.len();
        if n == 0 {
            return None;
        }
        // Keys past the last are the common case and cost one comparison.
        if self.chunks[n - 1].last().is_some_and(|(x, _)| x < k) {
            return Some(n - 1);
        }
        let i = self
            .chunks
            .partition_point(|c| c.last().is_some_and(|(x, _)| x < k));
        Some(i.min(n - 1))
    }

    /// Chunk and place of `k`, if it has a value.
    fn find(&self, k: &K) -> Option<(usize, usize)> {
        let c = self.chunk_for(k)?;
        let i = self.chunks[c].binary_search_by(|(x, _)| x.cmp(k)).ok()?;
        Some((c, i))
    }

    /// Puts `(k, v)` at `i` of chunk `c` (or makes the first chunk) and splits a
    /// chunk grown too big; returns where the entry ended up.
    fn put(&mut self, c: Option<usize>, i: usize, k: K, v: V) -> (usize, usize) {
        self.len += 1;
        let Some(c) = c else {
            self.chunks.push(vec![(k, v)]);
            return (0, 0);
        };
        let chunk = &mut self.chunks[c];
        chunk.insert(i, (k, v));
        if chunk.len() <= 2 * CHUNK {
            return (c, i);
        }
        let tail = chunk.split_off(CHUNK);
        self.chunks.insert(c + 1, tail);
        if i < CHUNK {
            (c, i)
        } else {
            (c + 1, i - CHUNK)
        }
    }

    /// Sets `k` to `v`; returns the value it replaced.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        let c = self.chunk_for(&k);
        let at = match c {
            Some(c) => match self.chunks[c].binary_search_by(|(x, _)| x.cmp(&k)) {
                Ok(i) => return Some(std::mem::replace(&mut self.chunks[c][i].1, v)),
                Err(i) => i,
            },
            None => 0,
        };
        self.put(c, at, k, v);
        None
    }

    /// The value of `k`, made by `make` first if it has none.
    pub fn get_or_insert_with(&mut self, k: K, make: impl FnOnce() -> V) -> &mut V {
        let c = self.chunk_for(&k);
        let (c, i) = match c {
            Some(c) => match self.chunks[c].binary_search_by(|(x, _)| x.cmp(&k)) {
                Ok(i) => (c, i),
                Err(i) => self.put(Some(c), i, k, make()),
            },
            None => self.put(None, 0, k, make()),
        };
        &mut self.chunks[c][i].1
    }

    /// The value of `k`.
    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).map(|(c, i)| &self.chunks[c][i].1)
    }

    /// The value of `k`, to change.
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        let (c, i) = self.find(k)?;
        Some(&mut self.chunks[c][i].1)
    }

    /// True if `k` has a value.
    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_some()
    }

    /// Removes `k`; returns its value.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        let (c, i) = self.find(k)?;
        let (_, v) = self.chunks[c].remove(i);
        if self.chunks[c].is_empty() {
            self.chunks.remove(c);
        }
        self.len -= 1;
        Some(v)
    }

    /// Moves the entries whose key is `k` or more into a map of their own.
    pub fn split_off(&mut self, k: &K) -> Self {
        let c = self
            .chunks
            .partition_point(|ch| ch.last().is_some_and(|(x, _)| x < k));
        let mut tail: Vec<Vec<(K, V)>> = self.chunks.split_off(c);
        if let Some(first) = tail.first_mut() {
            let p = first.partition_point(|(x, _)| x < k);
            let keep: Vec<(K, V)> = first.drain(..p).collect();
            if !keep.is_empty() {
                self.chunks.push(keep);
            }
            if first.is_empty() {
                tail.remove(0);
            }
        }
        let moved: usize = tail.iter().map(Vec::len).sum();
        self.len -= moved;
        VecMap {
            chunks: tail,
            len: moved,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.chunks.iter().flatten().map(|(k, _)| k)
    }

    /// Keeps only the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        for c in &mut self.chunks {
            c.retain_mut(|(k, v)| keep(k, v));
        }
        self.chunks.retain(|c| !c.is_empty());
        self.len = self.chunks.iter().map(Vec::len).sum();
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.chunks.iter().flatten().map(|(k, v)| (k, v))
    }

    /// The entries whose key lies in `[from, to)`, in key order.
    pub fn range(&self, from: K, to: K) -> impl Iterator<Item = (&K, &V)> {
        let c = self
            .chunks
            .partition_point(|ch| ch.last().is_some_and(|(x, _)| *x < from));
        self.chunks[c..]
            .iter()
            .flatten()
            .skip_while(move |(k, _)| *k < from)
            .take_while(move |(k, _)| *k < to)
            .map(|(k, v)| (k, v))
    }

    /// The first entry whose key is at least `k`.
    pub fn at_or_after(&self, k: &K) -> Option<(&K, &V)> {
        let c = self
            .chunks
            .partition_point(|ch| ch.last().is_some_and(|(x, _)| x < k));
        let ch = self.chunks.get(c)?;
        let i = ch.partition_point(|(x, _)| x < k);
        ch.get(i).map(|(k, v)| (k, v))
    }

    /// The last entry whose key is at most `k`.
    pub fn at_or_before(&self, k: &K) -> Option<(&K, &V)> {
        let c = self
            .chunks
            .partition_point(|ch| ch.first().is_some_and(|(x, _)| x <= k));
        let ch = self.chunks.get(c.checked_sub(1)?)?;
        let i = ch.partition_point(|(x, _)| x <= k);
        i.checked_sub(1).map(|i| {
            let (k, v) = &ch[i];
            (k, v)
        })
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::iter::Flatten<std::vec::IntoIter<Vec<(K, V)>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.chunks.into_iter().flatten()
    }
}

impl<K: Ord + Copy, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(it: I) -> Self {
        let mut m = VecMap::new();
        for (k, v) in it {
            m.insert(k, v);
        }
        m
    }
}

/// Sorts `v` by `key`, stably (equal keys keep their order).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    let order = {
        let items: &[T] = v;
        merge_order(items.len(), &mut |a, b| key(&items[a]).cmp(&key(&items[b])))
    };
    permute(v, order);
}

/// Sorts `v` by `cmp`, stably.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = v;
        merge_order(items.len(), &mut |a, b| cmp(&items[a], &items[b]))
    };
    permute(v, order);
}

/// Sorts `v` in ascending order, stably.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, |a, b| a.cmp(b));
}

/// The stable sorted order of `n` items compared by index: position `i` of the
/// result is the index of the item that goes there. One bottom-up merge sort
/// serves every element type.
fn merge_order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    if n < 2 {
        return a;
    }
    // Already in order (the common case for offsets read from a file): done.
    if (1..n).all(|i| cmp(i - 1, i) != Ordering::Greater) {
        return a;
    }
    let mut b = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut l, mut r) = (lo, mid);
            for slot in &mut b[lo..hi] {
                // Take from the left run on ties: that keeps the sort stable.
                let left = r >= hi || (l < mid && cmp(a[l], a[r]) != Ordering::Greater);
                if left {
                    *slot = a[l];
                    l += 1;
                } else {
                    *slot = a[r];
                    r += 1;
                }
            }
            lo = hi;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Rearranges `v` so that position `i` holds what was at `order[i]`, by
/// following the permutation's cycles with swaps.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut cur = start;
        while order[cur] != start && order[cur] != cur {
            let next = order[cur];
            order[cur] = cur;
            v.swap(cur, next);
            cur = next;
        }
        order[cur] = cur;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency for tests).
    fn numbers(seed: u64, n: usize, modulo: u64) -> Vec<u64> {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % modulo
            })
            .collect()
    }

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        for n in [0, 1, 2, 3, 5, 8, 17, 64, 100, 1000, 4097] {
            for modulo in [2, 10, 1 << 40] {
                let keys = numbers(n as u64 * 31 + modulo, n, modulo);
                // Pairs of (key, original position): stability shows in the second.
                let mut mine: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
                let mut want = mine.clone();
                want.sort_by_key(|p| p.0);
                sort_by_key(&mut mine, |p| p.0);
                assert_eq!(mine, want, "n {n} modulo {modulo}");
                let mut plain = keys.clone();
                let mut want = keys;
                want.sort();
                sort(&mut plain);
                assert_eq!(plain, want);
            }
        }
        let mut rev: Vec<String> = (0..50).rev().map(|i| format!("{i:03}")).collect();
        sort_by(&mut rev, |a, b| a.cmp(b));
        assert_eq!(rev.first().map(String::as_str), Some("000"));
        assert_eq!(rev.last().map(String::as_str), Some("049"));
    }

    #[test]
    fn keys_in_any_order_keep_chunks_small() {
        // Descending keys (each insert at the front) and then every other one
        // removed: the map stays right and no chunk outgrows its bound.
        let mut m = VecMap::new();
        for k in (0..100_000u64).rev() {
            assert_eq!(m.insert(k, k * 2), None);
        }
        assert_eq!(m.len(), 100_000);
        assert!(m
            .chunks
            .iter()
            .all(|c| !c.is_empty() && c.len() <= 2 * CHUNK));
        for k in (0..100_000u64).step_by(2) {
            assert_eq!(m.remove(&k), Some(k * 2));
        }
        assert_eq!(m.len(), 50_000);
        assert!(m.chunks.iter().all(|c| !c.is_empty()));
        assert!(m.keys().copied().eq((1..100_000u64).step_by(2)));
        assert_eq!(m.at_or_before(&10).map(|(k, _)| *k), Some(9));
        assert_eq!(m.at_or_after(&10).map(|(k, _)| *k), Some(11));
        let mut tail = m.split_off(&50_001);
        assert_eq!((m.len(), tail.len()), (25_000, 25_000));
        assert_eq!(tail.keys().next(), Some(&50_001));
        tail.retain(|k, _| k % 3 == 0);
        assert!(tail.keys().all(|k| k % 3 == 0) && tail.len() == tail.iter().count());
        *tail.get_or_insert_with(4, || 0) += 5;
        *tail.get_or_insert_with(4, || 100) += 5;
        assert_eq!(tail.get(&4), Some(&10));
        assert_eq!(tail.keys().next(), Some(&4));
    }

    #[test]
    fn the_map_agrees_with_a_btree_map() {
        for (seed, n, keys) in [(7, 3000, 500), (8, 20_000, 5_000), (9, 20_000, 1 << 40)] {
            agrees(seed, n, keys);
        }
    }

    fn agrees(seed: u64, n: usize, modulo: u64) {
        let mut mine = VecMap::new();
        let mut want = std::collections::BTreeMap::new();
        let keys = numbers(seed, n, modulo);
        for (i, &k) in keys.iter().enumerate() {
            match i % 5 {
                0 => assert_eq!(mine.remove(&k), want.remove(&k)),
                1 => {
                    if let (Some(a), Some(b)) = (mine.get_mut(&k), want.get_mut(&k)) {
                        *a += 1;
                        *b += 1;
                    }
                }
                _ => assert_eq!(mine.insert(k, i), want.insert(k, i)),
            }
            assert_eq!(mine.get(&k), want.get(&k));
            assert_eq!(mine.contains_key(&(k + 1)), want.contains_key(&(k + 1)));
        }
        assert_eq!(mine.len(), want.len());
        let got: Vec<_> = mine.iter().map(|(k, v)| (*k, *v)).collect();
        let exp: Vec<_> = want.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(got, exp);
        let (lo, hi, mid) = (modulo / 5, modulo / 2, modulo / 2 + 3);
        let r: Vec<_> = mine.range(lo, hi).map(|(k, _)| *k).collect();
        let e: Vec<_> = want.range(lo..hi).map(|(k, _)| *k).collect();
        assert_eq!(r, e);
        for &k in &keys[..50] {
            assert_eq!(
                mine.at_or_after(&k).map(|(k, _)| *k),
                want.range(k..).next().map(|(k, _)| *k)
            );
            assert_eq!(
                mine.at_or_before(&(k + 1)).map(|(k, _)| *k),
                want.range(..=k + 1).next_back().map(|(k, _)| *k)
            );
        }
        let tail = mine.split_off(&mid);
        let etail = want.split_off(&mid);
        assert_eq!(tail.len(), etail.len());
        assert_eq!(mine.len(), want.len());
        assert!(tail.iter().map(|(k, v)| (*k, *v)).eq(etail.into_iter()));
        assert!(mine.iter().map(|(k, v)| (*k, *v)).eq(want.into_iter()));
    }
}
