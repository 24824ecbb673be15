//! Long text, clipped for display. A string field can be a megabyte long (the core
//! keeps up to 64 KiB of it); the tree row and the details pane show only its first
//! [`ROW`] or [`DETAILS`] bytes, cut on a character boundary, followed by `…` and
//! the full length: `"AAAA…" (1,048,577 bytes, first 256 shown)`.
//!
//! The cost is bounded by the number of bytes shown, never by the string's length:
//! the prefix is found first, then only it is escaped and formatted.
//!
//! Characters that would not show up as themselves are written as `\u{…}`
//! escapes: control characters (as the core's value text does) and also the
//! invisible and bidirectional formatting characters (zero-width spaces and
//! joiners, the byte-order mark, U+202E RIGHT-TO-LEFT OVERRIDE and the other bidi
//! controls), which could otherwise hide text or make a name read backwards.

use crate::Value;
use std::fmt::Write as _;

/// Most bytes of one value or display text a tree row shows.
pub const ROW: usize = 256;
/// Most bytes of one value or display text the details pane shows.
pub const DETAILS: usize = 4096;

/// The longest prefix of `s` that is at most `max` bytes long and ends on a
/// character boundary (never splits a UTF-8 sequence).
pub fn head(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    // A UTF-8 sequence is at most 4 bytes: at most 3 steps back.
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    // `get`, not indexing: the cut is on a boundary, and no panic path is linked.
    s.get(..end).unwrap_or_default()
}

