//! The properties every decode must have, whatever the input: the checks the fuzz
//! targets run after each input, and the core's tests (the regression tests
//! directly — `crates/core/tests/fuzz_regressions.rs`, `hostile.rs`,
//! `resource_bounds.rs` — and the per-format damage sweeps and the conformance
//! harness through [`invariants`](crate::invariants)).
//!
//! - the tree's own invariants: [`hexlens_core::Tree::validate`] (spans nested
//!   in the file and their parents, one parent per node, errors marking their
//!   ancestors damaged, the node-count bound [`node_bound`]);
//! - the JSON rendering parses, spans the file and lists every error with a
//!   byte offset inside the file; the text rendering is not empty;
//! - the bytes allocated while decoding peak at most [`ALLOC_PER_BYTE`] · len +
//!   [`ALLOC_BASE`] (checked by the callers that count allocations).

use hexlens_core::Decoded;

pub use hexlens_core::tree::{node_bound, NODES_BASE, NODES_PER_BYTE};

/// Peak bytes allocated during a decode, per input byte. Measured (see the
/// core's `resource_bounds.rs` test and the `node_cost` example): real bitcode
/// peaks at ~100 bytes per byte (its eager tree holds ~40 bytes a node); the costliest
/// input known, one that drives the builder to its node budget (12 nodes per
/// byte, vectors growing by doubling), peaks at ~1,750 bytes per byte.
pub const ALLOC_PER_BYTE: u64 = 4096;
/// Constant part of the allocation bound: the builder's base budget of 4096 nodes
/// (with growth), per-decoder tables and the first allocations of the tree.
pub const ALLOC_BASE: u64 = 8 << 20;

/// Upper bound on the peak bytes allocated while decoding `len` bytes.
pub fn alloc_bound(len: u64) -> u64 {
    ALLOC_PER_BYTE
        .saturating_mul(len)
        .saturating_add(ALLOC_BASE)
}

/// Checks the structure of a tree decoded from `len` bytes ([`Tree::validate`],
/// and the file size the decode records); returns the first violation found.
///
/// [`Tree::validate`]: hexlens_core::Tree::validate
pub fn check_tree(d: &Decoded, len: u64) -> Result<(), String> {
    if d.file_size != len {
        return Err(format!("file_size {} for a {len}-byte input", d.file_size));
    }
    d.tree.validate(len)
}

/// Deepest tree serde_json parses the JSON of: a node at depth k is nested
/// 2k + 2 levels deep (its object inside its parent's `children` array), its
/// `bits`/`ref` objects one more, and serde_json stops at 128 levels.
const SERDE_TREE_DEPTH: usize = 55;

/// Checks that the JSON rendering parses, spans the file and lists every error of
/// the tree with a byte offset inside the file. Trees deeper than serde_json's
/// recursion limit allows are checked by [`json_depth`]'s iterative syntax check,
/// and their `errors` array (always the last member) by serde_json.
pub fn check_json(d: &Decoded) -> Result<(), String> {
    let json = hexlens_core::output::to_json(d);
    let mut tree_depth = 0;
    d.tree.walk(|_, depth| tree_depth = tree_depth.max(depth));
    let errors = if tree_depth <= SERDE_TREE_DEPTH {
        let v: serde_json::Value = serde_json::from_str(&json)
            .map_err(|e| format!("the JSON output does not parse: {e}"))?;
        if v["file_size"].as_u64() != Some(d.file_size) {
            return Err("the JSON file_size disagrees with the decode".into());
        }
        if v["tree"]["start"].as_u64() != Some(0) || v["tree"]["end"].as_u64() != Some(d.file_size)
        {
            return Err("the JSON root does not span the file".into());
        }
        v["errors"].clone()
    } else {
        json_depth(&json)?;
        // Quotes inside strings are escaped, so this key can only be the top-level one.
        let at = json
            .rfind(",\"errors\":[")
            .ok_or("the JSON has no errors array")?;
        let tail: serde_json::Value = serde_json::from_str(&format!("{{{}", &json[at + 1..]))
            .map_err(|e| format!("the JSON errors array does not parse: {e}"))?;
        tail["errors"].clone()
    };
    let errors = errors.as_array().ok_or("the JSON has no errors array")?;
    let expected = d.tree.errors().len();
    if errors.len() != expected {
        return Err(format!(
            "the JSON lists {} errors, the tree holds {expected}",
            errors.len()
        ));
    }
    for err in errors {
        let (Some(start), Some(end)) = (err["start"].as_u64(), err["end"].as_u64()) else {
            return Err(format!("error entry without a byte offset: {err}"));
        };
        if start > end || end > d.file_size {
            return Err(format!(
                "error entry at {start}..{end} lies outside the file: {err}"
            ));
        }
        if err["message"].as_str().is_none_or(|m| m.trim().is_empty()) {
            return Err(format!("error entry without a message: {err}"));
        }
        if !err["path"].is_string() {
            return Err(format!("error entry without a path: {err}"));
        }
    }
    Ok(())
}

