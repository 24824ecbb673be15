//! A bounded cache of fixed-size pages of a file, for reading a big file a window
//! at a time instead of holding it whole.
//!
//! The web viewer's page keeps only what the hex pane and inspector show (plus
//! some slack); its decode worker keeps what the decoder is reading. Both use
//! this cache with their own way of fetching a page (an async `Blob` read on the
//! page, a synchronous `FileReaderSync` read in the worker). Least recently used
//! pages go first when the cache is full.

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Bytes per page.
pub const PAGE: u64 = 64 * 1024;

/// Reads `slice.len()` bytes of the file at an offset straight into `slice`;
/// false if it could not.
type ReadInto<'a> = dyn FnMut(u64, &mut [u8]) -> bool + 'a;

/// Reads of at least this many bytes that miss the cache bypass it
/// ([`PageCache::read_with`]).
pub const DIRECT_READ: u64 = 1024 * 1024;

/// A big read that misses the cache is fetched in pieces of this size: the
/// fetched copy never doubles a big read. In the browser a file reads faster in
/// pieces of 16 MiB than of 4 MiB: searching a 1 GiB file went from 2.2–2.5 s
/// to 1.8–2.1 s (warm; bench/RESULTS.md, "Search throughput").
pub const PIECE: u64 = 16 * DIRECT_READ;

/// Pages of one file.
#[derive(Debug, Clone)]
pub struct PageCache {
    len: u64,
    cap: usize,
    /// Pages [`PageCache::read_with`] fetches at once on a miss (at least 1).
    read_ahead: u64,
    pages: HashMap<u64, Rc<[u8]>>,
    /// Most recently used at the back.
    order: VecDeque<u64>,
}

