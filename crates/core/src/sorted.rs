//! A map kept as a sorted vector and a stable sort, both small in code.
//!
//! The decode worker is downloaded before it can decode anything, so its size
//! counts. Every `BTreeMap<K, V>` with its own key and value types, and every call
//! of the standard sorts with its own element type or key, is a fresh copy of the
//! standard library's code: a few KB of wasm apiece, about 76 KB of the worker's
//! code in all before this module (bench/RESULTS.md, "App transfer size"). Here a
//! map is a sorted `Vec` (binary search; keys that arrive in order are pushed),
//! and every sort shares one merge sort of indices behind a `dyn` comparison.
//!
//! A `VecMap` suits the decoders' maps: built once while decoding a part, keys
//! mostly in order, lookups after. It does not suit a map that takes keys out of
//! order for as long as a file is open (the tree's side tables, written for old
//! nodes whenever a group is opened): an insert there moves every later entry,
//! and opening groups of a big tree measured twice as slow. Those stay `BTreeMap`s.

use std::cmp::Ordering;

/// A map from `K` to `V` kept as a vector sorted by key.
#[derive(Debug, Clone, PartialEq)]
pub struct VecMap<K, V> {
    items: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { items: Vec::new() }
    }
}

impl<K: Ord + Copy, V> VecMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        VecMap { items: Vec::new() }
    }

    /// Where `k` is (`Ok`) or would go (`Err`). Keys past the last are the
    /// common case and cost one comparison.
    fn find(&self, k: &K) -> Result<usize, usize> {
        match self.items.last() {
            None => Err(0),
            Some((last, _)) if last < k => Err(self.items.len()),
            _ => self.items.binary_search_by(|(x, _)| x.cmp(k)),
        }
    }

    /// Sets `k` to `v`; returns the value it replaced.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, v)),
            Err(i) => {
                self.items.insert(i, (k, v));
                None
            }
        }
    }

    /// The value of `k`.
    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.items[i].1)
    }

    /// The value of `k`, to change.
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        match self.find(k) {
            Ok(i) => Some(&mut self.items[i].1),
            Err(_) => None,
        }
    }

    /// The value of `k`, made by `make` first if it has none.
    pub fn get_or_insert_with(&mut self, k: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.items.insert(i, (k, make()));
                i
            }
        };
        &mut self.items[i].1
    }

    /// True if `k` has a value.
    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }

    /// Removes `k`; returns its value.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        self.find(k).ok().map(|i| self.items.remove(i).1)
    }

    /// Moves the entries whose key is `k` or more into a map of their own.
    pub fn split_off(&mut self, k: &K) -> Self {
        let at = self.items.partition_point(|(x, _)| x < k);
        VecMap {
            items: self.items.split_off(at),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True if the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.items.iter().map(|(k, _)| k)
    }

    /// Keeps only the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.items.retain_mut(|(k, v)| keep(k, v));
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.items.iter().map(|(k, v)| (k, v))
    }

    /// The entries whose key lies in `[from, to)`, in key order.
    pub fn range(&self, from: K, to: K) -> impl Iterator<Item = (&K, &V)> {
        let a = self.items.partition_point(|(x, _)| *x < from);
        let b = self.items.partition_point(|(x, _)| *x < to).max(a);
        self.items[a..b].iter().map(|(k, v)| (k, v))
    }

    /// The first entry whose key is at least `k`.
    pub fn at_or_after(&self, k: &K) -> Option<(&K, &V)> {
        let i = self.items.partition_point(|(x, _)| x < k);
        self.items.get(i).map(|(k, v)| (k, v))
    }

    /// The last entry whose key is at most `k`.
    pub fn at_or_before(&self, k: &K) -> Option<(&K, &V)> {
        let i = self.items.partition_point(|(x, _)| x <= k);
        i.checked_sub(1).map(|i| {
            let (k, v) = &self.items[i];
            (k, v)
        })
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
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
    fn the_map_agrees_with_a_btree_map() {
        let mut mine = VecMap::new();
        let mut want = std::collections::BTreeMap::new();
        let keys = numbers(7, 3000, 500);
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
        let r: Vec<_> = mine.range(100, 200).map(|(k, _)| *k).collect();
        let e: Vec<_> = want.range(100..200).map(|(k, _)| *k).collect();
        assert_eq!(r, e);
        assert_eq!(
            mine.at_or_after(&250).map(|(k, _)| *k),
            want.range(250..).next().map(|(k, _)| *k)
        );
        assert_eq!(
            mine.at_or_before(&250).map(|(k, _)| *k),
            want.range(..=250).next_back().map(|(k, _)| *k)
        );
        let tail = mine.split_off(&250);
        let etail = want.split_off(&250);
        assert_eq!(tail.len(), etail.len());
        assert_eq!(mine.len(), want.len());
        assert!(mine.iter().all(|(k, _)| *k < 250) && tail.iter().all(|(k, _)| *k >= 250));
    }
}
