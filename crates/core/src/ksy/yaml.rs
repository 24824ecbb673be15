//! The YAML that Kaitai Struct `.ksy` files are written in: the part of
//! YAML 1.2 they use. Block mappings and sequences by indentation (a
//! mapping's sequence may start at its key's indentation), flow sequences
//! and mappings (over several lines too), plain scalars (continued on more
//! indented lines), single- and double-quoted scalars with their escapes,
//! literal (`|`) and folded (`>`) block scalars with their chomping, `#`
//! comments, a leading `---`. Not: anchors, aliases, tags, several
//! documents, complex keys; each is an error, as is a duplicate key or a
//! tab in indentation.
//!
//! Every node keeps the line and column it starts at (1-based, in
//! characters), and an error names the line and column where reading
//! stopped, so a `.ksy` error can point at its place.

use std::fmt;

/// Where a node starts or an error lies: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A node's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Yaml {
    /// Keys in the order written, each with where it is.
    Map(Vec<(String, Pos, Node)>),
    Seq(Vec<Node>),
    /// A scalar's text; `quoted` when it was written in quotes or as a
    /// block scalar (its text is then never a number or a keyword).
    Str {
        text: String,
        quoted: bool,
    },
    /// Nothing written (`key:` with no value).
    Null,
}

/// A value and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Yaml,
    pub pos: Pos,
}

impl Node {
    /// The value of key `k` of a mapping.
    pub fn get(&self, k: &str) -> Option<&Node> {
        match &self.value {
            Yaml::Map(entries) => entries.iter().find(|e| e.0 == k).map(|e| &e.2),
            _ => None,
        }
    }

    /// A scalar's text.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Yaml::Str { text, .. } => Some(text),
            _ => None,
        }
    }
}

/// Why a text is not YAML this reader takes, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.pos.line, self.pos.col, self.message
        )
    }
}

/// Reads `text` as one YAML document.
pub fn parse(text: &str) -> Result<Node, Error> {
    let lines: Vec<&str> = text.lines().collect();
    let mut p = Parser {
        from: vec![0; lines.len()],
        lines,
        i: 0,
        depth: 0,
    };
    p.skip_blank()?;
    if p.i < p.lines.len() && p.lines[p.i].trim_end() == "---" {
        p.i += 1;
    }
    let node = p.node(-1)?;
    p.skip_blank()?;
    if p.i < p.lines.len() {
        let line = p.lines[p.i].trim();
        if line != "..." {
            return Err(p.err(
                p.i,
                p.indent(p.i)?,
                "more text after the document ends (an indentation that matches no key above)",
            ));
        }
    }
    Ok(node)
}

/// How deep collections may nest (a hostile file cannot overflow the stack).
const MAX_DEPTH: usize = 200;

