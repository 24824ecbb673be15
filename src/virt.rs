//! Virtual scrolling math for lists of fixed-height rows (the hex pane, the tree).
//!
//! Only the rows in view are in the DOM. The scrollable area is `rows * row_h`
//! pixels high, capped at [`MAX_SCROLL_PX`] because browsers cannot lay out taller
//! elements (a 50 MB file is 3.3 M hex rows); past the cap, the scroll position
//! maps proportionally to a row, so any file scrolls end to end.
//!
//! Past the cap one pixel of scroll stands for many rows (33 for a 4 GiB file),
//! too coarse to land on a given row. So the view can be *pinned*: the first
//! row is held exactly ([`Virt::window_at`]) for as long as the scroll position
//! stays where it was put; the wheel, the keyboard and "go to offset" move the
//! pinned row, while dragging the scrollbar unpins it.

/// The tallest scroll area we create (well under every browser's limit).
pub const MAX_SCROLL_PX: f64 = 8_000_000.0;

/// `v` held within `lo..=hi` (`lo` if `v` is NaN). Unlike `f64::clamp` it has no
/// panic path, whose message would link the float formatter into the page.
pub fn within(v: f64, lo: f64, hi: f64) -> f64 {
    if v > hi {
        hi
    } else if v >= lo {
        v
    } else {
        lo
    }
}

/// A list of `rows` rows of `row_h` pixels shown in a viewport `view_h` high.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Virt {
    /// Number of rows.
    pub rows: u64,
    /// Row height in pixels.
    pub row_h: f64,
    /// Viewport height in pixels.
    pub view_h: f64,
}

/// What to render for a scroll position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// First row to render.
    pub first: u64,
    /// Number of rows to render.
    pub count: u64,
    /// How far (px) to shift the rendered rows up, for smooth scrolling.
    pub shift: f64,
}

impl Virt {
    /// Height of the scrollable content in pixels.
    pub fn content_h(&self) -> f64 {
        (self.rows as f64 * self.row_h).min(MAX_SCROLL_PX)
    }

    /// True if the list is taller than [`MAX_SCROLL_PX`] (scroll positions are
    /// then proportional, not one pixel per pixel).
    pub fn scaled(&self) -> bool {
        self.rows as f64 * self.row_h > MAX_SCROLL_PX
    }

    /// Rows that fit entirely in the viewport (at least 1).
    pub fn page_rows(&self) -> u64 {
        ((self.view_h / self.row_h).floor() as u64).max(1)
    }

    /// The largest first row (the last page is full).
    pub fn max_first(&self) -> u64 {
        self.rows.saturating_sub(self.page_rows())
    }

    /// The rows to render when scrolled to `top` pixels.
    pub fn window(&self, top: f64) -> Window {
        let count = (self.view_h / self.row_h).ceil() as u64 + 1;
        let top = top.max(0.0);
        let (first, shift) = if self.scaled() {
            let range = (self.content_h() - self.view_h).max(1.0);
            let f = ((top / range).min(1.0) * self.max_first() as f64).round() as u64;
            (f, 0.0)
        } else {
            let f = (top / self.row_h).floor() as u64;
            (f, top - f as f64 * self.row_h)
        };
        let first = first.min(self.rows.saturating_sub(1));
        Window {
            first,
            count: count.min(self.rows - first.min(self.rows)),
            shift,
        }
    }

    /// The rows to render with `first` (clamped) at the top, unshifted.
    pub fn window_at(&self, first: u64) -> Window {
        let count = (self.view_h / self.row_h).ceil() as u64 + 1;
        let first = first.min(self.max_first());
        Window {
            first,
            count: count.min(self.rows - first.min(self.rows)),
            shift: 0.0,
        }
    }

    /// The first row that shows `row` when the first row is now `first`:
    /// `None` if it is already fully in view, else a first row that puts it
    /// about a third of the way down.
    pub fn reveal_first(&self, first: u64, row: u64) -> Option<u64> {
        if row >= first && row < first + self.page_rows() {
            return None;
        }
        Some(
            row.saturating_sub(self.page_rows() / 3)
                .min(self.max_first()),
        )
    }