/// Checks that `json` is one well-formed JSON value (RFC 8259 grammar) without
/// recursion, and returns its deepest nesting of objects and arrays.
pub fn json_depth(json: &str) -> Result<usize, String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Want {
        Value,
        /// After `{` or `[`: a member/element or the closing bracket.
        FirstOrClose,
        Key,
        Colon,
        /// After a value inside a container: `,` or the closing bracket.
        CommaOrClose,
        End,
    }
    let s = json.as_bytes();
    let fail = |i: usize, what: &str| Err(format!("invalid JSON at byte {i}: {what}"));
    let mut stack: Vec<u8> = Vec::new();
    let mut max = 0usize;
    let mut want = Want::Value;
    let mut i = 0usize;
    let after_value = |stack: &Vec<u8>| {
        if stack.is_empty() {
            Want::End
        } else {
            Want::CommaOrClose
        }
    };
    while i < s.len() {
        let c = s[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        match want {
            Want::End => return fail(i, "data after the value"),
            Want::Colon => {
                if c != b':' {
                    return fail(i, "expected ':'");
                }
                want = Want::Value;
                i += 1;
            }
            Want::CommaOrClose => {
                let top = *stack.last().unwrap_or(&0);
                if c == b',' {
                    want = if top == b'{' { Want::Key } else { Want::Value };
                    i += 1;
                } else if (c == b'}' && top == b'{') || (c == b']' && top == b'[') {
                    stack.pop();
                    want = after_value(&stack);
                    i += 1;
                } else {
                    return fail(i, "expected ',' or a closing bracket");
                }
            }
            Want::Key | Want::FirstOrClose | Want::Value => {
                let top = *stack.last().unwrap_or(&0);
                if want == Want::FirstOrClose
                    && ((c == b'}' && top == b'{') || (c == b']' && top == b'['))
                {
                    stack.pop();
                    want = after_value(&stack);
                    i += 1;
                    continue;
                }
                let key = want == Want::Key || (want == Want::FirstOrClose && top == b'{');
                if key && c != b'"' {
                    return fail(i, "expected a key");
                }
                match c {
                    b'{' | b'[' => {
                        stack.push(c);
                        max = max.max(stack.len());
                        want = Want::FirstOrClose;
                        i += 1;
                    }
                    b'"' => {
                        i += 1;
                        loop {
                            match s.get(i) {
                                None => return fail(i, "unterminated string"),
                                Some(b'"') => break,
                                Some(b'\\') => match s.get(i + 1) {
                                    Some(
                                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't',
                                    ) => i += 2,
                                    Some(b'u') => {
                                        let hex = s.get(i + 2..i + 6).unwrap_or(&[]);
                                        if hex.len() != 4 || !hex.iter().all(u8::is_ascii_hexdigit)
                                        {
                                            return fail(i, "bad \\u escape");
                                        }
                                        i += 6;
                                    }
                                    _ => return fail(i, "bad escape"),
                                },
                                Some(&b) if b < 0x20 => {
                                    return fail(i, "control character in a string")
                                }
                                Some(_) => i += 1,
                            }
                        }
                        i += 1;
                        want = if key {
                            Want::Colon
                        } else {
                            after_value(&stack)
                        };
                    }
                    b't' | b'f' | b'n' => {
                        let word: &[u8] = match c {
                            b't' => b"true",
                            b'f' => b"false",
                            _ => b"null",
                        };
                        if !s[i..].starts_with(word) {
                            return fail(i, "bad literal");
                        }
                        i += word.len();
                        want = after_value(&stack);
                    }
                    b'-' | b'0'..=b'9' => {
                        let from = i;
                        while i < s.len()
                            && matches!(s[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                        {
                            i += 1;
                        }
                        let num = std::str::from_utf8(&s[from..i]).unwrap_or("");
                        if num.parse::<f64>().is_err()
                            || num.starts_with("-.")
                            || num.ends_with('.')
                        {
                            return fail(from, "bad number");
                        }
                        want = after_value(&stack);
                    }
                    _ => return fail(i, "expected a value"),
                }
            }
        }
    }
    if want != Want::End {
        return fail(s.len(), "unexpected end");
    }
    Ok(max)
}

/// Checks that the text rendering produces one line per node at most (it walks the
/// tree without recursion, so any depth renders).
pub fn check_text(d: &Decoded) -> Result<(), String> {
    let text = hexlens_core::output::to_text(d);
    if text.is_empty() {
        return Err("the text output is empty".into());
    }
    Ok(())
}

/// Every structural check of a decode of `len` bytes.
pub fn check_all(d: &Decoded, len: u64) -> Result<(), String> {
    check_tree(d, len)?;
    check_json(d)?;
    check_text(d)
}

/// Checks a measured peak allocation against [`alloc_bound`].
pub fn check_alloc(peak: usize, len: u64) -> Result<(), String> {
    if peak as u64 > alloc_bound(len) {
        return Err(format!(
            "decoding {len} bytes allocated up to {peak} bytes: more than the bound {} ({ALLOC_PER_BYTE}·len + {ALLOC_BASE})",
            alloc_bound(len)
        ));
    }
    Ok(())
}
