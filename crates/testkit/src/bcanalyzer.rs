//! The `llvm-bcanalyzer-19` side of the bitcode oracle tests (the core's
//! `bitstream_oracle.rs` and `bitstream_modern.rs`): running the analyzer
//! (`-dump -non-symbolic -dump-blockinfo -show-binary-blobs`) and parsing its
//! dump into a sequence of block entries, records and block ends.

use crate::tools::bcanalyzer_19;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// One entry of a bitstream, as both sides see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    Enter {
        id: u64,
        words: u64,
        width: u64,
    },
    Record {
        code: u64,
        abbrev: Option<u64>,
        ops: Vec<u64>,
        blob: Option<Vec<u8>>,
        /// A METADATA_STRINGS record's strings (the analyzer lists them instead of
        /// showing its blob).
        strings: Option<Vec<Vec<u8>>>,
    },
    End,
}

/// An entry plus the record name each side gives it (compared separately).
#[derive(Debug, Clone)]
pub struct Entry {
    pub ev: Ev,
    pub name: String,
}

fn attr(tokens: &[&str], key: &str) -> Option<u64> {
    tokens.iter().find_map(|t| {
        t.strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .and_then(|v| v.parse().ok())
    })
}

/// Undoes `raw_ostream::write_escaped(…, hex=true)`.
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'\\' => out.push(b'\\'),
                b't' => out.push(b'\t'),
                b'n' => out.push(b'\n'),
                b'"' => out.push(b'"'),
                b'x' if i + 3 < b.len() => {
                    let h = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                    out.push(u8::from_str_radix(h, 16).unwrap());
                    i += 4;
                    continue;
                }
                other => {
                    out.push(b'\\');
                    out.push(other);
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Parses the `-dump` part of the analyzer's output.
pub fn parse_dump(text: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut strings: Option<Vec<Vec<u8>>> = None;
    for line in text.lines() {
        let l = line.trim_start();
        if let Some(list) = strings.as_mut() {
            let t = line.trim();
            if t == "}" {
                let done = strings.take();
                if let Some(Entry {
                    ev: Ev::Record { strings: s, .. },
                    ..
                }) = out.last_mut()
                {
                    *s = done;
                }
            } else {
                let inner = t.strip_prefix('\'').and_then(|t| t.strip_suffix('\''));
                list.push(unescape(
                    inner.ok_or_else(|| format!("unexpected string line: {line}"))?,
                ));
            }
            continue;
        }
        if l.starts_with("Summary of") {
            break;
        }
        if l.is_empty() {
            continue;
        }
        if l.starts_with("</") {
            out.push(Entry {
                ev: Ev::End,
                name: String::new(),
            });
            continue;
        }
        if !l.starts_with('<') {
            return Err(format!("unexpected dump line: {line}"));
        }
        if let Some(close) = l.find("/>") {
            let tokens: Vec<&str> = l[1..close].split_whitespace().collect();
            let name = tokens.first().copied().unwrap_or_default().to_string();
            let code = attr(&tokens, "codeid")
                .or_else(|| {
                    name.strip_prefix("UnknownCode")
                        .and_then(|n| n.parse().ok())
                })
                .ok_or_else(|| format!("record without a code: {line}"))?;
            let ops: Vec<u64> = (0..)
                .map_while(|i| attr(&tokens, &format!("op{i}")))
                .collect();
            let rest = &l[close + 2..];
            let blob = rest.find(" blob data = '").map(|at| {
                let s = &rest[at + 14..];
                unescape(&s[..s.rfind('\'').unwrap_or(s.len())])
            });
            if rest.contains("num-strings = ") && rest.trim_end().ends_with('{') {
                strings = Some(Vec::new());
            }
            out.push(Entry {
                ev: Ev::Record {
                    code,
                    abbrev: attr(&tokens, "abbrevid"),
                    ops,
                    blob,
                    strings: None,
                },
                name,
            });
        } else {
            let end = l.find('>').ok_or_else(|| format!("unclosed tag: {line}"))?;
            let tokens: Vec<&str> = l[1..end].split_whitespace().collect();
            let name = tokens[0].to_string();
            let id = attr(&tokens, "BlockID")
                .or_else(|| name.strip_prefix("BLOCK").and_then(|n| n.parse().ok()))
                .or_else(|| {
                    name.strip_prefix("UnknownBlock")
                        .and_then(|n| n.parse().ok())
                })
                .ok_or_else(|| format!("block without an ID: {line}"))?;
            out.push(Entry {
                ev: Ev::Enter {
                    id,
                    words: attr(&tokens, "NumWords").ok_or("no NumWords")?,
                    width: attr(&tokens, "BlockCodeSize").ok_or("no BlockCodeSize")?,
                },
                name,
            });
        }
    }
    Ok(out)
}

/// Runs the analyzer `tool` on `bitcode` (given on its standard input); its
/// dump, or why it failed.
pub fn run_bcanalyzer(tool: &Path, bitcode: &[u8]) -> Result<String, String> {
    let mut child = Command::new(tool)
        .args([
            "-dump",
            "-non-symbolic",
            "-dump-blockinfo",
            "-show-binary-blobs",
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(bitcode)
        .map_err(|e| format!("cannot feed the analyzer: {e}"))?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "llvm-bcanalyzer-19 failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The analyzer's dump of `bitcode`, parsed. Panics if the analyzer fails or its
/// dump does not parse.
pub fn dump(bitcode: &[u8]) -> Vec<Entry> {
    let text = run_bcanalyzer(&bcanalyzer_19(), bitcode).unwrap_or_else(|e| panic!("{e}"));
    parse_dump(&text).unwrap_or_else(|e| panic!("the analyzer's dump: {e}"))
}

/// LLVM's `STRTAB_BLOCK_ID`.
pub const STRTAB_BLOCK_ID: u64 = 23;

/// The blob of the first record inside the first STRTAB block (the string table
/// modern bitcode keeps its global names in), as the analyzer shows it.
pub fn strtab_blob(entries: &[Entry]) -> Option<Vec<u8>> {
    let at = entries
        .iter()
        .position(|e| matches!(e.ev, Ev::Enter { id, .. } if id == STRTAB_BLOCK_ID))?;
    entries[at + 1..]
        .iter()
        .take_while(|e| e.ev != Ev::End)
        .find_map(|e| match &e.ev {
            Ev::Record { blob, .. } => blob.clone(),
            _ => None,
        })
}

/// The strings the analyzer lists for each METADATA_STRINGS record, in order.
pub fn metadata_strings(entries: &[Entry]) -> Vec<Vec<Vec<u8>>> {
    entries
        .iter()
        .filter_map(|e| match &e.ev {
            Ev::Record {
                strings: Some(s), ..
            } => Some(s.clone()),
            _ => None,
        })
        .collect()
}