    /// The first row after a wheel turn of `dy` pixels from first row `first`
    /// (at least one row per turn).
    pub fn wheel(&self, first: u64, dy: f64) -> u64 {
        let rows = (dy / self.row_h).round();
        let rows = if rows == 0.0 && dy != 0.0 {
            dy.signum()
        } else {
            rows
        };
        if rows < 0.0 {
            first.saturating_sub((-rows) as u64)
        } else {
            first.saturating_add(rows as u64).min(self.max_first())
        }
    }

    /// The scroll position that puts `row` at the top of the viewport.
    pub fn top_for(&self, row: u64) -> f64 {
        if self.scaled() {
            let range = (self.content_h() - self.view_h).max(1.0);
            let mf = self.max_first().max(1) as f64;
            (row.min(self.max_first()) as f64 / mf) * range
        } else {
            row as f64 * self.row_h
        }
    }

    /// A scroll position that shows `row`, or `None` if it is already fully in view
    /// at `top`. A row out of view is placed about a third of the way down.
    pub fn reveal(&self, top: f64, row: u64) -> Option<f64> {
        let w = self.window(top);
        let fully = self.page_rows().min(w.count);
        let in_view = row >= w.first
            && row < w.first + fully
            && (row > w.first || w.shift < 0.5)
            && (row + 1 < w.first + fully || w.shift < 0.5);
        if in_view {
            return None;
        }
        let lead = self.page_rows() / 3;
        Some(self.top_for(row.saturating_sub(lead)))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn within_holds_a_value_between_its_bounds() {
        assert_eq!(within(5.0, 1.0, 10.0), 5.0);
        assert_eq!(within(-3.0, 1.0, 10.0), 1.0);
        assert_eq!(within(30.0, 1.0, 10.0), 10.0);
        assert_eq!(within(f64::NAN, 1.0, 10.0), 1.0);
    }

    #[test]
    fn small_lists_scroll_pixel_by_pixel() {
        let v = Virt {
            rows: 100,
            row_h: 20.0,
            view_h: 200.0,
        };
        assert_eq!(v.content_h(), 2000.0);
        let w = v.window(45.0);
        assert_eq!((w.first, w.shift), (2, 5.0));
        assert_eq!(w.count, 11);
        assert_eq!(v.window(1e9).first, 99);
        assert_eq!(v.reveal(0.0, 3), None);
        assert_eq!(v.reveal(0.0, 50), Some(20.0 * (50 - 3) as f64));
    }

    #[test]
    fn huge_lists_reach_their_last_row() {
        let rows = 50 * 1024 * 1024 / 16;
        let v = Virt {
            rows,
            row_h: 20.0,
            view_h: 600.0,
        };
        assert_eq!(v.content_h(), MAX_SCROLL_PX);
        let end = v.window(MAX_SCROLL_PX - 600.0);
        assert_eq!(end.first + v.page_rows(), rows);
        let mid = v.top_for(rows / 2);
        let w = v.window(mid);
        assert!((w.first as i64 - (rows / 2) as i64).abs() <= 1);
        assert_eq!(v.window(0.0).first, 0);
    }

    #[test]
    fn a_pinned_view_lands_on_exact_rows_of_a_4_gib_file() {
        let rows = (1u64 << 32) / 16;
        let v = Virt {
            rows,
            row_h: 20.0,
            view_h: 600.0,
        };
        assert!(v.scaled());
        // One pixel of scroll is many rows: the scroll position alone cannot hit
        // an arbitrary row...
        let target = 123_456_789u64;
        let top = v.top_for(target).round();
        assert_ne!(v.window(top).first, target);
        // ...a pinned first row does.
        let first = v.reveal_first(0, target).unwrap();
        let w = v.window_at(first);
        assert!(w.first <= target && target < w.first + v.page_rows());
        assert_eq!(v.reveal_first(first, target), None);
        // The wheel moves by rows, never past the ends.
        assert_eq!(v.wheel(first, 60.0), first + 3);
        assert_eq!(v.wheel(first, -1.0), first - 1);
        assert_eq!(v.wheel(2, -400.0), 0);
        assert_eq!(v.wheel(v.max_first() - 1, 400.0), v.max_first());
        let end = v.window_at(u64::MAX);
        assert_eq!(end.first + v.page_rows(), rows);
    }

    #[test]
    fn empty_lists_render_nothing() {
        let v = Virt {
            rows: 0,
            row_h: 20.0,
            view_h: 200.0,
        };
        assert_eq!(v.window(0.0).count, 0);
    }
}
