//! Precomputed 256-entry tables for rendering bytes (the idea of sharkdp/hexyl):
//! the two hex digits, the byte class that drives colour, and the character shown
//! in the ASCII column. Rendering a row is a table lookup per byte.

/// How a byte is coloured, the same in the hex and ASCII columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteClass {
    /// 0x00.
    Zero,
    /// Printable ASCII, 0x21..=0x7E.
    Printable,
    /// ASCII whitespace: space, tab, line feed, vertical tab, form feed, carriage return.
    Whitespace,
    /// Everything else: other control bytes and bytes >= 0x80.
    Other,
}

impl ByteClass {
    /// The CSS class for this byte class.
    pub const fn css(self) -> &'static str {
        match self {
            ByteClass::Zero => "bz",
            ByteClass::Printable => "bp",
            ByteClass::Whitespace => "bw",
            ByteClass::Other => "bo",
        }
    }
}

const fn class_of(b: u8) -> ByteClass {
    match b {
        0 => ByteClass::Zero,
        b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => ByteClass::Whitespace,
        0x21..=0x7E => ByteClass::Printable,
        _ => ByteClass::Other,
    }
}

const fn char_of(b: u8) -> char {
    match class_of(b) {
        ByteClass::Zero => '·',
        ByteClass::Printable => b as char,
        ByteClass::Whitespace => {
            if b == b' ' {
                '\u{2423}' // ␣
            } else {
                '_'
            }
        }
        ByteClass::Other => {
            if b < 0x80 {
                '•'
            } else {
                '×'
            }
        }
    }
}

const fn build_classes() -> [ByteClass; 256] {
    let mut t = [ByteClass::Zero; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = class_of(i as u8);
        i += 1;
    }
    t
}

const fn build_chars() -> [char; 256] {
    let mut t = ['\0'; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = char_of(i as u8);
        i += 1;
    }
    t
}

/// The class of every byte value.
pub static CLASS: [ByteClass; 256] = build_classes();

/// The character the ASCII column shows for every byte value.
pub static ASCII: [char; 256] = build_chars();

/// Two upper-case hex digits for every byte value.
pub static HEX: [&str; 256] = [
    "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "0A", "0B", "0C", "0D", "0E", "0F",
    "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "1A", "1B", "1C", "1D", "1E", "1F",
    "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "2A", "2B", "2C", "2D", "2E", "2F",
    "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "3A", "3B", "3C", "3D", "3E", "3F",
    "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "4A", "4B", "4C", "4D", "4E", "4F",
    "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "5A", "5B", "5C", "5D", "5E", "5F",
    "60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "6A", "6B", "6C", "6D", "6E", "6F",
    "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "7A", "7B", "7C", "7D", "7E", "7F",
    "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "8A", "8B", "8C", "8D", "8E", "8F",
    "90", "91", "92", "93", "94", "95", "96", "97", "98", "99", "9A", "9B", "9C", "9D", "9E", "9F",
    "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "AA", "AB", "AC", "AD", "AE", "AF",
    "B0", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "BA", "BB", "BC", "BD", "BE", "BF",
    "C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "CA", "CB", "CC", "CD", "CE", "CF",
    "D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "DA", "DB", "DC", "DD", "DE", "DF",
    "E0", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "EA", "EB", "EC", "ED", "EE", "EF",
    "F0", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "FA", "FB", "FC", "FD", "FE", "FF",
];

/// The class of `b`.
pub fn class(b: u8) -> ByteClass {
    CLASS[b as usize]
}

/// Hex digits of `b`.
pub fn hex(b: u8) -> &'static str {
    HEX[b as usize]
}

/// The ASCII-column character of `b`.
pub fn ascii(b: u8) -> char {
    ASCII[b as usize]
}

/// An offset as the hex pane's offset column prints it: at least 8 digits, more
/// for files past 4 GiB.
pub fn offset(o: u64) -> String {
    format!("{o:08X}")
}

/// `v` rounded to `places` decimals (at most 3), written with integer formatting:
/// the page formats no float with `{}`, so the float formatter (about 7 KB of the
/// page's gzip download) is not linked.
pub fn decimal(v: f64, places: u32) -> String {
    let places = places.min(3);
    let scale = 10u64.pow(places);
    let t = (v * scale as f64).round();
    let neg = t < 0.0;
    let a = t.abs() as u64;
    let (int, frac) = (a / scale, a % scale);
    let sign = if neg && a != 0 { "-" } else { "" };
    if places == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac:0w$}", w = places as usize)
    }
}

/// A CSS length: `v` px to a hundredth of a pixel.
pub fn px(v: f64) -> String {
    let mut s = decimal(v, 2);
    s.push_str("px");
    s
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_formatting() {
        for b in 0..=255u8 {
            assert_eq!(hex(b), format!("{b:02X}"));
        }
        assert_eq!(class(0), ByteClass::Zero);
        assert_eq!(class(b'A'), ByteClass::Printable);
        assert_eq!(class(b'\n'), ByteClass::Whitespace);
        assert_eq!(class(0x80), ByteClass::Other);
        assert_eq!(class(0x7F), ByteClass::Other);
        assert_eq!(ascii(b'<'), '<');
        assert_eq!(ascii(0), '·');
        assert_eq!(offset(0x12), "00000012");
        assert_eq!(offset(0x1_0000_0000), "100000000");
    }

    #[test]
    fn decimals_match_the_float_formatter() {
        for v in [
            0.0,
            0.04,
            0.05,
            1.25,
            99.95,
            380.0,
            -0.004,
            -12.345,
            1e9 + 0.5,
            2.0e15,
        ] {
            for places in 0..=3u32 {
                let want = format!("{v:.p$}", p = places as usize);
                let got = decimal(v, places);
                // The float formatter rounds halves to even on the exact binary value;
                // the two may differ by one unit in the last place only on such ties.
                let (w, g): (f64, f64) = (want.parse().unwrap(), got.parse().unwrap());
                assert!(
                    (w - g).abs() <= 1.01 / 10f64.powi(places as i32),
                    "{v} {places}: {want} vs {got}"
                );
            }
        }
        assert_eq!(decimal(-0.004, 2), "0.00");
        assert_eq!(decimal(12.5, 0), "13");
        assert_eq!(px(-40.0), "-40.00px");
        assert_eq!(px(1234.567), "1234.57px");
    }
}
