//! Decoding on demand in the tests: expanding every lazy node of a tree and
//! checking that the result is the eager tree, byte for byte in both dumps.

use hexlens_core::stream::{self, streaming_options, Limits};
use hexlens_core::{decode_bytes, decode_with, output, Decoded, Options};

/// Options for decoding on demand with pages of `page` entries.
pub fn paged(page: u32) -> Options {
    Options {
        page_size: Some(page),
        ..streaming_options()
    }
}

/// Expands every lazy node of `d`, one at a time, until none is left (nodes an
/// expansion makes are appended, so one pass in creation order finds them all).
/// With `exact`, a lazy node that was not marked damaged must hold no error once
/// expanded (its totals were vouched for). Returns how many were expanded.
pub fn expand_all(bytes: &[u8], d: &mut Decoded, exact: bool) -> Result<usize, String> {
    let (mut done, mut next) = (0, 0);
    while let Some(id) = d.tree.next_lazy(next) {
        let was = d.tree.is_damaged(id);
        hexlens_core::expand(&bytes, &mut d.tree, id)
            .map_err(|e| format!("expanding {}: {e}", d.tree.path(id)))?;
        if exact && !was && d.tree.is_damaged(id) {
            return Err(format!(
                "{} was lazy and clean but holds an error",
                d.tree.path(id)
            ));
        }
        done += 1;
        next = id + 1;
    }
    Ok(done)
}

/// Where two dumps first differ, with some context from each.
pub fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = a[..at].rfind('\n').unwrap_or(0);
    let take = |s: &str| {
        s.get(from..(at + 300).min(s.len()))
            .unwrap_or("")
            .to_string()
    };
    format!(
        "at byte {at}:\n--- on demand\n{}\n--- eager\n{}",
        take(a),
        take(b)
    )
}

/// Asserts that two dumps are equal, showing where they first differ.
pub fn assert_same(what: &str, got: &str, want: &str) {
    assert!(got == want, "{what}: {}", first_difference(got, want));
}

/// Decoding `bytes` on demand with pages of `page` entries and expanding every
/// lazy node gives the eager tree: the same JSON and text bytes and the same
/// cleanliness, with and without exact totals. Where the decoder vouches for
/// every lazy part (`vouched`), none of them may hide an error. The streaming
/// dumps (with the survey the CLI runs when lazy parts may hide damage) are the
/// eager dumps too.
pub fn same_as_eager(what: &str, bytes: &[u8], page: u32, vouched: bool) {
    let eager = decode_bytes(bytes);
    let (json, txt) = (output::to_json(&eager), output::to_text(&eager));
    let mut lazy = decode_with(&bytes, &paged(page));
    if vouched {
        assert!(
            !lazy.tree.may_hide_damage(),
            "{what}: every lazy part is vouched for"
        );
    }
    let exact = !lazy.tree.may_hide_damage();
    expand_all(bytes, &mut lazy, exact).unwrap_or_else(|e| panic!("{what}: {e}"));
    let how = format!("{what} (pages of {page})");
    assert_same(&format!("{how}: JSON"), &output::to_json(&lazy), &json);
    assert_same(&format!("{how}: text"), &output::to_text(&lazy), &txt);
    assert_eq!(lazy.is_clean(), eager.is_clean(), "{what}: cleanliness");
    // Without exact totals lazy parts are not checked first (they may hide an
    // error); expanded, they still give the eager tree where the decoder vouches
    // for its lazy parts (elsewhere a summary may stay provisional: "… decoded so
    // far").
    if !vouched {
        return streamed_same(what, bytes, page, &json, &txt);
    }
    let mut loose = decode_with(
        &bytes,
        &Options {
            exact_totals: false,
            ..paged(page)
        },
    );
    expand_all(bytes, &mut loose, false).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_same(
        &format!("{how}, inexact: JSON"),
        &output::to_json(&loose),
        &json,
    );
    streamed_same(what, bytes, page, &json, &txt);
}

/// The streaming dumps of `bytes` are `json` and `txt`.
fn streamed_same(what: &str, bytes: &[u8], page: u32, json: &str, txt: &str) {
    let how = format!("{what} (pages of {page})");
    for as_json in [true, false] {
        let got = streamed(bytes, page, as_json);
        let want = if as_json {
            format!("{json}\n")
        } else {
            txt.to_string()
        };
        assert_same(&format!("{how}, streamed, json {as_json}"), &got, &want);
    }
}

/// The streaming dump of `bytes` (JSON or text) with pages of `page` entries,
/// a survey first when lazy parts may hide damage, as the CLI does.
pub fn streamed(bytes: &[u8], page: u32, as_json: bool) -> String {
    streamed_with(bytes, &paged(page), Limits::default(), as_json).0
}

/// The streaming dump of `bytes` decoded with `opts` and written within
/// `limits` (a survey first when lazy parts may hide damage, as the CLI does),
/// and whether the decode came out clean.
pub fn streamed_with(
    bytes: &[u8],
    opts: &Options,
    limits: Limits,
    as_json: bool,
) -> (String, bool) {
    let mut d = decode_with(&bytes, opts);
    let damage;
    let mut limits = limits;
    if d.tree.may_hide_damage() {
        damage = stream::survey(&bytes, &mut d.tree);
        limits.damage = Some(&damage);
    }
    let root = d.tree.root();
    let mut out = Vec::new();
    if as_json {
        stream::write_json(&bytes, &mut d, root, limits, &mut out).unwrap();
    } else {
        stream::write_text(&bytes, &mut d, root, limits, &mut out).unwrap();
    }
    (String::from_utf8(out).unwrap(), d.is_clean())
}
