//! Who owns which range of a file: each range is given to one owner only, and a
//! range that would overlap one already given is found before it is decoded, so
//! the decoder can report the overlap instead of showing the same bytes twice.
//!
//! Ranges are half-open `[start, end)` in whatever unit the user counts in: the
//! DXContainer parts that lay structures out by offset (RTS0, RDAT and RDEF) and
//! the cDAC object file's sections claim bytes; the MSF layout claims pages, one
//! unit each. What an owner is (`W`) is the user's: a
//! description for messages, a page's role, or nothing.

use crate::sorted::VecMap;

/// Ranges already given to owners, with their owners. Ranges never overlap.
#[derive(Debug)]
pub(crate) struct Claims<W> {
    spans: VecMap<u64, (u64, W)>,
    /// Sorted starts of structures still to be placed (see [`Claims::plan`]).
    planned: Vec<u64>,
}

impl<W> Default for Claims<W> {
    fn default() -> Self {
        Claims {
            spans: VecMap::new(),
            planned: Vec::new(),
        }
    }
}

/// A claimed range that a new one would overlap: start, end, owner.
pub(crate) type Clash<W> = (u64, u64, W);

impl<W: Clone> Claims<W> {
    /// Gives `[start, end)` to `who`. Empty ranges are ignored; the caller
    /// checks first ([`Claims::clash`]) that the range is free.
    pub(crate) fn add(&mut self, start: u64, end: u64, who: impl Into<W>) {
        if end > start {
            self.spans.insert(start, (end, who.into()));
        }
    }

    /// The last claimed range (by start) overlapping `[start, end)`, if any.
    pub(crate) fn clash(&self, start: u64, end: u64) -> Option<Clash<W>> {
        if end <= start {
            return None;
        }
        // Ranges are disjoint, so only the last one starting before `end` can
        // be the last to overlap.
        self.spans
            .at_or_before(&(end - 1))
            .filter(|(_, (e, _))| *e > start)
            .map(|(s, (e, w))| (*s, *e, w.clone()))
    }

    /// The first claimed range (by start) overlapping `[start, end)`, if any.
    pub(crate) fn first_clash(&self, start: u64, end: u64) -> Option<Clash<W>> {
        if end <= start {
            return None;
        }
        let holding = self
            .spans
            .at_or_before(&start)
            .filter(|(_, (e, _))| *e > start);
        let after = || self.spans.at_or_after(&start).filter(|(&s, _)| s < end);
        holding
            .or_else(after)
            .map(|(s, (e, w))| (*s, *e, w.clone()))
    }

    /// Where the first claimed range starting at or after `at` starts.
    pub(crate) fn next_start(&self, at: u64) -> Option<u64> {
        self.spans.at_or_after(&at).map(|(&s, _)| s)
    }

    /// The owner of unit `at`, if it is claimed.
    pub(crate) fn owner(&self, at: u64) -> Option<W> {
        self.clash(at, at.saturating_add(1)).map(|(_, _, w)| w)
    }

    /// Notes where structures that are placed later start, so that a container
    /// placed earlier is not given a span that would swallow them (see
    /// [`Claims::foreign_start`]).
    pub(crate) fn plan(&mut self, mut starts: Vec<u64>) {
        crate::sorted::sort(&mut starts);
        starts.dedup();
        self.planned = starts;
    }

    /// True if a planned start in `[lo, hi)` is not one of `own` (sorted).
    pub(crate) fn foreign_start(&self, lo: u64, hi: u64, own: &[u64]) -> bool {
        let from = self.planned.partition_point(|&p| p < lo);
        self.planned[from..]
            .iter()
            .take_while(|&&p| p < hi)
            .any(|p| own.binary_search(p).is_err())
    }

    /// The unclaimed stretches of `[from, to)`.
    pub(crate) fn gaps(&self, from: u64, to: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut cur = from;
        for (&s, (e, _)) in self.spans.range(0, to) {
            if *e <= cur {
                continue;
            }
            if s > cur {
                out.push((cur, s.min(to)));
            }
            cur = cur.max(*e);
        }
        if cur < to {
            out.push((cur, to));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three() -> Claims<&'static str> {
        let mut c = Claims::default();
        c.add(10, 20, "a");
        c.add(20, 30, "b");
        c.add(40, 50, "c");
        c.add(60, 60, "empty");
        c
    }

    #[test]
    fn a_clash_is_the_last_or_the_first_range_overlapping() {
        let c = three();
        assert_eq!(c.clash(15, 45), Some((40, 50, "c")));
        assert_eq!(c.first_clash(15, 45), Some((10, 20, "a")));
        assert_eq!(c.first_clash(5, 25), Some((10, 20, "a")));
        assert_eq!(c.first_clash(30, 40), None);
        assert_eq!(c.clash(30, 40), None);
        assert_eq!(c.clash(60, 61), None);
        assert_eq!(c.clash(25, 25), None);
        assert_eq!(c.first_clash(25, 25), None);
    }

    #[test]
    fn a_unit_has_the_owner_of_the_range_holding_it() {
        let c = three();
        assert_eq!(c.owner(19), Some("a"));
        assert_eq!(c.owner(20), Some("b"));
        assert_eq!(c.owner(30), None);
        assert_eq!(c.owner(u64::MAX), None);
        assert_eq!(c.next_start(11), Some(20));
        assert_eq!(c.next_start(41), None);
    }

    #[test]
    fn gaps_are_what_no_range_holds() {
        let c = three();
        assert_eq!(c.gaps(0, 45), vec![(0, 10), (30, 40)]);
        assert_eq!(c.gaps(12, 55), vec![(30, 40), (50, 55)]);
    }

    #[test]
    fn a_planned_start_is_foreign_unless_it_is_ones_own() {
        let mut c = three();
        c.plan(vec![35, 5, 35]);
        assert!(c.foreign_start(0, 40, &[]));
        assert!(!c.foreign_start(0, 40, &[5, 35]));
        assert!(!c.foreign_start(6, 35, &[]));
    }
}