/// `n` with a comma between groups of three digits: `1048576` → `1,048,576`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// True for characters that draw nothing or reorder the text around them: bidi
/// controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), zero-width
/// characters (U+200B–U+200D, U+2060) and the byte-order mark (U+FEFF).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// Appends `s`, writing control characters (except, when `keep_lines`, newline
/// and tab) and [invisible](is_invisible) characters as `\u{…}`.
fn push_escaped(out: &mut String, s: &str, keep_lines: bool) {
    for c in s.chars() {
        let plain_space = keep_lines && (c == '\n' || c == '\t');
        if (c.is_control() && !plain_space) || is_invisible(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
}

/// `s` quoted as Rust's `{:?}` quotes a string, for the text of a display:
/// `"`, `\\`, newline, carriage return, tab and NUL as their escapes, other
/// control and [invisible](is_invisible) characters as `\u{…}`, everything
/// else as it is.
pub fn debug_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() || is_invisible(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The note after clipped text: `1,048,577 bytes, first 256 shown`.
pub fn note(total: u64, shown: usize) -> String {
    format!(
        "{} bytes, first {} shown",
        thousands(total),
        thousands(shown as u64)
    )
}

/// A string value as a quoted, escaped text of at most `max` bytes of the string.
/// A longer string is cut on a character boundary and followed by `…` and a
/// [`note`] stating `total` (the field's full length in bytes, if the caller knows
/// it is longer than the text, else the text's length).
pub fn quoted(s: &str, total: u64, max: usize) -> String {
    let h = head(s, max);
    let mut out = String::with_capacity(h.len() + 48);
    out.push('"');
    push_escaped(&mut out, h, false);
    if h.len() < s.len() {
        let total = total.max(s.len() as u64);
        let _ = write!(out, "…\" ({})", note(total, h.len()));
    } else {
        out.push('"');
    }
    out
}

/// Free text (a decoder's display text) of at most `max` bytes, with invisible
/// characters escaped; longer text is cut and followed by `…` and a [`note`].
pub fn plain(s: &str, max: usize) -> String {
    let h = head(s, max);
    let mut out = String::with_capacity(h.len() + 48);
    push_escaped(&mut out, h, true);
    if h.len() < s.len() {
        let _ = write!(out, "… ({})", note(s.len() as u64, h.len()));
    }
    out
}

/// A node's value as text: strings through [`quoted`] (`field_len`: the bytes the
/// string's field covers in the file, when the node is the string itself), other
/// values as the core writes them.
pub fn value(v: &Value, field_len: Option<u64>, max: usize) -> String {
    match v {
        Value::Str(s) => quoted(s, field_len.unwrap_or(0), max),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_quoting_is_rusts_for_text_and_marks_invisible_characters() {
        for s in [
            "main",
            "a\"b\\c",
            "tab\there\r\n\0",
            "\u{1}\u{7f}",
            "é ü 中文",
            "",
            "it's",
        ] {
            assert_eq!(debug_quoted(s), format!("{s:?}"), "{s}");
        }
        assert_eq!(debug_quoted("a\u{202E}b"), "\"a\\u{202e}b\"");
    }

    #[test]
    fn short_text_is_shown_whole_and_quoted_like_the_core() {
        assert_eq!(quoted("POSITION", 9, ROW), "\"POSITION\"");
        assert_eq!(
            value(&Value::Str("a\nb".into()), None, ROW),
            Value::Str("a\nb".into()).to_string()
        );
        assert_eq!(value(&Value::U(7), Some(4), ROW), "7");
        assert_eq!(plain("offset 0x4", ROW), "offset 0x4");
    }

    #[test]
    fn a_megabyte_string_is_cut_and_its_length_stated() {
        let s = "A".repeat(1 << 20);
        let t = quoted(&s, (1 << 20) + 1, ROW);
        assert_eq!(
            t,
            format!(
                "\"{}…\" (1,048,577 bytes, first 256 shown)",
                "A".repeat(256)
            )
        );
        // Without a longer field, the text's own length is stated.
        assert!(quoted(&s, 0, DETAILS).ends_with("…\" (1,048,576 bytes, first 4,096 shown)"));
        assert!(plain(&s, ROW).ends_with("… (1,048,576 bytes, first 256 shown)"));
    }

    #[test]
    fn cuts_never_split_a_character() {
        // "é" is 2 bytes, "😀" 4: every cut lands on a boundary at or below max.
        for unit in ["é", "😀", "a😀é"] {
            let s = unit.repeat(200);
            for max in 0..40 {
                let h = head(&s, max);
                assert!(h.len() <= max && h.len() + 4 > max, "{unit} {max}");
                assert!(s.starts_with(h));
                // Valid UTF-8 by construction; the rest of the string starts on a char.
                assert!(s.is_char_boundary(h.len()));
            }
        }
        assert_eq!(head("😀😀", 5), "😀");
        assert_eq!(head("😀😀", 3), "");
        assert_eq!(quoted("😀😀", 8, 5), "\"😀…\" (8 bytes, first 4 shown)");
    }

    #[test]
    fn invisible_and_control_characters_are_escaped() {
        let s = "abc\u{202E}fed\u{200B}\u{200D}x\u{0}y\u{FEFF}";
        assert_eq!(
            quoted(s, 0, ROW),
            "\"abc\\u{202e}fed\\u{200b}\\u{200d}x\\u{0}y\\u{feff}\""
        );
        // Display text keeps its line breaks and tabs, nothing else invisible.
        assert_eq!(plain("a\tb\nc\u{2066}\u{7}", ROW), "a\tb\nc\\u{2066}\\u{7}");
        assert!(!is_invisible('a') && !is_invisible('é') && is_invisible('\u{2069}'));
    }

    #[test]
    fn html_is_left_as_text() {
        let x = "<img src=x onerror=alert(1)>";
        assert_eq!(quoted(x, 0, ROW), format!("\"{x}\""));
        assert_eq!(plain(x, ROW), x);
    }

    #[test]
    fn thousands_groups_digits() {
        for (n, t) in [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (65536, "65,536"),
            (1048576, "1,048,576"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(thousands(n), t);
        }
    }

    #[test]
    fn output_is_bounded_by_the_shown_prefix() {
        // A 64 MiB string in a 256-byte row: even fully escaped, the text stays short.
        let s = "\u{0}".repeat(64 << 20);
        let t = quoted(&s, 0, ROW);
        assert!(t.len() < 256 * 6 + 64, "{}", t.len());
        assert!(t.ends_with("(67,108,864 bytes, first 256 shown)"));
    }
}
