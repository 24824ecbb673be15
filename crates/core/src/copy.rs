//! File bytes as text to paste elsewhere: hex, a C, Rust or Python byte array,
//! or base64 (the viewer's "Copy selection as"). The decode worker makes the
//! text, so the page's module holds none of this.

/// A text form of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `DE AD BE EF`, sixteen bytes a line.
    Hex,
    /// `const unsigned char data[4] = { 0xDE, … };`
    C,
    /// `const DATA: [u8; 4] = [0xDE, …];`
    Rust,
    /// `data = bytes([0xDE, …])`
    Python,
    /// Standard base64 (RFC 4648, with padding), one line.
    Base64,
}

/// Most bytes copied at once (the clipboard is not the place for more).
pub const MAX_BYTES: u64 = 16 << 20;

impl Form {
    /// The form called `name` (`hex`, `c`, `rust`, `python`, `base64`).
    pub fn from_name(name: &str) -> Option<Form> {
        Some(match name {
            "hex" => Form::Hex,
            "c" => Form::C,
            "rust" => Form::Rust,
            "python" => Form::Python,
            "base64" => Form::Base64,
            _ => return None,
        })
    }

    /// What the form is called for people (`a C array`).
    pub fn label(self) -> &'static str {
        match self {
            Form::Hex => "hex",
            Form::C => "a C array",
            Form::Rust => "a Rust array",
            Form::Python => "Python bytes",
            Form::Base64 => "base64",
        }
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `bytes` written as `form`.
pub fn text(form: Form, bytes: &[u8]) -> String {
    let n = bytes.len();
    match form {
        Form::Hex => {
            let mut s = String::with_capacity(n * 3);
            for (i, &b) in bytes.iter().enumerate() {
                if i > 0 {
                    s.push(if i % 16 == 0 { '\n' } else { ' ' });
                }
                s.push(HEX[usize::from(b >> 4)] as char);
                s.push(HEX[usize::from(b & 15)] as char);
            }
            s
        }
        Form::C => array(bytes, &format!("const unsigned char data[{n}] = {{"), "};"),
        Form::Rust => array(bytes, &format!("const DATA: [u8; {n}] = ["), "];"),
        Form::Python => array(bytes, "data = bytes([", "])"),
        Form::Base64 => base64(bytes),
    }
}

/// `head`, the bytes as `0xAB, ` sixteen a line (indented), then `tail`.
fn array(bytes: &[u8], head: &str, tail: &str) -> String {
    let mut s = String::with_capacity(head.len() + bytes.len() * 6 + bytes.len() / 16 * 5 + 8);
    s.push_str(head);
    for (i, &b) in bytes.iter().enumerate() {
        s.push_str(if i % 16 == 0 { "\n    " } else { " " });
        s.push_str("0x");
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
        s.push(',');
    }
    if !bytes.is_empty() {
        s.push('\n');
    }
    s.push_str(tail);
    s.push('\n');
    s
}

/// Standard base64 with `=` padding.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let v = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                s.push(A[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_gives_the_rfc_4648_test_vectors() {
        for (i, want) in [
            "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy",
        ]
        .iter()
        .enumerate()
        {
            assert_eq!(base64(&b"foobar"[..i]), *want);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }

    #[test]
    fn hex_breaks_lines_every_sixteen_bytes() {
        let b: Vec<u8> = (0..20).collect();
        let t = text(Form::Hex, &b);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F");
        assert_eq!(lines[1], "10 11 12 13");
        assert_eq!(text(Form::Hex, &[]), "");
    }

    #[test]
    fn arrays_hold_every_byte_once_in_order_and_say_their_length() {
        let b: Vec<u8> = (0..=255).rev().collect();
        for (form, head) in [
            (Form::C, "const unsigned char data[256] = {"),
            (Form::Rust, "const DATA: [u8; 256] = ["),
            (Form::Python, "data = bytes(["),
        ] {
            let t = text(form, &b);
            assert!(t.starts_with(head), "{t}");
            let got: Vec<u8> = t
                .split("0x")
                .skip(1)
                .map(|x| u8::from_str_radix(&x[..2], 16).unwrap())
                .collect();
            assert_eq!(got, b);
        }
        assert_eq!(text(Form::C, &[]), "const unsigned char data[0] = {};\n");
        for name in ["hex", "c", "rust", "python", "base64"] {
            assert!(Form::from_name(name).is_some());
        }
        assert!(Form::from_name("java").is_none());
    }
}
