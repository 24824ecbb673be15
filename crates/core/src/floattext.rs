//! Floating-point values as text, written exactly as Rust's `{}` (the tree's
//! values and displays) and `{:?}` (numbers in the JSON dump) write them: the
//! shortest decimal digits that read back as the same value, placed without an
//! exponent (`{}`), or with one outside 1e-4 ≤ |x| < 1e16 (`{:?}`).
//!
//! Only the digits come from elsewhere. Natively they are Rust's own (`{:e}`).
//! In a wasm build with the `host-floats` feature (the web viewer's decode
//! worker) they are the JavaScript engine's (`Number.prototype.toString`, which
//! also gives the shortest digits that read back the same, the nearest of them
//! when several are as short): Rust's float-to-decimal code, about 6 KB of each
//! decoder module's gzip download, is then not linked at all.

use std::fmt;

/// A finite, non-zero magnitude as decimal digits: `0.d₁d₂…dₙ × 10^point`
/// (`digits` has no leading or trailing zero).
struct Decimal {
    digits: String,
    point: i32,
}

/// Reads the digits of a number written in decimal, with or without an
/// exponent (`123.45`, `0.000012`, `1.5e-7`, `1e+21`, `5e0`); `None` for
/// anything else. The sign is not expected.
fn parse(text: &str) -> Option<Decimal> {
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let all: String = format!("{int}{frac}");
    let lead = all.bytes().take_while(|&b| b == b'0').count();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    if digits.is_empty() {
        return None;
    }
    Some(Decimal {
        digits: digits.to_string(),
        point: int.len() as i32 - lead as i32 + exp,
    })
}

/// The shortest digits of a finite, non-zero `x.abs()`.
#[cfg(not(all(target_arch = "wasm32", feature = "host-floats")))]
fn shortest(x: f64) -> Decimal {
    parse(&format!("{:e}", x.abs())).unwrap_or(Decimal {
        digits: "0".into(),
        point: 1,
    })
}

/// The shortest digits of a finite, non-zero `x.abs()`, as the JavaScript
/// engine writes them, with one correction: when two shortest candidates are
/// exactly as near (the value lies midway between them), the engine takes the
/// even one and Rust the greater (see [`midway`]).
#[cfg(all(target_arch = "wasm32", feature = "host-floats"))]
fn shortest(x: f64) -> Decimal {
    let a = x.abs();
    let text: String = js_sys::Number::from(a)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default();
    let d = parse(&text).unwrap_or(Decimal {
        digits: "0".into(),
        point: 1,
    });
    match midway(a, d.digits.len()) {
        Some(up) if js_sys::parse_float(&up.text()) == a => up,
        _ => d,
    }
}

impl Decimal {
    /// The number in the engine's notation, to read it back.
    #[allow(dead_code)]
    fn text(&self) -> String {
        format!("0.{}e{}", self.digits, self.point)
    }
}