struct Parser<'a> {
    lines: Vec<&'a str>,
    /// Where each line's text starts for the parser (past a sequence's `- `).
    from: Vec<usize>,
    i: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, line: usize, byte: usize, message: impl Into<String>) -> Error {
        Error {
            pos: self.pos(line, byte),
            message: message.into(),
        }
    }

    fn pos(&self, line: usize, byte: usize) -> Pos {
        let text = self.lines.get(line).copied().unwrap_or("");
        let col = text
            .get(..byte.min(text.len()))
            .map_or(byte, |s| s.chars().count());
        Pos {
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }

    /// The byte where line `i`'s content starts (past its indentation).
    fn indent(&self, i: usize) -> Result<usize, Error> {
        let line = self.lines[i].as_bytes();
        let mut k = self.from[i];
        while k < line.len() && (line[k] == b' ' || line[k] == b'\t') {
            if line[k] == b'\t' && self.from[i] == 0 {
                return Err(self.err(i, k, "a tab in indentation (YAML indents with spaces)"));
            }
            k += 1;
        }
        Ok(k)
    }

    /// Whether line `i` holds nothing from where it starts but a comment.
    fn blank(&self, i: usize) -> bool {
        let rest = self.lines[i][self.from[i]..].trim_start();
        rest.is_empty() || rest.starts_with('#')
    }

    fn skip_blank(&mut self) -> Result<(), Error> {
        while self.i < self.lines.len() && self.blank(self.i) {
            self.i += 1;
        }
        Ok(())
    }

    /// The node at the current line, whose indentation must be over `parent`.
    fn node(&mut self, parent: isize) -> Result<Node, Error> {
        self.skip_blank()?;
        if self.i >= self.lines.len() {
            return Ok(Node {
                value: Yaml::Null,
                pos: self.pos(self.lines.len().saturating_sub(1), 0),
            });
        }
        let i = self.i;
        let at = self.indent(i)?;
        if (at as isize) <= parent {
            return Ok(Node {
                value: Yaml::Null,
                pos: self.pos(i, at),
            });
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(i, at, "collections nest too deep"));
        }
        let rest = &self.lines[i][at..];
        let node = if rest == "-" || rest.starts_with("- ") {
            self.seq(at)
        } else if key_end(rest).is_some() {
            self.map(at)
        } else {
            self.inline(i, at, parent)
        };
        self.depth -= 1;
        node
    }

    /// The next line of a collection whose lines start at byte `at`: its
    /// index, or `None` where the collection ends (the text does, or a line
    /// is less indented); a line indented more is an error (`what` is in).
    fn next_at(&mut self, at: usize, what: &str) -> Result<Option<usize>, Error> {
        self.skip_blank()?;
        if self.i >= self.lines.len() {
            return Ok(None);
        }
        let here = self.indent(self.i)?;
        if here > at {
            return Err(self.err(
                self.i,
                here,
                format!("this line is indented more than the {what} it is in"),
            ));
        }
        Ok((here == at).then_some(self.i))
    }

    fn seq(&mut self, at: usize) -> Result<Node, Error> {
        let pos = self.pos(self.i, at);
        let mut items = Vec::new();
        while let Some(i) = self.next_at(at, "sequence")? {
            let rest = &self.lines[i][at..];
            if !(rest == "-" || rest.starts_with("- ")) {
                break;
            }
            // The item: after its dash, or (nothing there) on the next lines.
            self.from[i] = at + 1;
            items.push(self.node(at as isize)?);
        }
        Ok(Node {
            value: Yaml::Seq(items),
            pos,
        })
    }

    fn map(&mut self, at: usize) -> Result<Node, Error> {
        let pos = self.pos(self.i, at);
        let mut entries: Vec<(String, Pos, Node)> = Vec::new();
        while let Some(i) = self.next_at(at, "mapping")? {
            let here = at;
            let line = self.lines[i];
            let rest = &line[here..];
            let Some(end) = key_end(rest) else {
                let what = if rest.starts_with("- ") || rest == "-" {
                    "a sequence item where a key is expected"
                } else {
                    "a key (`name: value`) is expected here"
                };
                return Err(self.err(i, here, what));
            };
            let key = match rest.as_bytes()[0] {
                b'"' | b'\'' => {
                    let (k, used) = quoted(rest).map_err(|(off, m)| self.err(i, here + off, m))?;
                    if rest[used..end].trim() != "" {
                        return Err(self.err(
                            i,
                            here + used,
                            "text between a quoted key and its colon",
                        ));
                    }
                    k
                }
                _ => rest[..end].trim_end().to_string(),
            };
            let key_pos = self.pos(i, here);
            if key.starts_with('&')
                || key.starts_with('*')
                || key.starts_with('!')
                || key.starts_with('?')
            {
                return Err(self.err(
                    i,
                    here,
                    "anchors, aliases, tags and complex keys are not read",
                ));
            }
            if entries.iter().any(|e| e.0 == key) {
                return Err(self.err(i, here, format!("the key `{key}` is given twice")));
            }
            let vstart = here + end + 1;
            let value_text = &line[vstart..];
            let trimmed = value_text.trim_start();
            let vat = vstart + (value_text.len() - trimmed.len());
            let value = if trimmed.is_empty() || trimmed.starts_with('#') {
                self.i += 1;
                self.skip_blank()?;
                if self.i < self.lines.len() {
                    let next = self.indent(self.i)?;
                    let nrest = &self.lines[self.i][next..];
                    if next == at && (nrest == "-" || nrest.starts_with("- ")) {
                        self.depth += 1;
                        let s = self.seq(at);
                        self.depth -= 1;
                        s?
                    } else {
                        self.node(at as isize)?
                    }
                } else {
                    Node {
                        value: Yaml::Null,
                        pos: self.pos(i, vat),
                    }
                }
            } else if trimmed.starts_with('|') || trimmed.starts_with('>') {
                self.block_scalar(i, vat, at)?
            } else {
                self.inline(i, vat, at as isize)?
            };
            entries.push((key, key_pos, value));
        }
        Ok(Node {
            value: Yaml::Map(entries),
            pos,
        })
    }

    /// A value written on line `i` from byte `at` (a flow collection, a
    /// quoted or a plain scalar, continued on lines indented over `parent`).
    fn inline(&mut self, i: usize, at: usize, parent: isize) -> Result<Node, Error> {
        let pos = self.pos(i, at);
        let text = &self.lines[i][at..];
        match text.as_bytes()[0] {
            b'[' | b'{' => {
                let mut c = Cursor { line: i, byte: at };
                let value = self.flow(&mut c, 0)?;
                self.end_of_value(c)?;
                Ok(Node { value, pos })
            }
            b'"' | b'\'' => {
                // A quoted scalar may go on over lines: they are joined.
                let mut joined = text.to_string();
                let mut last = i;
                let value = loop {
                    match quoted(&joined) {
                        Ok((s, used)) => {
                            let after = joined[used..].trim_start();
                            if !after.is_empty() && !after.starts_with('#') {
                                return Err(self.err(last, at, "text after a quoted value"));
                            }
                            break s;
                        }
                        Err((_, m))
                            if m.starts_with("an unclosed") && last + 1 < self.lines.len() =>
                        {
                            last += 1;
                            let next = self.lines[last].trim();
                            joined.push(if next.is_empty() { '\n' } else { ' ' });
                            joined.push_str(next);
                        }
                        Err((off, m)) => return Err(self.err(i, at + off.min(text.len()), m)),
                    }
                };
                self.i = last + 1;
                Ok(Node {
                    value: Yaml::Str {
                        text: value,
                        quoted: true,
                    },
                    pos,
                })
            }
            b'&' | b'*' | b'!' => Err(self.err(i, at, "anchors, aliases and tags are not read")),
            _ => {
                let mut s = plain(text).to_string();
                self.i = i + 1;
                // Continuation lines: more indented than the parent, not a key.
                while self.i < self.lines.len() {
                    if self.blank(self.i) {
                        let mut k = self.i;
                        while k < self.lines.len() && self.blank(k) {
                            k += 1;
                        }
                        if k < self.lines.len()
                            && (self.indent(k)? as isize) > parent
                            && self.lines[self.i].trim().is_empty()
                        {
                            s.push('\n');
                            self.i = k;
                            continue;
                        }
                        break;
                    }
                    let n = self.indent(self.i)?;
                    if (n as isize) <= parent {
                        break;
                    }
                    let more = plain(&self.lines[self.i][n..]);
                    if key_end(more).is_some() {
                        return Err(self.err(self.i, n, "a key indented more than the value before it (a plain value cannot hold `: `)"));
                    }
                    if !s.ends_with('\n') {
                        s.push(' ');
                    }
                    s.push_str(more);
                    self.i += 1;
                }
                Ok(Node {
                    value: Yaml::Str {
                        text: s,
                        quoted: false,
                    },
                    pos,
                })
            }
        }
    }

    /// After a flow collection: the rest of its last line is blank.
    fn end_of_value(&mut self, c: Cursor) -> Result<(), Error> {
        let rest = self.lines[c.line][c.byte..].trim_start();
        if !rest.is_empty() && !rest.starts_with('#') {
            return Err(self.err(c.line, c.byte, "text after a value"));
        }
        self.i = c.line + 1;
        Ok(())
    }

    /// The next character of a flow collection (comments and line ends
    /// passed), not taken.
    fn peek(&self, c: &mut Cursor) -> Option<char> {
        loop {
            let line = self.lines.get(c.line)?;
            let rest = &line[c.byte..];
            let t = rest.trim_start();
            if t.is_empty() || t.starts_with('#') {
                c.line += 1;
                c.byte = 0;
                continue;
            }
            c.byte += rest.len() - t.len();
            return t.chars().next();
        }
    }

    fn flow(&mut self, c: &mut Cursor, depth: usize) -> Result<Yaml, Error> {
        if self.depth + depth > MAX_DEPTH {
            return Err(self.err(c.line, c.byte, "collections nest too deep"));
        }
        let open = self.peek(c).unwrap_or(' ');
        let close = if open == '[' { ']' } else { '}' };
        c.byte += 1;
        let mut items = Vec::new();
        let mut entries: Vec<(String, Pos, Node)> = Vec::new();
        loop {
            let Some(ch) = self.peek(c) else {
                return Err(self.err(self.lines.len() - 1, 0, format!("an unclosed `{open}`")));
            };
            if ch == close {
                c.byte += 1;
                break;
            }
            let pos = self.pos(c.line, c.byte);
            let first = self.flow_item(c, depth)?;
            // `key: value` inside a flow mapping (or a one-entry mapping in a sequence).
            let value = if self.peek(c) == Some(':') {
                c.byte += 1;
                let vpos = self.pos(c.line, c.byte);
                let v = match self.peek(c) {
                    Some(',') | Some('}') | Some(']') => Yaml::Null,
                    _ => self.flow_item(c, depth)?,
                };
                Some(Node {
                    value: v,
                    pos: vpos,
                })
            } else {
                None
            };
            if close == ']' && value.is_none() {
                items.push(Node { value: first, pos });
            } else {
                let Yaml::Str { text: key, .. } = first else {
                    return Err(Error {
                        pos,
                        message: "a key must be a scalar".into(),
                    });
                };
                let value = value.unwrap_or(Node {
                    value: Yaml::Null,
                    pos,
                });
                if close == ']' {
                    items.push(Node {
                        value: Yaml::Map(vec![(key, pos, value)]),
                        pos,
                    });
                } else if entries.iter().any(|e| e.0 == key) {
                    return Err(Error {
                        pos,
                        message: format!("the key `{key}` is given twice"),
                    });
                } else {
                    entries.push((key, pos, value));
                }
            }
            match self.peek(c) {
                Some(',') => c.byte += 1,
                Some(x) if x == close => {}
                Some(x) => {
                    return Err(self.err(
                        c.line,
                        c.byte,
                        format!("`{x}` where `,` or `{close}` is expected"),
                    ))
                }
                None => {
                    return Err(self.err(self.lines.len() - 1, 0, format!("an unclosed `{open}`")))
                }
            }
        }
        Ok(if close == ']' {
            Yaml::Seq(items)
        } else {
            Yaml::Map(entries)
        })
    }

    /// One scalar or collection inside a flow collection.
    fn flow_item(&mut self, c: &mut Cursor, depth: usize) -> Result<Yaml, Error> {
        if self.peek(c).is_none() {
            return Err(self.err(self.lines.len() - 1, 0, "an unclosed flow collection"));
        }
        let line = self.lines[c.line];
        let rest = &line[c.byte..];
        match rest.as_bytes().first() {
            Some(b'[') | Some(b'{') => self.flow(c, depth + 1),
            Some(b'"') | Some(b'\'') => {
                let (s, used) =
                    quoted(rest).map_err(|(off, m)| self.err(c.line, c.byte + off, m))?;
                c.byte += used;
                Ok(Yaml::Str {
                    text: s,
                    quoted: true,
                })
            }
            _ => {
                // A plain scalar ends at `,`, a closing bracket, `: ` or a comment.
                let b = rest.as_bytes();
                let mut k = 0;
                while k < b.len() {
                    let ch = b[k];
                    if ch == b',' || ch == b']' || ch == b'}' {
                        break;
                    }
                    if ch == b':'
                        && (k + 1 == b.len() || matches!(b[k + 1], b' ' | b',' | b']' | b'}'))
                    {
                        break;
                    }
                    if ch == b'#' && k > 0 && b[k - 1] == b' ' {
                        break;
                    }
                    k += 1;
                }
                let text = rest[..k].trim_end().to_string();
                c.byte += k;
                Ok(Yaml::Str {
                    text,
                    quoted: false,
                })
            }
        }
    }

    /// A literal (`|`) or folded (`>`) scalar whose header is at byte `at` of
    /// line `i`, its lines indented over `parent`.
    fn block_scalar(&mut self, i: usize, at: usize, parent: usize) -> Result<Node, Error> {
        let pos = self.pos(i, at);
        let header = plain(&self.lines[i][at..]);
        let literal = header.starts_with('|');
        let mut chomp = ' ';
        let mut explicit: Option<usize> = None;
        for ch in header[1..].chars() {
            match ch {
                '-' | '+' if chomp == ' ' => chomp = ch,
                '1'..='9' if explicit.is_none() => explicit = Some(ch as usize - '0' as usize),
                _ => {
                    return Err(self.err(i, at, format!("`{header}` is not a block scalar header")))
                }
            }
        }
        let mut k = i + 1;
        let mut body: Vec<&str> = Vec::new();
        let mut indent = explicit.map(|n| parent + n);
        while k < self.lines.len() {
            let line = self.lines[k];
            if line.trim().is_empty() {
                body.push("");
                k += 1;
                continue;
            }
            let n = line.len() - line.trim_start_matches(' ').len();
            if n <= parent {
                break;
            }
            let want = *indent.get_or_insert(n);
            if n < want {
                break;
            }
            body.push(&line[want..]);
            k += 1;
        }
        self.i = k;
        // Trailing blank lines belong to the chomping, not the text.
        let mut trailing = 0;
        while body.last() == Some(&"") {
            body.pop();
            trailing += 1;
        }
        let mut text = String::new();
        for (n, l) in body.iter().enumerate() {
            if n > 0 {
                let prev = body[n - 1];
                if literal {
                    text.push('\n');
                } else if l.is_empty() {
                    // A blank line of folded text is a line break; the break
                    // before it is dropped.
                    text.push('\n');
                } else if prev.is_empty() {
                } else if l.starts_with(' ') || prev.starts_with(' ') {
                    text.push('\n');
                } else {
                    text.push(' ');
                }
            }
            text.push_str(l);
        }
        match chomp {
            '-' => {}
            '+' => {
                if !body.is_empty() {
                    text.push('\n');
                }
                text.extend(std::iter::repeat_n('\n', trailing));
            }
            _ => {
                if !body.is_empty() {
                    text.push('\n');
                }
            }
        }
        Ok(Node {
            value: Yaml::Str { text, quoted: true },
            pos,
        })
    }
}

