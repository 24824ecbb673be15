//! A compact binary form of tree nodes, for moving a decoded tree (or the nodes
//! an expansion added) from the thread that decoded it to the one that shows it.
//!
//! The format is private to one build of hexlens (both ends run the same code):
//! a magic, a table of the distinct field names, then the nodes in arena order.
//! Integers are LEB128; strings are length-prefixed UTF-8. [`decode_nodes`]
//! checks every length and id and returns an error, never panics, on bad input.
//!
//! Field names known at compile time are sent once each and come back as
//! `Name::Static` (interned: each distinct name is allocated once per thread for
//! the life of the program, and the set of such names is fixed by the decoders),
//! so a million-node tree costs no allocation per name.

use crate::tree::{BitSpan, Kind, Name, Node, NodeId, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

const MAGIC: &[u8; 4] = b"HXW1";

const F_DAMAGED: u8 = 1;
const F_LAZY: u8 = 2;
const F_VALUE: u8 = 4;
const F_DISPLAY: u8 = 8;
const F_ERROR: u8 = 16;
const F_REFERENCE: u8 = 32;
const F_PARENT: u8 = 64;
const F_PAGE: u8 = 128;

struct Out(Vec<u8>);

impl Out {
    fn uint(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

/// Encodes `nodes` (a whole arena, or the nodes appended by an expansion).
pub fn encode_nodes(nodes: &[Node]) -> Vec<u8> {
    let mut names: HashMap<&'static str, u64> = HashMap::new();
    let mut table: Vec<&'static str> = Vec::new();
    for n in nodes {
        if let Name::Static(s) = n.name {
            names.entry(s).or_insert_with(|| {
                table.push(s);
                table.len() as u64 - 1
            });
        }
    }
    let mut o = Out(Vec::with_capacity(16 + nodes.len() * 12));
    o.0.extend_from_slice(MAGIC);
    o.uint(table.len() as u64);
    for s in &table {
        o.str(s);
    }
    o.uint(nodes.len() as u64);
    for n in nodes {
        match &n.name {
            Name::Index(i) => {
                o.0.push(0);
                o.uint(u64::from(*i));
            }
            Name::Static(s) => {
                o.0.push(1);
                o.uint(names[s]);
            }
            Name::Owned(s) => {
                o.0.push(2);
                o.str(s);
            }
        }
        o.0.push(n.kind.code());
        let mut flags = 0;
        for (on, f) in [
            (n.damaged, F_DAMAGED),
            (n.lazy, F_LAZY),
            (n.value.is_some(), F_VALUE),
            (n.display.is_some(), F_DISPLAY),
            (n.error.is_some(), F_ERROR),
            (n.reference.is_some(), F_REFERENCE),
            (n.parent.is_some(), F_PARENT),
            (n.page, F_PAGE),
        ] {
            if on {
                flags |= f;
            }
        }
        o.0.push(flags);
        o.uint(n.span.start);
        o.uint(n.span.end);
        match &n.value {
            None => {}
            Some(Value::U(v)) => {
                o.0.push(0);
                o.uint(*v);
            }
            Some(Value::I(v)) => {
                o.0.push(1);
                o.uint(((*v << 1) ^ (*v >> 63)) as u64);
            }
            Some(Value::F(v)) => {
                o.0.push(2);
                o.0.extend_from_slice(&v.to_le_bytes());
            }
            Some(Value::Bool(v)) => {
                o.0.push(3);
                o.0.push(u8::from(*v));
            }
            Some(Value::Str(s)) => {
                o.0.push(4);
                o.str(s);
            }
        }
        if let Some(d) = &n.display {
            o.str(d);
        }
        if let Some(e) = &n.error {
            o.str(e);
        }
        if let Some(r) = n.reference {
            o.uint(r.start);
            o.uint(r.end);
        }
        if let Some(p) = n.parent {
            o.uint(u64::from(p));
        }
        o.uint(n.children.len() as u64);
        for &c in &n.children {
            o.uint(u64::from(c));
        }
    }
    o.0
}

struct In<'a> {
    b: &'a [u8],
    at: usize,
}

impl In<'_> {
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("tree data: {what} at byte {}", self.at))
    }
    fn u8(&mut self) -> Result<u8, String> {
        match self.b.get(self.at) {
            Some(&v) => {
                self.at += 1;
                Ok(v)
            }
            None => self.err("unexpected end"),
        }
    }
    fn uint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        self.err("integer too long")
    }
    fn len(&mut self) -> Result<usize, String> {
        let n = self.uint()?;
        if n > (self.b.len() - self.at) as u64 {
            return self.err("length past the end");
        }
        Ok(n as usize)
    }
    fn str(&mut self) -> Result<&str, String> {
        let n = self.len()?;
        let s = &self.b[self.at..self.at + n];
        match std::str::from_utf8(s) {
            Ok(s) => {
                self.at += n;
                Ok(s)
            }
            Err(_) => self.err("text that is not UTF-8"),
        }
    }
    fn id(&mut self) -> Result<NodeId, String> {
        let v = self.uint()?;
        NodeId::try_from(v).or_else(|_| self.err("node id out of range"))
    }
}