/// The exact decimal value of a finite, non-zero `a` (positive) when it has at
/// most 38 digits; `None` otherwise.
fn exact(a: f64) -> Option<Decimal> {
    let bits = a.to_bits();
    let (exp, frac) = ((bits >> 52) as i32 & 0x7ff, bits & ((1u64 << 52) - 1));
    let (mut m, mut e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    if m == 0 {
        return None;
    }
    let z = m.trailing_zeros() as i32;
    m >>= z;
    e += z;
    let (int, point_shift) = if e >= 0 {
        // m·2^e, an integer.
        if e > 74 {
            return None;
        }
        ((m as u128) << e, 0)
    } else {
        // m·5^k / 10^k.
        let k = -e;
        if k > 32 {
            return None;
        }
        ((m as u128).checked_mul(5u128.pow(k as u32))?, k)
    };
    let text = int.to_string();
    let digits = text.trim_end_matches('0');
    if digits.is_empty() {
        return None;
    }
    Some(Decimal {
        digits: digits.to_string(),
        point: text.len() as i32 - point_shift,
    })
}

/// When `a` lies exactly midway between two numbers of `n` significant
/// digits (its exact value has `n + 1` digits, the last a 5), the greater of
/// the two: the one Rust writes when both read back as `a`.
#[allow(dead_code)]
fn midway(a: f64, n: usize) -> Option<Decimal> {
    let e = exact(a)?;
    if e.digits.len() != n + 1 || !e.digits.ends_with('5') {
        return None;
    }
    let mut digits = e.digits.as_bytes().get(..n)?.to_vec();
    let mut point = e.point;
    // Add one in the last place, carrying.
    let mut i = n;
    loop {
        if i == 0 {
            digits.insert(0, b'1');
            point += 1;
            break;
        }
        i -= 1;
        if digits[i] == b'9' {
            digits[i] = b'0';
        } else {
            digits[i] += 1;
            break;
        }
    }
    let text = String::from_utf8(digits).ok()?;
    Some(Decimal {
        digits: text.trim_end_matches('0').to_string(),
        point,
    })
}

fn push_zeros(out: &mut String, n: i32) {
    for _ in 0..n.max(0) {
        out.push('0');
    }
}

/// Digits placed without an exponent; at least `min_frac` digits after the point.
fn plain(out: &mut String, d: &Decimal, min_frac: usize) {
    let n = d.digits.len() as i32;
    if d.point <= 0 {
        out.push_str("0.");
        push_zeros(out, -d.point);
        out.push_str(&d.digits);
    } else if d.point < n {
        let p = d.point as usize;
        let (int, frac) = d.digits.split_at_checked(p).unwrap_or((&d.digits, ""));
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else {
        out.push_str(&d.digits);
        push_zeros(out, d.point - n);
        if min_frac > 0 {
            out.push('.');
            push_zeros(out, min_frac as i32);
        }
    }
}

/// Signs, zeros and the values that are not numbers, as Rust writes them;
/// `None` for a finite non-zero value.
fn special(out: &mut String, x: f64, zero: &str) -> Option<()> {
    if x.is_nan() {
        out.push_str("NaN");
        return Some(());
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
    } else if x == 0.0 {
        out.push_str(zero);
    } else {
        return None;
    }
    Some(())
}

/// Appends `x` as `format!("{x}")` writes it.
pub fn push_display(out: &mut String, x: f64) {
    if special(out, x, "0").is_none() {
        plain(out, &shortest(x), 0);
    }
}

/// Appends `x` as `format!("{x:?}")` writes it.
pub fn push_debug(out: &mut String, x: f64) {
    if special(out, x, "0.0").is_some() {
        return;
    }
    let d = shortest(x);
    let a = x.abs();
    if !(1e-4..1e16).contains(&a) {
        let (first, rest) = d.digits.split_at_checked(1).unwrap_or((&d.digits, ""));
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push_str(&(d.point - 1).to_string());
    } else {
        plain(out, &d, 1);
    }
}

/// `x` as `format!("{x}")` writes it.
pub fn display(x: f64) -> String {
    let mut s = String::new();
    push_display(&mut s, x);
    s
}

/// `x` as `format!("{x:?}")` writes it.
pub fn debug(x: f64) -> String {
    let mut s = String::new();
    push_debug(&mut s, x);
    s
}

/// Writes `x` into a formatter as `{}` would.
pub fn write_display(f: &mut fmt::Formatter<'_>, x: f64) -> fmt::Result {
    f.write_str(&display(x))
}

/// Appends `x` with six digits after the point, as `format!("{x:.6}")`
/// (and C's `%f`) writes it: the exact value rounded, halves to even. In
/// integers only, so no float formatting is linked.
pub fn push_fixed6(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    if x.is_infinite() {
        out.push_str("inf");
        return;
    }
    let bits = x.to_bits();
    let (exp, frac) = ((bits >> 52) as i32 & 0x7ff, bits & ((1u64 << 52) - 1));
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp - 1075)
    };
    const SCALE: u128 = 1_000_000;
    if e >= 0 {
        // An integer: m·2^e in decimal, then ".000000".
        push_big_shifted(out, m, e as u32);
        out.push_str(".000000");
        return;
    }
    let k = (-e) as u32;
    // x = m / 2^k, m < 2^53: far below 5e-7 once k ≥ 74, so 0 at six digits
    // (and the shifts below stay inside 128 bits).
    let (int, millionths) = if k >= 120 {
        (0u128, 0u128)
    } else {
        let m = u128::from(m);
        let int = m >> k;
        let r = m & ((1u128 << k) - 1);
        // r·10^6 / 2^k, rounded, halves to even.
        let p = r * SCALE;
        let (mut q, rem) = (p >> k, p & ((1u128 << k) - 1));
        let half = 1u128 << (k - 1);
        if rem > half || (rem == half && q % 2 == 1) {
            q += 1;
        }
        (int + q / SCALE, q % SCALE)
    };
    out.push_str(&int.to_string());
    out.push('.');
    let f = millionths.to_string();
    push_zeros(out, 6 - f.len() as i32);
    out.push_str(&f);
}

