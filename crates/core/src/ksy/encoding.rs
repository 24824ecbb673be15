//! The text encodings `.ksy` strings are read in. Names are compared
//! without case, `-` or `_` (`UTF-8`, `utf8`, `UTF_16LE`), as Kaitai
//! Struct's compiler accepts them. Bytes that are not valid in the encoding
//! become U+FFFD.

/// The encodings known, by their normalised name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Ascii,
    Utf8,
    Utf16Le,
    Utf16Be,
    Utf32Le,
    Utf32Be,
    Latin1,
    Windows1252,
    Ibm437,
}

fn norm(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_uppercase)
        .collect()
}

impl Encoding {
    /// The encoding a `.ksy` names, if it is one hexlens reads.
    pub fn from_name(name: &str) -> Option<Encoding> {
        // The usual spellings, without normalizing.
        match name {
            "UTF-8" | "utf-8" => return Some(Encoding::Utf8),
            "ASCII" | "ascii" => return Some(Encoding::Ascii),
            _ => {}
        }
        Some(match norm(name).as_str() {
            "ASCII" | "USASCII" => Encoding::Ascii,
            "UTF8" => Encoding::Utf8,
            "UTF16LE" => Encoding::Utf16Le,
            "UTF16BE" => Encoding::Utf16Be,
            "UTF32LE" => Encoding::Utf32Le,
            "UTF32BE" => Encoding::Utf32Be,
            "ISO88591" | "LATIN1" => Encoding::Latin1,
            "WINDOWS1252" | "CP1252" => Encoding::Windows1252,
            "IBM437" | "CP437" => Encoding::Ibm437,
            _ => return None,
        })
    }

    /// Bytes per code unit (what a terminator is made of for `strz`).
    pub fn unit(self) -> usize {
        match self {
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            Encoding::Utf32Le | Encoding::Utf32Be => 4,
            _ => 1,
        }
    }

    /// `bytes` decoded.
    pub fn decode(self, bytes: &[u8]) -> String {
        match self {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Encoding::Ascii => bytes
                .iter()
                .map(|&b| if b < 0x80 { b as char } else { '\u{FFFD}' })
                .collect(),
            Encoding::Latin1 => bytes.iter().map(|&b| b as char).collect(),
            Encoding::Windows1252 => bytes
                .iter()
                .map(|&b| match b {
                    0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
                    _ => b as char,
                })
                .collect(),
            Encoding::Ibm437 => bytes
                .iter()
                .map(|&b| {
                    if b < 0x80 {
                        b as char
                    } else {
                        CP437_HIGH[(b - 0x80) as usize]
                    }
                })
                .collect(),
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let le = self == Encoding::Utf16Le;
                let units = bytes.chunks(2).map(|c| {
                    if c.len() < 2 {
                        0xFFFD
                    } else if le {
                        u16::from_le_bytes([c[0], c[1]])
                    } else {
                        u16::from_be_bytes([c[0], c[1]])
                    }
                });
                char::decode_utf16(units)
                    .map(|r| r.unwrap_or('\u{FFFD}'))
                    .collect()
            }
            Encoding::Utf32Le | Encoding::Utf32Be => bytes
                .chunks(4)
                .map(|c| {
                    if c.len() < 4 {
                        return '\u{FFFD}';
                    }
                    let a = [c[0], c[1], c[2], c[3]];
                    let v = if self == Encoding::Utf32Le {
                        u32::from_le_bytes(a)
                    } else {
                        u32::from_be_bytes(a)
                    };
                    char::from_u32(v).unwrap_or('\u{FFFD}')
                })
                .collect(),
        }
    }
}

/// True if hexlens reads strings in the encoding `name`.
pub fn known(name: &str) -> bool {
    Encoding::from_name(name).is_some()
}

/// `bytes` decoded in the encoding `name`.
pub fn decode(bytes: &[u8], name: &str) -> Result<String, String> {
    Encoding::from_name(name)
        .map(|e| e.decode(bytes))
        .ok_or_else(|| format!("unknown encoding '{name}'"))
}

const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{FFFD}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{FFFD}', '\u{017D}', '\u{FFFD}',
    '\u{FFFD}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{FFFD}', '\u{017E}', '\u{0178}',
];

const CP437_HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{A0}',
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_and_text_decodes() {
        assert_eq!(Encoding::from_name("utf_8"), Some(Encoding::Utf8));
        assert_eq!(Encoding::from_name("UTF-16le"), Some(Encoding::Utf16Le));
        assert!(!known("EBCDIC"));
        assert_eq!(decode(b"h\xC3\xA9", "UTF-8").unwrap(), "hé");
        assert_eq!(decode(b"h\x00i\x00", "UTF-16LE").unwrap(), "hi");
        assert_eq!(decode(b"\x80", "windows-1252").unwrap(), "€");
        assert_eq!(decode(b"\xE9", "ISO-8859-1").unwrap(), "é");
        assert_eq!(decode(b"\xB0", "IBM437").unwrap(), "░");
        assert_eq!(decode(b"a\xFF", "ASCII").unwrap(), "a\u{FFFD}");
    }
}
