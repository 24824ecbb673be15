//! Parsing what a person types into "Go to offset".

/// Parses an offset: `0x1F`, `1Fh` and anything with a hex letter are hex; plain
/// digits are decimal. Underscores and spaces are ignored. `None` if it is not a
/// number or does not fit in 64 bits.
pub fn parse(text: &str) -> Option<u64> {
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    let lower = t.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        return u64::from_str_radix(h, 16).ok();
    }
    if let Some(h) = lower.strip_suffix('h') {
        return u64::from_str_radix(h, 16).ok();
    }
    if lower.is_empty() {
        return None;
    }
    if lower.chars().all(|c| c.is_ascii_digit()) {
        return lower.parse().ok();
    }
    if lower.chars().all(|c| c.is_ascii_hexdigit()) {
        return u64::from_str_radix(&lower, 16).ok();
    }
    None
}

/// An offset as the details pane shows it: `0x34 (52)`.
pub fn both(o: u64) -> String {
    format!("0x{o:X} ({o})")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn accepts_hex_and_decimal_forms() {
        assert_eq!(parse("0x34"), Some(0x34));
        assert_eq!(parse(" 0X3_4 "), Some(0x34));
        assert_eq!(parse("34h"), Some(0x34));
        assert_eq!(parse("52"), Some(52));
        assert_eq!(parse("1f"), Some(0x1F));
        assert_eq!(parse(""), None);
        assert_eq!(parse("zz"), None);
        assert_eq!(parse("0x"), None);
        assert_eq!(parse("0x1ffffffffffffffff"), None);
        assert_eq!(both(52), "0x34 (52)");
    }
}