/// Appends `m·2^e` in decimal.
fn push_big_shifted(out: &mut String, m: u64, e: u32) {
    if e <= 64 {
        out.push_str(&((u128::from(m)) << e).to_string());
        return;
    }
    // Base 10^9 limbs, least significant first.
    let mut limbs: Vec<u64> = Vec::new();
    let mut v = m;
    while v > 0 {
        limbs.push(v % 1_000_000_000);
        v /= 1_000_000_000;
    }
    for _ in 0..e {
        let mut carry = 0;
        for l in &mut limbs {
            let x = *l * 2 + carry;
            *l = x % 1_000_000_000;
            carry = x / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut it = limbs.iter().rev();
    if let Some(first) = it.next() {
        out.push_str(&first.to_string());
    }
    for l in it {
        let s = l.to_string();
        push_zeros(out, 9 - s.len() as i32);
        out.push_str(&s);
    }
}

/// `x` with six digits after the point (see [`push_fixed6`]).
pub fn fixed6(x: f64) -> String {
    let mut s = String::new();
    push_fixed6(&mut s, x);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator (xorshift), so the sweep is the same on every run.
    fn bits(n: usize) -> impl Iterator<Item = u64> {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        (0..n).map(move |_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
    }

    fn check(x: f64) {
        assert_eq!(display(x), format!("{x}"), "{{}} of {:#x}", x.to_bits());
        assert_eq!(debug(x), format!("{x:?}"), "{{:?}} of {:#x}", x.to_bits());
    }

    #[test]
    fn edges_are_written_as_rust_writes_them() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            1e-4,
            9.999e-5,
            1e16,
            9.999_999_999_999_998e15,
            1e21,
            1e22,
            123456789.0,
            0.000_001,
            1.5e-7,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            0.1f32 as f64,
            -1.5,
            1000.0,
        ] {
            check(x);
        }
    }

    #[test]
    fn random_doubles_and_singles_are_written_as_rust_writes_them() {
        for b in bits(200_000) {
            check(f64::from_bits(b));
            check(f32::from_bits(b as u32) as f64);
            // Values of ordinary sizes, where most real fields lie.
            check((b >> 11) as f64 / (1u64 << 30) as f64);
        }
    }

    #[test]
    fn six_digits_are_written_as_rust_writes_them() {
        let mut all: Vec<f64> = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            0.0000005,
            0.0000015,
            0.0000025,
            1e-7,
            123.4567895,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f32::MAX as f64,
            1e21,
            1e22,
            0.999_999_5,
            0.999_999_499_999,
            9_999_999.999_999_5,
        ];
        for b in bits(200_000) {
            all.push(f32::from_bits(b as u32) as f64);
            all.push((b >> 11) as f64 / (1u64 << 40) as f64);
            all.push(f64::from_bits(b));
            // Exact halves of a millionth: k / 2^m for small m.
            all.push(((b >> 40) as f64) / 64.0 / 1_000_000.0 * 1_000_000.0 / 1_000_000.0);
        }
        for x in all {
            if x.is_finite() {
                assert_eq!(fixed6(x), format!("{x:.6}"), "{:#x}", x.to_bits());
            }
        }
    }

    #[test]
    fn exact_values_are_exact() {
        for b in bits(100_000) {
            for a in [
                f64::from_bits(b >> 1),
                (b >> 11) as f64 / 1024.0,
                (b >> 11) as f64 * 8.0,
            ] {
                if !a.is_finite() || a == 0.0 {
                    continue;
                }
                if let Some(e) = exact(a) {
                    // Rust's fixed-precision formatting is exact too.
                    let frac = (e.digits.len() as i32 - e.point).max(0) as usize;
                    let want = format!("{a:.frac$}");
                    let mut got = String::new();
                    plain(&mut got, &e, frac);
                    let got = if frac == 0 {
                        got.trim_end_matches('.').to_string()
                    } else {
                        got
                    };
                    assert_eq!(got, want, "{:#x}", a.to_bits());
                }
            }
        }
    }

    #[test]
    fn a_value_midway_between_two_shortest_numbers_takes_the_greater_as_rust_does() {
        // 1149636667324797.25: .2 and .3 both read back; Rust writes .3.
        let x = f64::from_bits(0x4310_565a_94b4_e5f5);
        let up = midway(x, 17).unwrap();
        assert_eq!((up.digits.as_str(), up.point), ("11496366673247973", 16));
        assert_eq!(format!("{x}"), "1149636667324797.3");
        // 2^-25 = 2.98023223876953125e-8.
        let up = midway(2f64.powi(-25), 17).unwrap();
        assert_eq!(up.digits, "29802322387695313");
        assert!(midway(0.125, 3).is_none());
        assert!(midway(0.1, 1).is_none());
        // 99.5 at two digits: 100.
        let up = midway(99.5, 2).unwrap();
        assert_eq!((up.digits.as_str(), up.point), ("1", 3));
    }

    #[test]
    fn the_engines_forms_of_a_number_are_read() {
        for (text, digits, point) in [
            ("123.45", "12345", 3),
            ("0.000012", "12", -4),
            ("1.5e-7", "15", -6),
            ("1e+21", "1", 22),
            ("5e0", "5", 1),
            ("100", "1", 3),
            ("2.5E3", "25", 4),
        ] {
            let d = parse(text).unwrap();
            assert_eq!((d.digits.as_str(), d.point), (digits, point), "{text}");
        }
        for bad in ["", ".", "e5", "1.2.3", "12a", "0", "0.000", "Infinity"] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }
}