impl PageCache {
    /// A cache for a file of `len` bytes holding at most `cap` pages (at least 2).
    pub fn new(len: u64, cap: usize) -> Self {
        PageCache {
            len,
            cap: cap.max(2),
            read_ahead: 1,
            pages: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// This cache, fetching up to `pages` pages at once when a read misses
    /// (the ones after the missed page that are not held, at most a quarter of
    /// the cache): one read of the file instead of many when a decoder walks it.
    pub fn with_read_ahead(mut self, pages: u64) -> Self {
        self.read_ahead = pages.clamp(1, (self.cap as u64 / 4).max(1));
        self
    }

    /// File length.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty file.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held right now.
    pub fn held_bytes(&self) -> u64 {
        self.pages.values().map(|p| p.len() as u64).sum()
    }

    /// The byte range `[start, end)` of page `n`, clipped to the file.
    pub fn page_range(&self, n: u64) -> (u64, u64) {
        let s = n.saturating_mul(PAGE).min(self.len);
        (s, s.saturating_add(PAGE).min(self.len))
    }

    /// Pages that `[start, end)` (clipped to the file) touches.
    pub fn pages_of(&self, start: u64, end: u64) -> std::ops::Range<u64> {
        let end = end.min(self.len);
        if start >= end {
            return 0..0;
        }
        start / PAGE..(end - 1) / PAGE + 1
    }

    /// Pages of `[start, end)` not in the cache.
    pub fn missing(&self, start: u64, end: u64) -> Vec<u64> {
        self.pages_of(start, end)
            .filter(|n| !self.pages.contains_key(n))
            .collect()
    }

    /// Stores page `n` (its bytes must be the page's whole clipped range).
    pub fn insert(&mut self, n: u64, data: Rc<[u8]>) {
        let (s, e) = self.page_range(n);
        if data.len() as u64 != e - s {
            return;
        }
        if self.pages.insert(n, data).is_none() {
            self.order.push_back(n);
        } else {
            self.touch(n);
        }
        while self.pages.len() > self.cap {
            match self.order.pop_front() {
                Some(old) => {
                    self.pages.remove(&old);
                }
                None => break,
            }
        }
    }

    fn touch(&mut self, n: u64) {
        if self.order.back() == Some(&n) {
            return;
        }
        if let Some(i) = self.order.iter().position(|&p| p == n) {
            self.order.remove(i);
            self.order.push_back(n);
        }
    }

    /// Copies `[start, end)` (clipped to the file) if every page it needs is held.
    pub fn window(&mut self, start: u64, end: u64) -> Option<Vec<u8>> {
        let end = end.min(self.len);
        if start >= end {
            return Some(Vec::new());
        }
        let mut out = Vec::with_capacity((end - start) as usize);
        for n in self.pages_of(start, end) {
            let page = self.pages.get(&n)?.clone();
            self.touch(n);
            let (ps, _) = self.page_range(n);
            let a = (start.max(ps) - ps) as usize;
            let b = ((end - ps) as usize).min(page.len());
            out.extend_from_slice(&page[a..b]);
        }
        Some(out)
    }

    /// Copies what is held of `[offset, offset + buf.len())` into `buf`, fetching
    /// missing pages with `fetch` (which returns the page's bytes, or `None` if
    /// the file cannot be read). Returns the bytes copied: short at the end of the
    /// file or where a page could not be read.
    pub fn read_with(
        &mut self,
        offset: u64,
        buf: &mut [u8],
        mut fetch: impl FnMut(u64, u64) -> Option<Vec<u8>>,
    ) -> usize {
        self.read_impl(offset, buf, &mut fetch, None)
    }

    /// [`PageCache::read_with`] for a source that can also read straight into a
    /// slice: the pieces of a big read that misses (see [`DIRECT_READ`]) go to
    /// `into(offset, slice)`, which fills the slice from the file and says whether
    /// it could, saving the copy out of a fetched `Vec`.
    pub fn read_with_into(
        &mut self,
        offset: u64,
        buf: &mut [u8],
        mut fetch: impl FnMut(u64, u64) -> Option<Vec<u8>>,
        mut into: impl FnMut(u64, &mut [u8]) -> bool,
    ) -> usize {
        self.read_impl(offset, buf, &mut fetch, Some(&mut into))
    }

    fn read_impl(
        &mut self,
        offset: u64,
        buf: &mut [u8],
        fetch: &mut dyn FnMut(u64, u64) -> Option<Vec<u8>>,
        mut into: Option<&mut ReadInto<'_>>,
    ) -> usize {
        let end = offset.saturating_add(buf.len() as u64).min(self.len);
        let mut done = 0usize;
        let mut at = offset;
        while at < end {
            let n = at / PAGE;
            // What is left of a big read (a section copied whole, a file hashed
            // in big chunks) is fetched in one piece straight into `buf` when its
            // next page is not held: one copy instead of splitting it into pages,
            // keeping them and copying them out again, and the pages held for
            // what is on screen stay.
            if end - at >= DIRECT_READ && !self.pages.contains_key(&n) {
                // In pieces (see [`PIECE`]).
                while at < end {
                    let to = end.min(at.saturating_add(PIECE));
                    let len = (to - at) as usize;
                    let dst = &mut buf[done..done + len];
                    let ok = match into.as_mut() {
                        Some(into) => into(at, dst),
                        None => match fetch(at, to) {
                            Some(v) if v.len() == len => {
                                dst.copy_from_slice(&v);
                                true
                            }
                            _ => false,
                        },
                    };
                    if !ok {
                        return done;
                    }
                    done += len;
                    at = to;
                }
                return done;
            }
            let page = match self.pages.get(&n) {
                Some(p) => {
                    let p = p.clone();
                    self.touch(n);
                    p
                }
                None => {
                    // This page and the missing ones after it, up to the read-ahead.
                    let last_page = (self.len - 1) / PAGE;
                    let mut k = n;
                    while k < last_page
                        && k + 1 - n < self.read_ahead
                        && !self.pages.contains_key(&(k + 1))
                    {
                        k += 1;
                    }
                    let (s, _) = self.page_range(n);
                    let (_, e) = self.page_range(k);
                    match fetch(s, e) {
                        Some(v) if v.len() as u64 == e - s => {
                            // Later pages first, so the one asked for is the most recent.
                            for m in (n + 1..=k).rev() {
                                let (ms, me) = self.page_range(m);
                                let piece: Rc<[u8]> =
                                    v[(ms - s) as usize..(me - s) as usize].into();
                                self.insert(m, piece);
                            }
                            let (_, e0) = self.page_range(n);
                            let p: Rc<[u8]> = v[..(e0 - s) as usize].into();
                            self.insert(n, p.clone());
                            p
                        }
                        _ => return done,
                    }
                }
            };
            let ps = n * PAGE;
            let a = (at - ps) as usize;
            let take = ((end - at) as usize).min(page.len() - a);
            buf[done..done + take].copy_from_slice(&page[a..a + take]);
            done += take;
            at += take as u64;
        }
        done
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn file(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn reads_across_pages_fetch_each_page_once() {
        let data = file(3 * PAGE as usize + 100);
        let mut c = PageCache::new(data.len() as u64, 8);
        let mut fetched = Vec::new();
        let mut buf = vec![0u8; PAGE as usize + 10];
        let at = PAGE - 5;
        let n = c.read_with(at, &mut buf, |s, e| {
            fetched.push(s);
            Some(data[s as usize..e as usize].to_vec())
        });
        assert_eq!(n, buf.len());
        assert_eq!(&buf[..], &data[at as usize..at as usize + buf.len()]);
        assert_eq!(fetched, vec![0, PAGE, 2 * PAGE]);
        // Again: everything is cached.
        let n = c.read_with(at, &mut buf, |_, _| panic!("no fetch expected"));
        assert_eq!(n, buf.len());
    }

    #[test]
    fn big_reads_that_miss_go_straight_to_the_buffer_and_are_not_kept() {
        let data = file(3 * DIRECT_READ as usize + 100);
        let mut c = PageCache::new(data.len() as u64, 8).with_read_ahead(2);
        let mut fetched = Vec::new();
        // The first two pages are held (a one-byte read with a read-ahead of two):
        // they come from the cache, the rest in one fetch.
        let mut one = [0u8; 1];
        c.read_with(10, &mut one, |s, e| {
            Some(data[s as usize..e as usize].to_vec())
        });
        let mut buf = vec![0u8; 2 * DIRECT_READ as usize];
        let at = 100;
        let n = c.read_with(at, &mut buf, |s, e| {
            fetched.push((s, e));
            Some(data[s as usize..e as usize].to_vec())
        });
        assert_eq!(n, buf.len());
        assert_eq!(&buf[..], &data[at as usize..at as usize + buf.len()]);
        assert_eq!(fetched, vec![(2 * PAGE, at + buf.len() as u64)]);
        // A read bigger than a piece comes in pieces.
        let mut big = vec![0u8; (PIECE + DIRECT_READ) as usize];
        let data = file(big.len() + 10);
        let mut c = PageCache::new(data.len() as u64, 8);
        let mut sizes = Vec::new();
        let n = c.read_with(3, &mut big, |s, e| {
            sizes.push(e - s);
            Some(data[s as usize..e as usize].to_vec())
        });
        assert_eq!(n, big.len());
        assert_eq!(&big[..], &data[3..3 + big.len()]);
        assert_eq!(sizes, vec![PIECE, DIRECT_READ]);
        assert!(c.pages.len() <= 2, "the big read kept no pages");
        // A source that reads into a slice gets the pieces of a big read so.
        let mut c = PageCache::new(data.len() as u64, 8);
        let mut asked = Vec::new();
        let mut big2 = vec![0u8; 2 * DIRECT_READ as usize];
        let n = c.read_with_into(
            5,
            &mut big2,
            |_, _| panic!("a big read that misses goes to `into`"),
            |at, dst| {
                asked.push((at, dst.len()));
                dst.copy_from_slice(&data[at as usize..at as usize + dst.len()]);
                true
            },
        );
        assert_eq!(n, big2.len());
        assert_eq!(&big2[..], &data[5..5 + big2.len()]);
        assert_eq!(asked, vec![(5, big2.len())]);
        assert_eq!(c.read_with_into(5, &mut big2, |_, _| None, |_, _| false), 0);
        // A failed fetch reads what came before it only.
        let mut c = PageCache::new(data.len() as u64, 8);
        assert_eq!(c.read_with(0, &mut buf, |_, _| None), 0);
    }

    #[test]
    fn a_miss_reads_ahead_the_pages_not_held() {
        let data = file(10 * PAGE as usize + 100);
        let mut c = PageCache::new(data.len() as u64, 64).with_read_ahead(4);
        let mut fetched = Vec::new();
        let read = |c: &mut PageCache, at: u64, len: usize, fetched: &mut Vec<(u64, u64)>| {
            let mut buf = vec![0u8; len];
            let n = c.read_with(at, &mut buf, |s, e| {
                fetched.push((s, e));
                Some(data[s as usize..e as usize].to_vec())
            });
            assert_eq!(&buf[..n], &data[at as usize..at as usize + n]);
            n
        };
        // A byte of page 0 brings pages 0-3.
        assert_eq!(read(&mut c, 5, 1, &mut fetched), 1);
        assert_eq!(fetched, vec![(0, 4 * PAGE)]);
        // Pages 1-3 are held; page 6 is read first, so page 4's read-ahead stops
        // before it.
        read(&mut c, 3 * PAGE, 10, &mut fetched);
        read(&mut c, 6 * PAGE, 10, &mut fetched);
        read(&mut c, 4 * PAGE + 1, 2 * PAGE as usize, &mut fetched);
        assert_eq!(
            fetched,
            vec![(0, 4 * PAGE), (6 * PAGE, 10 * PAGE), (4 * PAGE, 6 * PAGE)]
        );
        // The last page is short: the read-ahead stops at the end of the file.
        let mut c = PageCache::new(data.len() as u64, 64).with_read_ahead(8);
        let mut fetched = Vec::new();
        assert_eq!(
            read(&mut c, 9 * PAGE, 2 * PAGE as usize, &mut fetched),
            PAGE as usize + 100
        );
        assert_eq!(fetched, vec![(9 * PAGE, 10 * PAGE + 100)]);
    }

    #[test]
    fn reads_stop_at_the_end_and_on_failed_fetches() {
        let data = file(PAGE as usize + 10);
        let mut c = PageCache::new(data.len() as u64, 4);
        let mut buf = [0u8; 64];
        let n = c.read_with(PAGE, &mut buf, |s, e| {
            Some(data[s as usize..e as usize].to_vec())
        });
        assert_eq!(n, 10);
        let mut c = PageCache::new(data.len() as u64, 4);
        assert_eq!(c.read_with(0, &mut buf, |_, _| None), 0);
        assert_eq!(c.read_with(u64::MAX - 3, &mut buf, |_, _| None), 0);
    }

    #[test]
    fn the_cache_stays_bounded_and_keeps_recent_pages() {
        let data = file(10 * PAGE as usize);
        let mut c = PageCache::new(data.len() as u64, 3);
        let fetch = |s: u64, e: u64| Some(data[s as usize..e as usize].to_vec());
        let mut b = [0u8; 1];
        for p in 0..10u64 {
            c.read_with(p * PAGE, &mut b, fetch);
            // Keep page 0 hot.
            c.read_with(0, &mut b, fetch);
        }
        assert!(c.held_bytes() <= 3 * PAGE);
        assert!(c.window(0, 1).is_some(), "page 0 was used most recently");
        assert!(c.window(PAGE, PAGE + 1).is_none(), "page 1 was evicted");
        assert_eq!(c.missing(7 * PAGE, 9 * PAGE + 1), vec![7]);
    }

    #[test]
    fn windows_need_every_page_and_clip_to_the_file() {
        let data = file(2 * PAGE as usize);
        let mut c = PageCache::new(data.len() as u64, 4);
        assert_eq!(c.window(10, 20), None);
        c.insert(0, data[..PAGE as usize].to_vec().into());
        assert_eq!(c.window(10, 20).unwrap(), &data[10..20]);
        assert_eq!(c.window(PAGE - 2, PAGE + 2), None);
        c.insert(1, data[PAGE as usize..].to_vec().into());
        assert_eq!(
            c.window(PAGE - 2, u64::MAX).unwrap(),
            &data[PAGE as usize - 2..]
        );
        assert_eq!(c.window(5, 5).unwrap(), Vec::<u8>::new());
        // A page of the wrong size is refused.
        let mut c = PageCache::new(data.len() as u64, 4);
        c.insert(0, vec![1, 2, 3].into());
        assert_eq!(c.window(0, 1), None);
    }
}