/// A place in the text: a line and a byte in it.
#[derive(Clone, Copy)]
struct Cursor {
    line: usize,
    byte: usize,
}

/// Where a mapping line's key ends (the byte of its `:`), if `rest` is one.
fn key_end(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    let start = match b.first()? {
        b'[' | b'{' | b'#' | b'|' | b'>' => return None,
        b'"' | b'\'' => quoted(rest).ok()?.1,
        _ => 0,
    };
    let mut k = start;
    while k < b.len() {
        if b[k] == b'#' && k > 0 && b[k - 1] == b' ' {
            return None;
        }
        if b[k] == b':' && (k + 1 == b.len() || b[k + 1] == b' ') {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// A plain scalar's text on its line: up to a comment, trimmed.
fn plain(text: &str) -> &str {
    let b = text.as_bytes();
    let mut end = b.len();
    for k in 0..b.len() {
        if b[k] == b'#' && (k == 0 || b[k - 1] == b' ') {
            end = k;
            break;
        }
    }
    text[..end].trim()
}

/// A quoted scalar at the start of `text`: its value and the bytes it took;
/// or the byte of the fault and what it is.
fn quoted(text: &str) -> Result<(String, usize), (usize, String)> {
    let q = text.as_bytes()[0];
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1).peekable();
    while let Some((k, ch)) = chars.next() {
        if q == b'\'' {
            if ch == '\'' {
                if chars.peek().map(|c| c.1) == Some('\'') {
                    chars.next();
                    out.push('\'');
                    continue;
                }
                return Ok((out, k + 1));
            }
            out.push(ch);
            continue;
        }
        match ch {
            '"' => return Ok((out, k + 1)),
            '\\' => {
                let Some((e, esc)) = chars.next() else {
                    return Err((k, "an unclosed double-quoted string".into()));
                };
                let hex =
                    |n: usize,
                     chars: &mut std::iter::Peekable<std::iter::Skip<std::str::CharIndices>>|
                     -> Result<char, (usize, String)> {
                        let mut v = 0u32;
                        for _ in 0..n {
                            let d = chars
                                .next()
                                .and_then(|c| c.1.to_digit(16))
                                .ok_or((e, format!("`\\{esc}` needs {n} hex digits")))?;
                            v = v * 16 + d;
                        }
                        char::from_u32(v).ok_or((e, format!("`\\{esc}` names no character")))
                    };
                out.push(match esc {
                    'n' => '\n',
                    't' | '\t' => '\t',
                    'r' => '\r',
                    '0' => '\0',
                    'a' => '\x07',
                    'b' => '\x08',
                    'e' => '\x1b',
                    'f' => '\x0c',
                    'v' => '\x0b',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'x' => hex(2, &mut chars)?,
                    'u' => hex(4, &mut chars)?,
                    'U' => hex(8, &mut chars)?,
                    other => {
                        return Err((
                            e,
                            format!("`\\{other}` is not an escape of a double-quoted string"),
                        ))
                    }
                });
            }
            _ => out.push(ch),
        }
    }
    let what = if q == b'\'' { "single" } else { "double" };
    Err((text.len(), format!("an unclosed {what}-quoted string")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Yaml {
        Yaml::Str {
            text: text.into(),
            quoted: false,
        }
    }

    fn q(text: &str) -> Yaml {
        Yaml::Str {
            text: text.into(),
            quoted: true,
        }
    }

    #[test]
    fn a_ksy_reads_with_its_places() {
        let text = "\
meta:
  id: png # the id
  endian: be
  '-webide-representation': x
seq:
  - id: magic
    contents: [0x89, PNG, 13, 10, \"\\x1a\"]
  - id: len
    type: u4
  -
    id: rest
    size-eos: true
doc: |
  First line.
  Second.
cases: {1: one, 'a::b': two, _: three}
";
        let n = parse(text).unwrap();
        assert_eq!(n.get("meta").unwrap().get("id").unwrap().value, s("png"));
        assert_eq!(
            n.get("meta")
                .unwrap()
                .get("-webide-representation")
                .unwrap()
                .value,
            s("x")
        );
        let seq = match &n.get("seq").unwrap().value {
            Yaml::Seq(items) => items,
            v => panic!("{v:?}"),
        };
        assert_eq!(seq.len(), 3);
        assert_eq!(seq[0].pos, Pos { line: 6, col: 5 });
        match &seq[0].get("contents").unwrap().value {
            Yaml::Seq(items) => {
                let v: Vec<&Yaml> = items.iter().map(|i| &i.value).collect();
                assert_eq!(v, [&s("0x89"), &s("PNG"), &s("13"), &s("10"), &q("\x1a")]);
            }
            v => panic!("{v:?}"),
        }
        assert_eq!(seq[2].get("size-eos").unwrap().value, s("true"));
        assert_eq!(n.get("doc").unwrap().value, q("First line.\nSecond.\n"));
        let cases = n.get("cases").unwrap();
        assert_eq!(cases.get("a::b").unwrap().value, s("two"));
        assert_eq!(cases.get("_").unwrap().value, s("three"));
        assert_eq!(cases.get("1").unwrap().value, s("one"));
    }

    #[test]
    fn scalars_fold_chomp_and_unescape() {
        let n = parse("a: >-\n  one\n  two\n\n  three\nb: 'it''s'\nc: \"tab\\tu\\u00e9\"\nd: long plain\n   text goes on\ne:\nf: ~\n").unwrap();
        assert_eq!(n.get("a").unwrap().value, q("one two\nthree"));
        assert_eq!(n.get("b").unwrap().value, q("it's"));
        assert_eq!(n.get("c").unwrap().value, q("tab\tu\u{e9}"));
        assert_eq!(n.get("d").unwrap().value, s("long plain text goes on"));
        assert_eq!(n.get("e").unwrap().value, Yaml::Null);
        assert_eq!(n.get("f").unwrap().value, s("~"));
        // A sequence at its key's indentation; a flow list over lines.
        let n = parse("k:\n- a\n- b\nl: [1,\n  2, # two\n  3]\n").unwrap();
        assert_eq!(
            n.get("k")
                .map(|k| matches!(&k.value, Yaml::Seq(v) if v.len() == 2)),
            Some(true)
        );
        assert_eq!(
            n.get("l")
                .map(|k| matches!(&k.value, Yaml::Seq(v) if v.len() == 3)),
            Some(true)
        );
    }

    /// Texts made of YAML's pieces in any order read or fail, never panic.
    #[test]
    fn any_text_reads_or_fails() {
        let parts = [
            "a", ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "'", "\"", "#", "|", ">", "-",
            "\t", "é", "\\", "x: ", "  ",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut read = 0;
        for _ in 0..100_000 {
            let mut t = String::new();
            for _ in 0..next() % 40 {
                t.push_str(parts[(next() % parts.len() as u64) as usize]);
            }
            read += usize::from(parse(&t).is_ok());
            match parse(&t) {
                Ok(_) => {}
                Err(e) => assert!(e.pos.line >= 1 && e.pos.col >= 1, "{t:?}: {e}"),
            }
        }
        // Both kinds were met.
        assert!(read > 1_000 && read < 99_000, "{read} read");
    }

    #[test]
    fn errors_name_their_line_and_column() {
        let e = |t: &str| parse(t).unwrap_err();
        assert_eq!(e("a: 1\na: 2\n").pos, Pos { line: 2, col: 1 });
        assert!(e("a: 1\na: 2\n").message.contains("twice"));
        assert_eq!(e("a:\n\tb: 1\n").pos, Pos { line: 2, col: 1 });
        assert_eq!(e("a: [1, 2\n").message, "an unclosed `[`");
        assert_eq!(e("a: \"open\n").pos.line, 1);
        assert_eq!(e("a: 1\n  b: 2\n").pos, Pos { line: 2, col: 3 });
        assert!(e("a: *ref\n").message.contains("aliases"));
        assert!(e("a: \"\\q\"\n").message.contains("escape"));
        assert_eq!(e("a: [1 2, 3}\n").pos, Pos { line: 1, col: 11 });
        assert_eq!(e("a: {b: 1, b: 2}\n").pos, Pos { line: 1, col: 11 });
        // Nesting is bounded.
        let deep = "[".repeat(5000);
        assert!(e(&format!("a: {deep}\n")).message.contains("deep"));
    }
}
