//! Looking nodes up by path in decoded trees, and checking that checked-in
//! generated fixtures are what their generator makes.

use crate::bless;
use hexlens_core::{Decoded, Node, Value};
use std::path::Path;

/// The node at `path`; panics with the text dump when there is none.
pub fn node(d: &Decoded, path: &str) -> Node {
    let id = d
        .tree
        .find(path)
        .unwrap_or_else(|| panic!("no node at {path}\n{}", hexlens_core::output::to_text(d)));
    d.tree.node(id)
}

/// The value of the node at `path`.
pub fn value(d: &Decoded, path: &str) -> Value {
    node(d, path)
        .value
        .clone()
        .unwrap_or_else(|| panic!("node {path} has no value"))
}

/// The value of the node at `path` as an unsigned number.
pub fn u(d: &Decoded, path: &str) -> u64 {
    value(d, path)
        .as_u64()
        .unwrap_or_else(|| panic!("{path} is not a number"))
}

/// The display text of the node at `path` (empty when it has none).
pub fn display(d: &Decoded, path: &str) -> String {
    node(d, path)
        .display
        .as_deref()
        .unwrap_or_default()
        .to_string()
}

/// The error on the node at `path`; panics when it has none.
pub fn error(d: &Decoded, path: &str) -> String {
    node(d, path)
        .error
        .as_deref()
        .unwrap_or_else(|| panic!("node {path} has no error"))
        .to_string()
}

/// A string value.
pub fn s(v: &str) -> Value {
    Value::Str(v.to_string())
}

/// Checks that every `(name, bytes)` the generator makes is the file `dir/name`
/// (see [`bless::check_current`]; `HEXLENS_BLESS=1` writes them).
pub fn check_fixtures_current(dir: &Path, fixtures: Vec<(&str, Vec<u8>)>) {
    bless::check_current(dir, fixtures, "the generator");
}