thread_local! {
    static INTERNED: RefCell<HashSet<&'static str>> = RefCell::new(HashSet::new());
}

/// `s` as a `'static` string, allocated once per distinct text.
fn intern(s: &str) -> &'static str {
    INTERNED.with(|set| {
        let mut set = set.borrow_mut();
        if let Some(&k) = set.get(s) {
            return k;
        }
        let k: &'static str = Box::leak(s.to_owned().into_boxed_str());
        set.insert(k);
        k
    })
}

/// Decodes what [`encode_nodes`] wrote. Ids are not checked against each other
/// here (the tree that receives the nodes does that).
pub fn decode_nodes(bytes: &[u8]) -> Result<Vec<Node>, String> {
    let mut r = In { b: bytes, at: 0 };
    if bytes.get(..4) != Some(MAGIC) {
        return r.err("bad magic");
    }
    r.at = 4;
    let count = r.len()?;
    let mut table = Vec::with_capacity(count);
    for _ in 0..count {
        table.push(intern(r.str()?));
    }
    // Every node takes at least 5 bytes: a count past that is corrupt.
    let n = r.uint()?;
    if n > ((bytes.len() - r.at) / 5) as u64 {
        return r.err("node count larger than the data");
    }
    let mut nodes = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let name = match r.u8()? {
            0 => Name::Index(u32::try_from(r.uint()?).or_else(|_| r.err("index too big"))?),
            1 => {
                let i = r.uint()?;
                match table.get(i as usize) {
                    Some(s) => Name::Static(s),
                    None => return r.err("name id out of range"),
                }
            }
            2 => Name::Owned(r.str()?.into()),
            _ => return r.err("bad name tag"),
        };
        let kind = Kind::from_code(r.u8()?).map_or_else(|| r.err("bad kind"), Ok)?;
        let flags = r.u8()?;
        let span = BitSpan {
            start: r.uint()?,
            end: r.uint()?,
        };
        let value = if flags & F_VALUE != 0 {
            Some(match r.u8()? {
                0 => Value::U(r.uint()?),
                1 => {
                    let z = r.uint()?;
                    Value::I(((z >> 1) as i64) ^ -((z & 1) as i64))
                }
                2 => {
                    let mut a = [0u8; 8];
                    for x in &mut a {
                        *x = r.u8()?;
                    }
                    Value::F(f64::from_le_bytes(a))
                }
                3 => Value::Bool(r.u8()? != 0),
                4 => Value::Str(r.str()?.to_owned()),
                _ => return r.err("bad value tag"),
            })
        } else {
            None
        };
        let display = if flags & F_DISPLAY != 0 {
            Some(r.str()?.into())
        } else {
            None
        };
        let error = if flags & F_ERROR != 0 {
            Some(r.str()?.into())
        } else {
            None
        };
        let reference = if flags & F_REFERENCE != 0 {
            Some(BitSpan {
                start: r.uint()?,
                end: r.uint()?,
            })
        } else {
            None
        };
        let parent = if flags & F_PARENT != 0 {
            Some(r.id()?)
        } else {
            None
        };
        let k = r.len()?;
        let mut children = Vec::with_capacity(k);
        for _ in 0..k {
            children.push(r.id()?);
        }
        nodes.push(Node {
            name,
            kind,
            span,
            value,
            display,
            error,
            reference,
            damaged: flags & F_DAMAGED != 0,
            lazy: flags & F_LAZY != 0,
            page: flags & F_PAGE != 0,
            parent,
            children,
        });
    }
    if r.at != bytes.len() {
        return r.err("trailing data");
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &Node, b: &Node) -> bool {
        a.name.to_string() == b.name.to_string()
            && matches!(
                (&a.name, &b.name),
                (Name::Index(_), Name::Index(_))
                    | (Name::Static(_), Name::Static(_))
                    | (Name::Owned(_), Name::Owned(_))
            )
            && a.kind == b.kind
            && a.span == b.span
            && a.value == b.value
            && a.display == b.display
            && a.error == b.error
            && a.reference == b.reference
            && a.damaged == b.damaged
            && a.lazy == b.lazy
            && a.page == b.page
            && a.parent == b.parent
            && a.children == b.children
    }

    #[test]
    fn every_node_of_a_decoded_file_round_trips() {
        let mut data = b"DXBC".to_vec();
        data.extend_from_slice(&[0xAB; 40]);
        let d = crate::decode_bytes(&data);
        let nodes = d.tree.nodes();
        let wire = encode_nodes(&nodes);
        let back = decode_nodes(&wire).unwrap();
        assert_eq!(back.len(), nodes.len());
        for (a, b) in nodes.iter().zip(&back) {
            assert!(same(a, b), "{a:?} != {b:?}");
        }
    }

    #[test]
    fn every_value_shape_round_trips() {
        let mk = |name: Name, value: Option<Value>| Node {
            name,
            kind: Kind::U64,
            span: BitSpan {
                start: 3,
                end: u64::MAX,
            },
            value,
            display: Some("shown \u{202e}<b>".into()),
            error: Some("bad".into()),
            reference: Some(BitSpan { start: 0, end: 8 }),
            damaged: true,
            lazy: true,
            page: true,
            parent: Some(7),
            children: vec![1, u32::MAX as NodeId],
        };
        let nodes = vec![
            mk(Name::Index(u32::MAX), Some(Value::U(u64::MAX))),
            mk(Name::Static("Field"), Some(Value::I(i64::MIN))),
            mk(Name::Owned("run-time".into()), Some(Value::F(-0.5))),
            mk(Name::Static("Field"), Some(Value::Bool(true))),
            mk(Name::Static("Other"), Some(Value::Str("x\0y".into()))),
            mk(Name::Static("Other"), None),
        ];
        let back = decode_nodes(&encode_nodes(&nodes)).unwrap();
        for (a, b) in nodes.iter().zip(&back) {
            assert!(same(a, b), "{a:?} != {b:?}");
        }
    }

    #[test]
    fn damaged_data_is_an_error_not_a_panic() {
        let d = crate::decode_bytes(b"DXBC0123456789abcdef0123456789abcdef");
        let wire = encode_nodes(&d.tree.nodes());
        for cut in 0..wire.len() {
            assert!(decode_nodes(&wire[..cut]).is_err(), "cut at {cut}");
        }
        let mut rng = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            let mut w = wire.clone();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let i = (rng % w.len() as u64) as usize;
            w[i] ^= (rng >> 32) as u8 | 1;
            let _ = decode_nodes(&w);
        }
        // A node count that claims more nodes than bytes.
        let mut w = MAGIC.to_vec();
        w.extend_from_slice(&[0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert!(decode_nodes(&w).is_err());
    }
}
