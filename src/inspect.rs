//! The data inspector: the bytes at the cursor read as every common scalar type,
//! in little and big endian, plus a FourCC and a printable preview.

/// One inspector row: a type and its value in little and big endian (`None` when
/// the file ends too soon; single-byte types have the same value in both).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Type label (`u16`, `f32`, …).
    pub label: &'static str,
    /// Little-endian reading.
    pub le: Option<String>,
    /// Big-endian reading.
    pub be: Option<String>,
}

fn arr<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    b.get(..N)?.try_into().ok()
}

/// A float as the shortest text that reads back as the same value. In the browser
/// the engine's own number formatting writes it (exponent form from 1e21 and below
/// 1e-6): the page then links no float formatter of its own, about 7 KB of its
/// gzip download.
#[cfg(target_arch = "wasm32")]
fn float(v: f64) -> String {
    js_sys::Number::from(v)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// `v` (whose value as an `f64` is `x`) as the shortest text that reads back as
/// the same value: in exponent form from 1e15 and below 1e-6.
#[cfg(not(target_arch = "wasm32"))]
fn shortest(v: impl std::fmt::Display + std::fmt::LowerExp, x: f64) -> String {
    if x.is_finite() && x != 0.0 && (x.abs() >= 1e15 || x.abs() < 1e-6) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A float as the shortest text that reads back as the same value.
#[cfg(not(target_arch = "wasm32"))]
fn float(v: f64) -> String {
    shortest(v, v)
}

/// An `f32` as the shortest text that reads back as the same `f32` (`0.1`, not
/// the `0.10000000149011612` its exact value as an `f64` would print).
#[cfg(target_arch = "wasm32")]
fn float32(v: f32) -> String {
    let n = js_sys::Number::from(f64::from(v));
    if v.is_finite() {
        // At most 9 significant digits tell any two f32 apart.
        for digits in 1..=9u8 {
            if let Ok(s) = n.to_precision(digits) {
                let s = String::from(s);
                if js_sys::Number::parse_float(&s) as f32 == v {
                    return s;
                }
            }
        }
    }
    float(f64::from(v))
}

/// An `f32` as the shortest text that reads back as the same `f32`.
#[cfg(not(target_arch = "wasm32"))]
fn float32(v: f32) -> String {
    shortest(v, f64::from(v))
}

macro_rules! int_rows {
    ($rows:ident, $b:ident, $( ($lu:literal, $u:ty, $li:literal, $i:ty, $n:literal) ),*) => {$(
        let a = arr::<$n>($b);
        $rows.push(Row {
            label: $lu,
            le: a.map(|a| <$u>::from_le_bytes(a).to_string()),
            be: a.map(|a| <$u>::from_be_bytes(a).to_string()),
        });
        $rows.push(Row {
            label: $li,
            le: a.map(|a| <$i>::from_le_bytes(a).to_string()),
            be: a.map(|a| <$i>::from_be_bytes(a).to_string()),
        });
    )*};
}

/// Reads `bytes` (the file from the cursor on; 8 bytes are enough) as every type.
pub fn rows(bytes: &[u8]) -> Vec<Row> {
    let mut rows = Vec::with_capacity(12);
    int_rows!(
        rows,
        bytes,
        ("u8", u8, "i8", i8, 1),
        ("u16", u16, "i16", i16, 2),
        ("u32", u32, "i32", i32, 4),
        ("u64", u64, "i64", i64, 8)
    );
    let a = arr::<4>(bytes);
    rows.push(Row {
        label: "f32",
        le: a.map(|a| float32(f32::from_le_bytes(a))),
        be: a.map(|a| float32(f32::from_be_bytes(a))),
    });
    let a = arr::<8>(bytes);
    rows.push(Row {
        label: "f64",
        le: a.map(|a| float(f64::from_le_bytes(a))),
        be: a.map(|a| float(f64::from_be_bytes(a))),
    });
    rows
}

/// The four bytes at the cursor as a FourCC (`'DXBC'`), non-printable bytes as
/// `\xNN`; `None` past the end.
pub fn fourcc(bytes: &[u8]) -> Option<String> {
    let a = arr::<4>(bytes)?;
    let mut s = String::new();
    for b in a {
        if (0x20..0x7F).contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{b:02X}"));
        }
    }
    Some(s)
}

/// Up to `max` bytes from the cursor as text: printable ASCII as is, anything
/// else as `.` (a quick look at what a run of bytes says).
pub fn preview(bytes: &[u8], max: usize) -> String {
    bytes
        .iter()
        .take(max)
        .map(|&b| {
            if (0x20..0x7F).contains(&b) {
                b as char
            } else {
                '.'
            }
        })
        .collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn reads_both_endians_and_stops_at_the_end() {
        let r = rows(&[0x01, 0x02, 0x00, 0x80]);
        let get = |l: &str| r.iter().find(|x| x.label == l).unwrap().clone();
        assert_eq!(get("u8").le.as_deref(), Some("1"));
        assert_eq!(get("u16").le.as_deref(), Some("513"));
        assert_eq!(get("u16").be.as_deref(), Some("258"));
        assert_eq!(
            get("i32").le.as_deref(),
            Some(&*(i32::from_le_bytes([1, 2, 0, 0x80])).to_string())
        );
        assert_eq!(get("u64").le, None);
        assert_eq!(get("f64").be, None);
        assert!(get("f32").le.is_some());
        let f = rows(&0.1f32.to_le_bytes());
        assert_eq!(
            f.iter().find(|x| x.label == "f32").unwrap().le.as_deref(),
            Some("0.1")
        );
        assert_eq!(fourcc(b"DXBC!").as_deref(), Some("DXBC"));
        assert_eq!(fourcc(b"\x00AB\xff").as_deref(), Some("\\x00AB\\xFF"));
        assert_eq!(fourcc(b"ab"), None);
        assert_eq!(preview(b"<img>\x00x", 5), "<img>");
        assert_eq!(preview(b"a\x00b", 8), "a.b");
    }
}
