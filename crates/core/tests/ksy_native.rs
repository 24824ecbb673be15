//! `.ksy` behaviour checked without the oracle: what Kaitai's JavaScript
//! runtime cannot show (an included terminator, bit fields over 32 bits,
//! 64-bit values), what is hexlens's own (labels, instance nodes, a format
//! applied at an offset), and hostile formats, which must end with an
//! error, quickly, never a hang or a panic.
#![cfg(feature = "ksy")]

use hexlens_core::ksy::{self, NoImports};
use hexlens_core::tree::{Tree, Value};
use hexlens_testkit::invariants::Rng;
use std::time::{Duration, Instant};

fn decode_at(text: &str, data: &[u8], at: u64) -> Tree {
    let spec = ksy::compile("test.ksy", text, &mut NoImports).unwrap_or_else(|e| panic!("{e}"));
    let f = hexlens_core::formats::register(ksy::format(spec, at));
    let d = hexlens_core::decode_as(f, &data);
    d.tree
        .validate(data.len() as u64)
        .unwrap_or_else(|e| panic!("invalid tree: {e}"));
    d.tree
}

fn decode(text: &str, data: &[u8]) -> Tree {
    decode_at(text, data, 0)
}

fn val(t: &Tree, path: &str) -> Value {
    let id = t.find(path).unwrap_or_else(|| panic!("no {path}"));
    t.value(id).unwrap_or_else(|| panic!("{path} has no value"))
}

fn span(t: &Tree, path: &str) -> (u64, u64) {
    let s = t.span(t.find(path).unwrap_or_else(|| panic!("no {path}")));
    (s.start, s.end)
}

#[test]
fn an_included_terminator_is_consumed_once() {
    let t = decode(
        "meta: {id: t, encoding: ASCII}\nseq:\n  - {id: a, type: str, terminator: 0x2c, include: true}\n  - {id: b, type: str, terminator: 0x2c, consume: false}\n  - {id: c, type: u1}\n",
        b"x,y,",
    );
    assert_eq!(val(&t, "a"), Value::Str("x,".into()));
    assert_eq!(span(&t, "a"), (0, 16));
    assert_eq!(val(&t, "b"), Value::Str("y".into()));
    assert_eq!(val(&t, "c"), Value::U(b',' as u64));
}

#[test]
fn bit_fields_reach_64_bits_in_both_orders() {
    let data = [0xFF, 0, 0, 0, 0, 0, 0, 0x01, 0xAB];
    let be = decode(
        "meta: {id: t}\nseq:\n  - {id: a, type: b64}\n  - {id: b, type: b4}\n",
        &data,
    );
    assert_eq!(val(&be, "a"), Value::U(0xFF00_0000_0000_0001));
    assert_eq!(val(&be, "b"), Value::U(0xA));
    // The top four bits of the last byte.
    assert_eq!(span(&be, "b"), (68, 72));
    let le = decode(
        "meta: {id: t, bit-endian: le}\nseq:\n  - {id: a, type: b33}\n  - {id: b, type: b31}\n",
        &data,
    );
    assert_eq!(val(&le, "a"), Value::U(0xFF));
    assert_eq!(val(&le, "b"), Value::U(0x01 << 23));
    assert_eq!(span(&le, "a"), (0, 33));
    assert_eq!(span(&le, "b"), (33, 64));
    let u = decode(
        "meta: {id: t, endian: be}\nseq:\n  - {id: a, type: u8}\n  - {id: b, type: s8}\n",
        &[0xFF; 16],
    );
    assert_eq!(val(&u, "a"), Value::U(u64::MAX));
    assert_eq!(val(&u, "b"), Value::I(-1));
}

#[test]
fn a_type_label_and_an_instance_outside_its_parent() {
    let text = "meta: {id: t, endian: le}
seq:
  - {id: hdr, type: hdr}
types:
  hdr:
    -webide-representation: 'v{version} at {offset:hex}'
    seq:
      - {id: version, type: u1}
      - {id: offset, type: u1}
    instances:
      body:
        io: _root._io
        pos: offset
        type: u2
";
    let t = decode(text, &[3, 6, 0, 0, 0, 0, 0x34, 0x12]);
    let hdr = t.find("hdr").unwrap();
    assert_eq!(t.display(hdr).as_deref(), Some("v3 at 0x6"));
    assert_eq!(span(&t, "hdr"), (0, 16));
    let body = t.find("hdr/body").unwrap();
    assert!(t.is_instance(body));
    assert_eq!(span(&t, "hdr/body"), (48, 64));
    assert_eq!(val(&t, "hdr/body"), Value::U(0x1234));
    let json = hexlens_core::output::to_json(&hexlens_core::Decoded {
        format: "ksy:t",
        file_size: 8,
        tree: t,
    });
    assert!(json.contains("\"name\":\"body\",\"kind\":\"u16\",\"start\":6,\"end\":8,\"value\":4660,\"instance\":true"), "{json}");
}

#[test]
fn a_format_applies_at_an_offset() {
    let t = decode_at("meta: {id: inner, endian: be}\nseq:\n  - {id: a, type: u2}\n  - {id: rest, size-eos: true}\n", &[9, 9, 9, 0x01, 0x02, 7, 7], 3);
    assert_eq!(val(&t, "inner/a"), Value::U(0x0102));
    assert_eq!(span(&t, "inner/rest"), (40, 56));
}

#[test]
fn a_format_applied_to_a_part_of_the_file_reads_no_further() {
    let text = "meta: {id: inner, endian: be}\nseq:\n  - {id: a, type: u2}\n  - {id: rest, size-eos: true}\n";
    let data = [9, 9, 9, 0x01, 0x02, 7, 7, 8, 8];
    let spec = || ksy::compile("test.ksy", text, &mut NoImports).unwrap();
    // Bytes 3..7: `rest` is what is left of the part, the bytes after it
    // are the file's own.
    let f = hexlens_core::formats::register(ksy::format_in(spec(), 3, Some(4)));
    let t = hexlens_core::decode_as(f, &data).tree;
    t.validate(data.len() as u64).unwrap();
    assert_eq!(span(&t, "inner"), (24, 56));
    assert_eq!(span(&t, "inner/rest"), (40, 56));
    assert_eq!(t.error(t.root()), None);
    // From the start, a part is still a child of the file.
    let f = hexlens_core::formats::register(ksy::format_in(spec(), 0, Some(2)));
    let t = hexlens_core::decode_as(f, &data).tree;
    assert_eq!(span(&t, "inner/rest"), (16, 16));
    // A part too short for a field: the error is at the part's end.
    let f = hexlens_core::formats::register(ksy::format_in(spec(), 3, Some(1)));
    let t = hexlens_core::decode_as(f, &data).tree;
    t.validate(data.len() as u64).unwrap();
    let inner = t.find("inner").unwrap();
    assert!(t.is_damaged(inner));
    assert!(t.span(inner).end <= 32, "{:?}", t.span(inner));
}

#[test]
fn processed_bytes_hold_their_fields_at_offsets_into_them() {
    let t = decode(
        "meta: {id: t, endian: be}\nseq:\n  - {id: a, type: u1}\n  - {id: p, size: 3, process: xor(0xff), type: inner}\ntypes:\n  inner:\n    seq:\n      - {id: x, type: u1}\n      - {id: y, type: u2}\n",
        &[1, 0xFE, 0xED, 0xCB],
    );
    let p = t.find("p").unwrap();
    assert!(!t.is_decoded(p));
    assert_eq!(span(&t, "p"), (8, 32));
    let y = t.find("p/y").unwrap();
    assert!(t.is_decoded(y));
    assert_eq!(span(&t, "p/y"), (8, 24));
    assert_eq!(val(&t, "p/y"), Value::U(0x1234));
    let json = hexlens_core::output::to_json(&hexlens_core::Decoded {
        format: "ksy:t",
        file_size: 4,
        tree: t,
    });
    assert!(json.contains("\"in\":\"decoded\""), "{json}");
}

/// In the viewer, a node in bytes a `process` made covers its field's bytes
/// in the file and owns none of the file's; the made bytes come with the
/// nodes owning each, nested processed fields owning all of theirs.
#[test]
fn the_viewer_shows_processed_bytes_apart_from_the_file_s() {
    let text = "meta: {id: t, endian: be}\nseq:\n  - {id: a, type: u1}\n  - {id: p, size: 5, process: xor(0xff), type: inner}\n  - {id: z, size: 2, process: xor(0x0f)}\ntypes:\n  inner:\n    seq:\n      - {id: x, type: u1}\n      - {id: y, type: u2}\n      - {id: q, size: 2, process: xor(0x01), type: two}\n  two:\n    seq:\n      - {id: c, type: u1}\n      - {id: d, type: u1}\n";
    // a, then p = xor 0xff of [7, 0x12, 0x34, q = xor 1 of [8, 9]], then z.
    let data = [
        1u8,
        !7,
        !0x12,
        !0x34,
        !(8 ^ 1),
        !(9 ^ 1),
        0x0f ^ 0xAA,
        0x0f ^ 0xBB,
    ];
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let mut s = hexlens_core::session::Session::open_as(data.to_vec(), Some(f), false);
    let y = s.resolve("p/y").unwrap();
    assert_eq!((y.start, y.end), (1, 6), "p/y covers p's bytes in the file");
    assert_eq!(y.inner, Some((1, 3)));
    let d = s.resolve("p/q/d").unwrap();
    assert_eq!((d.start, d.end), (1, 6));
    assert_eq!(d.inner, Some((1, 2)));
    let p = s.resolve("p").unwrap();
    assert_eq!(p.inner, Some((0, 5)));
    assert_eq!(s.resolve("a").unwrap().inner, None);
    // The file's bytes 1..6 are p's own: no node in the made bytes owns them.
    for byte in 1..6 {
        assert_eq!(s.owner(byte), Some(p.id), "byte {byte}");
    }
    let boxes = s.boxes(0, 8);
    let owners: Vec<(u64, u64, String)> = boxes
        .segments
        .iter()
        .map(|g| (g.start, g.end, boxes.node(g.owner).unwrap().name.clone()))
        .collect();
    assert_eq!(
        owners,
        [(0, 1, "a".into()), (1, 6, "p".into()), (6, 8, "z".into())]
    );
    // p's made bytes: x, y, then q (owning both of its own).
    let v = s.inner_view("p/y", 0, 100).unwrap();
    assert_eq!(v.holder_path, "p");
    assert_eq!(v.file, (1, 6));
    assert_eq!((v.len, v.from, v.mark), (5, 0, (1, 3)));
    assert_eq!(v.bytes, [7, 0x12, 0x34, 8 ^ 1, 9 ^ 1]);
    let path = |id| v.owners.iter().find(|o| o.0 == id).unwrap().1.clone();
    let segs: Vec<(u64, u64, String)> = v
        .segments
        .iter()
        .map(|g| (g.start, g.end, path(g.owner)))
        .collect();
    assert_eq!(
        segs,
        [
            (0, 1, "p/x".into()),
            (1, 3, "p/y".into()),
            (3, 5, "p/q".into())
        ]
    );
    // q's own made bytes, a window of them.
    let v = s.inner_view("p/q/d", 1, 2).unwrap();
    assert_eq!((v.holder_path.as_str(), v.len, v.mark), ("p/q", 2, (1, 2)));
    assert_eq!(v.bytes, [9]);
    assert_eq!(v.segments.len(), 1);
    assert_eq!(v.owners, [(v.segments[0].owner, "p/q/d".to_string())]);
    // A processed byte field holds its made bytes too; others hold none.
    let v = s.inner_view("z", 0, 10).unwrap();
    assert_eq!(
        (v.len, v.file, v.bytes.clone()),
        (2, (6, 8), vec![0xAA, 0xBB])
    );
    assert!(s
        .inner_view("a", 0, 10)
        .unwrap_err()
        .contains("not in bytes"));
    assert!(s.inner_view("nope", 0, 10).unwrap_err().contains("no node"));
}

/// A hostile format: it decodes to an error, within a few seconds.
fn hostile(text: &str, data: &[u8], says: &str) {
    let start = Instant::now();
    let t = decode(text, data);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "{took:?} for {text}");
    let errors: Vec<String> = t
        .errors()
        .iter()
        .map(|&e| t.error(e).unwrap().to_string())
        .collect();
    assert!(
        errors.iter().any(|e| e.contains(says)),
        "{says:?} not in {errors:?} for\n{text}"
    );
}

#[test]
fn hostile_formats_end_with_an_error() {
    let data = vec![0u8; 4096];
    // A repeat that is never done, of elements that read nothing.
    hostile(
        "meta: {id: t}\nseq:\n  - {id: a, size: 0, repeat: until, repeat-until: false}\n",
        &data,
        "read no bytes",
    );
    // The same in an instance (read without nodes).
    hostile(
        "meta: {id: t}\ninstances:\n  a: {pos: 0, size: 0, repeat: until, repeat-until: false}\n  b: {value: a.size}\n",
        &data,
        "read no bytes",
    );
    // Instances that need each other.
    hostile(
        "meta: {id: t}\ninstances:\n  a: {value: b + 1}\n  b: {value: a + 1}\n",
        &data,
        "depends on itself",
    );
    // A type that contains itself and reads nothing first.
    hostile(
        "meta: {id: t}\nseq:\n  - {id: a, type: t}\n",
        &data,
        "nest deeper",
    );
    // Sizes and counts no file holds.
    hostile(
        "meta: {id: t}\nseq:\n  - {id: a, size: 0xffffffffffff}\n",
        &data,
        "expected",
    );
    hostile("meta: {id: t}\nseq:\n  - {id: a, type: u1, repeat: expr, repeat-expr: 0x7fffffffffffffff}\n", &data, "repeat-expr");
    // A zlib stream that inflates to more than the decoder takes.
    let mut bomb = vec![0x78, 0x9c];
    bomb.extend(deflate_zeros(300 << 20));
    hostile(
        "meta: {id: t}\nseq:\n  - {id: a, size-eos: true, process: zlib}\n",
        &bomb,
        "inflates to more than",
    );
    // An instance whose position is past the end.
    hostile(
        "meta: {id: t}\ninstances:\n  a: {pos: 100000, type: u1}\n",
        &data,
        "outside its stream",
    );
}

/// A raw deflate stream of `n` zero bytes, made by hand: stored runs would
/// be as long as the data, so it repeats one fixed-Huffman block whose
/// matches copy zeros (258 at a time).
fn deflate_zeros(n: usize) -> Vec<u8> {
    // Bits are written least significant first.
    let mut out = Vec::new();
    let mut acc: u64 = 0;
    let mut nbits = 0;
    let mut put = |v: u64, n: u32, out: &mut Vec<u8>| {
        acc |= v << nbits;
        nbits += n;
        while nbits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            nbits -= 8;
        }
    };
    // Fixed-Huffman codes are written most significant bit first.
    let rev =
        |code: u64, len: u32| (0..len).fold(0, |r, i| r | (((code >> i) & 1) << (len - 1 - i)));
    put(1, 1, &mut out); // final block
    put(1, 2, &mut out); // fixed Huffman
                         // A literal zero: code 0x30, 8 bits.
    put(rev(0x30, 8), 8, &mut out);
    let mut left = n - 1;
    while left >= 258 {
        // Length 258: symbol 285 (code 0xC5 in the 8-bit range 280..287: 0xC0 + 5).
        put(rev(0xC0 + 5, 8), 8, &mut out);
        // Distance 1: distance code 0, 5 bits.
        put(0, 5, &mut out);
        left -= 258;
    }
    // End of block: symbol 256, 7 bits of zeros.
    put(0, 7, &mut out);
    if nbits > 0 {
        out.push(acc as u8);
    }
    out
}

#[test]
fn a_process_hexlens_cannot_run_leaves_the_bytes_and_the_fields_after_them() {
    let t = decode(
        "meta: {id: t}\nseq:\n  - {id: a, size: 2, process: my_cipher(3)}\n  - {id: b, type: u1}\n",
        &[1, 2, 3],
    );
    let a = t.find("a").unwrap();
    assert!(
        t.error(a).unwrap().contains("my_cipher"),
        "{:?}",
        t.error(a)
    );
    assert_eq!(val(&t, "b"), Value::U(3));
}

/// The tests' deterministic generator ([`Rng`]), counting in `u64`, with a
/// pick from a list.
struct Gen(Rng);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n as usize) as u64
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random field for a type whose earlier integer fields are `ints`.
fn field(g: &mut Gen, id: &str, ints: &[String], types: usize) -> String {
    let size = |g: &mut Gen| match ints.get(g.below(ints.len() as u64 + 1) as usize) {
        Some(f) if g.below(2) == 0 => format!("{f} % 7"),
        _ => format!("{}", g.below(6)),
    };
    let mut f = match g.below(11) {
        0 => format!(
            "type: {}",
            g.pick(&["u1", "u2le", "u4be", "u8le", "s1", "s2be", "s4le", "s8be"])
        ),
        1 => format!("type: {}", g.pick(&["f4le", "f8be"])),
        2 => format!("type: b{}", 1 + g.below(64)),
        3 => format!(
            "type: str, size: {}, encoding: {}",
            size(g),
            g.pick(&["UTF-8", "ASCII", "UTF-16LE", "ISO-8859-1"])
        ),
        4 => format!(
            "type: strz, encoding: UTF-8, eos-error: {}",
            g.below(2) == 0
        ),
        5 => format!("size: {}", size(g)),
        6 if types > 0 => format!("type: t{}", g.below(types as u64)),
        7 if types > 0 => format!("type: t{}, size: {}", g.below(types as u64), size(g)),
        8 => format!(
            "size: {}, process: {}",
            size(g),
            g.pick(&["xor(0x55)", "rol(3)", "ror(1)", "zlib", "xor([1, 2])"])
        ),
        9 if !ints.is_empty() => format!(
            "type: {{switch-on: {} % 3, cases: {{0: u1, 1: u2le, _: s1}}}}",
            ints[g.below(ints.len() as u64) as usize]
        ),
        _ => "contents: [0x00]".to_string(),
    };
    match g.below(8) {
        0 => f += ", repeat: eos",
        1 => f += &format!(", repeat: expr, repeat-expr: {}", size(g)),
        2 => f += ", repeat: until, repeat-until: _io.eof",
        _ => {}
    }
    if g.below(6) == 0 && !ints.is_empty() {
        f += &format!(", if: {} > 3", ints[0]);
    }
    format!("{{id: {id}, {f}}}")
}

fn ksy_text(g: &mut Gen) -> String {
    let mut out = format!(
        "meta: {{id: g, endian: {}, bit-endian: {}}}\n",
        g.pick(&["le", "be"]),
        g.pick(&["le", "be"])
    );
    let ntypes = g.below(4) as usize;
    let mut types = String::new();
    for t in 0..ntypes {
        types += &format!("  t{t}:\n    seq:\n");
        let mut ints = Vec::new();
        for k in 0..1 + g.below(4) {
            let id = format!("f{k}");
            types += &format!("      - {}\n", field(g, &id, &ints, t));
            ints.push(id);
        }
    }
    out += "seq:\n";
    let mut ints = vec!["n".to_string()];
    out += "  - {id: n, type: u1}\n";
    for k in 0..1 + g.below(6) {
        let id = format!("a{k}");
        out += &format!("  - {}\n", field(g, &id, &ints, ntypes));
        ints.push(id);
    }
    if g.below(2) == 0 {
        out += &format!(
            "instances:\n  p: {{pos: n % 9, type: {}}}\n  v: {{value: n * 2 + 1}}\n",
            g.pick(&["u2le", "u1", "s4be"])
        );
    }
    if ntypes > 0 {
        out += "types:\n";
        out += &types;
    }
    out
}

#[test]
fn generated_formats_over_generated_inputs_never_panic_and_give_valid_trees() {
    let mut g = Gen(Rng(0x9E37_79B9_7F4A_7C15));
    let mut decoded = 0;
    let mut refused = 0;
    for i in 0..3000 {
        let text = ksy_text(&mut g);
        let n = g.below(300) as usize;
        let data: Vec<u8> = (0..n).map(|_| g.next() as u8).collect();
        let spec = match ksy::compile("gen.ksy", &text, &mut NoImports) {
            Ok(s) => s,
            Err(_) => {
                refused += 1;
                continue;
            }
        };
        let f = hexlens_core::formats::register(ksy::format(spec, 0));
        let d = hexlens_core::decode_as(f, &data.as_slice());
        d.tree.validate(data.len() as u64).unwrap_or_else(|e| {
            panic!(
                "case {i}: invalid tree: {e}\n{text}\n{data:02x?}\n{}",
                hexlens_core::output::to_text(&d)
            )
        });
        decoded += 1;
    }
    println!("{decoded} formats decoded, {refused} refused");
    assert!(decoded > 2500, "{decoded} decoded, {refused} refused");
}

/// Decodes `data` with `text` eagerly and on demand (every part of `lazy`
/// bytes or more left to be decoded when opened, then every one opened):
/// both give the same tree; returns how many parts were left.
fn same_on_demand(text: &str, data: &[u8], lazy: u64) -> usize {
    same_in_pages(text, data, lazy, None)
}

/// [`same_on_demand`], long lists in pages of `page` elements.
fn same_in_pages(text: &str, data: &[u8], lazy: u64, page: Option<u32>) -> usize {
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap_or_else(|e| panic!("{e}"));
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let eager = hexlens_core::decode_as(f, &data);
    let opts = hexlens_core::Options {
        lazy_threshold: Some(lazy),
        page_size: page,
        ..Default::default()
    };
    let mut d = hexlens_core::decode_as_with(f, &data, &opts);
    d.tree
        .validate(data.len() as u64)
        .unwrap_or_else(|e| panic!("invalid lazy tree: {e}"));
    let left =
        hexlens_testkit::lazy::expand_all(data, &mut d, false).unwrap_or_else(|e| panic!("{e}"));
    hexlens_testkit::lazy::assert_same(
        "on demand",
        &hexlens_core::output::to_json(&d),
        &hexlens_core::output::to_json(&eager),
    );
    left
}

#[test]
fn sized_objects_are_decoded_when_opened_into_the_eager_tree() {
    let png = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/ksy/files/debian-nodejs-logo.png"
    ))
    .unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/ksy/formats/png.ksy"
    ))
    .unwrap();
    // The chunk bodies are sized: the header, the palette, the image data.
    assert!(same_on_demand(&text, &png, 8) >= 1);
    // A later field reads a field of an object not opened yet; a nested
    // object is left too; `_parent`, `_root` and parameters reach into it.
    let text = "meta: {id: t, endian: le}
seq:
  - {id: n, type: u1}
  - {id: box, size: 12, type: outer(n)}
  - {id: after, size: box.inner.len}
types:
  outer:
    params:
      - {id: k, type: u1}
    seq:
      - {id: tag, type: u2}
      - {id: inner, size: 10, type: inner}
    instances:
      k_twice: {value: k * 2 + _root.n}
  inner:
    seq:
      - {id: len, type: u1}
      - {id: data, size-eos: true}
    instances:
      up: {value: _parent.tag}
";
    let data = [5, 0x34, 0x12, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xA, 0xB, 0xC];
    assert!(same_on_demand(text, &data, 4) >= 2);
}

#[test]
fn a_case_s_arguments_name_the_value_switched_on() {
    // Kaitai's 0.11 compiler stops on `_on` in a case's arguments (it is
    // tested here, not against it).
    let text = "meta: {id: t}
seq:
  - {id: k, type: u1}
  - id: body
    type:
      switch-on: k
      cases:
        1: foo(_on)
        _: foo(_on + 10)
types:
  foo:
    params:
      - {id: p, type: u1}
    seq:
      - {id: x, type: u1}
    instances:
      pp: {value: p}
";
    assert_eq!(val(&decode(text, &[1, 5]), "body/pp"), Value::U(1));
    assert_eq!(val(&decode(text, &[7, 5]), "body/pp"), Value::U(17));
}

#[test]
fn long_lists_of_fixed_size_elements_come_in_pages_decoded_when_opened() {
    let text = "meta: {id: t, endian: le}
seq:
  - {id: n, type: u2}
  - {id: words, type: u4, repeat: expr, repeat-expr: n}
  - {id: points, type: point, repeat: expr, repeat-expr: n}
  - {id: blocks, size: 3, repeat: expr, repeat-expr: n}
  - {id: tail, type: point, repeat: eos}
types:
  point:
    seq:
      - {id: x, type: s2}
      - {id: y, type: s2}
    instances:
      sum: {value: x + y}
";
    let n = 1000u16;
    let mut data = n.to_le_bytes().to_vec();
    data.extend((0..n as usize * (4 + 4 + 3) + 400).map(|i| (i * 7 % 251) as u8));
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let opts = hexlens_core::Options {
        lazy_threshold: Some(1 << 20),
        page_size: Some(64),
        ..Default::default()
    };
    let d = hexlens_core::decode_as_with(f, &data.as_slice(), &opts);
    // Each list is its pages, none decoded yet.
    let words = d.tree.find("words").unwrap();
    assert_eq!(d.tree.children(words).len(), 16);
    assert!(d
        .tree
        .children(words)
        .iter()
        .all(|&p| d.tree.is_page(p) && d.tree.is_lazy(p)));
    assert_eq!(d.tree.value(words), Some(Value::U(1000)));
    // Opened, every page is the eager tree's.
    let opened = same_in_pages(text, &data, 1 << 20, Some(64));
    // Lists of integers and of fixed-size byte runs, and the `repeat: eos`
    // of objects (100 of them: its pages found by reading it); a counted
    // list of objects is not paged (an element that fails ends a list,
    // which a page cannot know).
    assert_eq!(opened, 16 + 16 + 2);
    let points = d.tree.find("points").unwrap();
    assert!(!d.tree.children(points).iter().any(|&p| d.tree.is_page(p)));
}

#[test]
fn sized_instances_before_and_after_their_object_open_as_the_eager_tree() {
    let text = "meta: {id: t, endian: le}
seq:
  - {id: pad, size: 4}
  - {id: box, type: box}
types:
  box:
    seq:
      - {id: a, type: u2}
    instances:
      back: {io: _root._io, pos: 0, size: 4, type: pair}
      ahead: {io: _root._io, pos: 8, size: 4, type: pair}
  pair:
    seq:
      - {id: x, type: u2}
      - {id: y, type: u2}
";
    let data = [1, 2, 3, 4, 5, 6, 0, 0, 9, 0, 10, 0];
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let opts = hexlens_core::Options {
        lazy_threshold: Some(2),
        ..Default::default()
    };
    let d = hexlens_core::decode_as_with(f, &data.as_slice(), &opts);
    let (back, ahead) = (
        d.tree.find("box/back").unwrap(),
        d.tree.find("box/ahead").unwrap(),
    );
    assert!(d.tree.is_instance(back) && !d.tree.is_lazy(back));
    assert!(d.tree.is_instance(ahead) && d.tree.is_lazy(ahead));
    assert_eq!(same_on_demand(text, &data, 2), 1);
}

#[test]
fn what_a_review_found_stays_fixed() {
    let zero = [0u8];
    // Instances that recurse through objects end with an error, not a stack
    // overflow.
    hostile(
        "meta: {id: t}\nseq:\n  - {id: r, type: t}\ntypes:\n  t:\n    instances:\n      child: {pos: 0, type: t}\n      v: {value: child.v + 1}\n",
        &zero,
        "nest deeper",
    );
    // sizeof of types made of types of types is found once per type.
    let mut text = String::from("meta: {id: t}\ninstances:\n  s: {value: sizeof<t40>}\ntypes:\n  t0:\n    seq:\n      - {id: a, type: u1}\n");
    for i in 1..=40 {
        text += &format!(
            "  t{i}:\n    seq:\n      - {{id: a, type: t{}}}\n      - {{id: b, type: t{}}}\n",
            i - 1,
            i - 1
        );
    }
    let start = Instant::now();
    let t = decode(&text, &zero);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(val(&t, "s"), Value::U(1 << 40));
    // Sizes and positions past 64 bits are past the end, not cut to 64 bits.
    hostile(
        "meta: {id: t}\nseq:\n  - {id: x, size: 18446744073709551617}\n",
        &[0x11, 0x22],
        "(18446744073709551617 bytes)",
    );
    hostile(
        "meta: {id: t}\ninstances:\n  p: {pos: 18446744073709551616, type: u1}\n",
        &[0x11],
        "outside its stream",
    );
    // Elements that read nothing cannot repeat until the budget.
    hostile(
        "meta: {id: t}\ninstances:\n  n: {value: l.size}\n  l: {type: empty, repeat: until, repeat-until: false}\ntypes:\n  empty: {}\n",
        &zero,
        "read no bytes",
    );
    // repeat: eos reads bit fields to the last bit.
    let t = decode(
        "meta: {id: t}\nseq:\n  - {id: bits, type: b1, repeat: eos}\n",
        &[0xA5],
    );
    assert_eq!(val(&t, "bits"), Value::U(8));
    assert_eq!(val(&t, "bits/[2]"), Value::Bool(true));
    // A sized strz ends at its NUL.
    let t = decode("meta: {id: t, encoding: ASCII}\nseq:\n  - {id: a, type: strz, size: 4}\n  - {id: b, type: u1}\n", &[0x61, 0x62, 0, 0x63, 9]);
    assert_eq!(val(&t, "a"), Value::Str("ab".into()));
    assert_eq!(val(&t, "b"), Value::U(9));
    // b1 with an enum is a number of that enum.
    let t = decode(
        "meta: {id: t}\nseq:\n  - {id: f, type: b1, enum: e}\n  - {id: g, type: b7}\ninstances:\n  on: {value: f == e::yes}\nenums:\n  e: {0: no, 1: yes}\n",
        &[0x80],
    );
    assert_eq!(val(&t, "f"), Value::U(1));
    assert_eq!(val(&t, "on"), Value::Bool(true));
    // Opened later, a part sees its parents' streams where they were.
    let text = "meta: {id: t}
seq:
  - {id: body, size: 8, type: sub}
  - {id: tail, type: u1}
  - {id: more, size-eos: true}
types:
  sub:
    seq:
      - {id: a, type: u1}
    instances:
      ppos: {value: _parent._io.pos}
      rpos: {value: _root._io.pos}
";
    let data: Vec<u8> = (1..=12).collect();
    assert_eq!(same_on_demand(text, &data, 8), 1);
}

#[test]
fn a_run_of_integers_ends_where_the_element_by_element_read_would() {
    // repeat: eos over a stream with a partial element at its end: the
    // whole elements, then an error on the partial one.
    let t = decode(
        "meta: {id: t, endian: le}\nseq:\n  - {id: a, type: u2, repeat: eos}\n",
        &[1, 0, 2, 0, 3],
    );
    assert_eq!(val(&t, "a/[1]"), Value::U(2));
    assert_eq!(span(&t, "a/[1]"), (16, 32));
    let bad = t.find("a/[2]").expect("the partial element's node");
    assert_eq!(span(&t, "a/[2]"), (32, 40));
    assert!(
        t.error(bad).unwrap().contains("2 bytes"),
        "{:?}",
        t.error(bad)
    );
    // A count past the stream: what is there, then the error.
    let t = decode(
        "meta: {id: t, endian: be}\nseq:\n  - {id: a, type: s4, repeat: expr, repeat-expr: 3}\n",
        &[0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 7, 1],
    );
    assert_eq!(val(&t, "a/[0]"), Value::I(-2));
    assert_eq!(val(&t, "a/[1]"), Value::U(7));
    assert!(t.error(t.find("a/[2]").unwrap()).is_some());
    assert!(t.find("a/[3]").is_none());
    // No byte order: the first element says so.
    let t = decode(
        "meta: {id: t}\nseq:\n  - {id: a, type: u2, repeat: expr, repeat-expr: 2}\n",
        &[0; 4],
    );
    let e = t.error(t.find("a/[0]").unwrap()).unwrap().to_string();
    assert!(e.contains("byte order"), "{e}");
    // Bit fields before the list: the list starts at the next byte.
    let t = decode(
        "meta: {id: t, endian: be}\nseq:\n  - {id: f, type: b3}\n  - {id: a, type: u1, repeat: expr, repeat-expr: 2}\n",
        &[0xff, 5, 6],
    );
    assert_eq!(span(&t, "a/[0]"), (8, 16));
    assert_eq!(val(&t, "a/[1]"), Value::U(6));
}

#[test]
fn pos_instances_of_unknown_size_wait_until_opened() {
    // Records of unknown size, each pointing (by `pos`) at a body that a
    // terminator ends; one instance's value is read by an expression.
    let text = "meta: {id: t, endian: le, encoding: ASCII}
seq:
  - {id: count, type: u1}
  - {id: refs, type: ref, repeat: expr, repeat-expr: count}
instances:
  first_name:
    value: refs[0].target.name
types:
  ref:
    seq:
      - {id: at, type: u1}
    instances:
      target: {io: _root._io, pos: at, type: body}
  body:
    seq:
      - {id: len, type: u1}
      - {id: name, type: strz}
      - {id: data, size: len}
";
    let mut data = vec![3, 4, 13, 4];
    data.extend([2]);
    data.extend(b"alpha\0");
    data.extend([0xAA, 0xBB]);
    data.extend([1]);
    data.extend(b"beta\0");
    data.extend([0xCC]);
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let opts = hexlens_core::Options {
        lazy_threshold: Some(4),
        ..Default::default()
    };
    let d = hexlens_core::decode_as_with(f, &data.as_slice(), &opts);
    let t = &d.tree;
    let target = t.find("refs/[0]/target").unwrap();
    assert!(t.is_instance(target) && t.is_lazy(target));
    // Its span is what reading it took, found before it is opened.
    assert_eq!(t.span(target).start, 4 * 8);
    assert_eq!(t.span(target).end, 13 * 8);
    assert_eq!(
        t.value(t.find("first_name").unwrap()),
        Some(Value::Str("alpha".into()))
    );
    // Opened, every one is what the eager decode makes.
    assert_eq!(same_on_demand(text, &data, 4), 3);
    // The ZIP format's central entries point back at their local records.
    let dir = std::env::temp_dir().join(format!("hexlens-ksy-lazy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zip = dir.join("t.zip");
    let ok = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    for i in range(40): z.writestr('f%02d.txt' % i, 'x' * i)",
            &zip.to_string_lossy(),
        ])
        .status()
        .unwrap();
    assert!(ok.success());
    let bytes = std::fs::read(&zip).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/ksy/formats/zip.ksy"
    ))
    .unwrap();
    assert_eq!(same_on_demand(&text, &bytes, 16), 40);
}

#[test]
fn the_streaming_dump_of_a_ksy_tree_is_the_eager_dump() {
    // The viewer's exports and the npm package's dump walk the tree as it
    // is decoded on demand; `hexlens dump --ksy` decodes it whole first.
    use hexlens_core::output::TextStyle;
    use hexlens_core::stream::{self, DumpForm, Limits};
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/ksy");
    for (ksy, file) in [
        ("png", "debian-nodejs-logo.png"),
        ("gif", "debian-libxslt-node.gif"),
        ("bmp", "cpython-python.bmp"),
        ("jpeg", "cpython-python.jpg"),
        ("ttf", "debian-liberation-mono.ttf"),
        ("pe", "setuptools-cli.exe"),
    ] {
        let spec = ksy::load_file(format!("{root}/formats/{ksy}.ksy").as_ref(), &[]).unwrap();
        let f = hexlens_core::formats::register(ksy::format(spec, 0));
        let data = std::fs::read(format!("{root}/files/{file}")).unwrap();
        for form in [DumpForm::Json, DumpForm::Text] {
            let mut eager = Vec::new();
            let mut d = hexlens_core::decode_as(f, &data);
            let start = d.tree.root();
            let limits = Limits {
                keep_lazy: true,
                ..Default::default()
            };
            match form {
                DumpForm::Json => stream::write_json(&data, &mut d, start, limits, &mut eager),
                DumpForm::Text => stream::write_text(&data, &mut d, start, limits, &mut eager),
            }
            .unwrap();
            let mut streamed = Vec::new();
            let style = TextStyle::default();
            stream::dump_styled_as(
                &data,
                Some(f),
                None,
                form,
                None,
                false,
                &style,
                &mut streamed,
            )
            .unwrap();
            assert!(eager.len() > 500, "{file}: {} bytes of dump", eager.len());
            assert!(
                streamed == eager,
                "{file} ({form:?}): the streaming dump differs from the eager one"
            );
        }
    }
}

#[test]
fn a_format_given_as_text_is_made_once_and_names_what_it_misses() {
    use std::collections::BTreeMap;
    let text = "meta: {id: given, endian: le}\nseq:\n  - {id: a, type: u2}\n";
    let none = BTreeMap::new();
    let a = ksy::from_text("given.ksy", text, &none, 0, None).unwrap();
    let b = ksy::from_text("given.ksy", text, &none, 0, None).unwrap();
    assert!(std::ptr::eq(a, b), "the same text twice is one entry");
    let c = ksy::from_text("given.ksy", text, &none, 4, None).unwrap();
    assert!(!std::ptr::eq(a, c), "applied elsewhere, another entry");
    let other = text.replace("u2", "u4");
    let d = ksy::from_text("given.ksy", &other, &none, 0, None).unwrap();
    assert!(!std::ptr::eq(a, d), "another text, another entry");
    assert_eq!(a.name, "ksy:given");
    // Imports by name, as written or by their last part, with or without `.ksy`.
    let main = "meta:\n  id: main\n  imports: [/common/riff, ../up/leaf]\nseq:\n  - {id: r, type: riff}\n  - {id: l, type: leaf}\n";
    let riff = "meta: {id: riff}\nseq:\n  - {id: x, type: u1}\n";
    let leaf = "meta: {id: leaf}\nseq:\n  - {id: y, type: u1}\n";
    let mut imports = BTreeMap::from([("riff.ksy".to_string(), riff.to_string())]);
    let Err(e) = ksy::from_text("main.ksy", main, &imports, 0, None) else {
        panic!("an import is missing");
    };
    assert_eq!(e.missing, ["leaf"]);
    assert!(e.to_string().contains("leaf"), "{e}");
    imports.insert("leaf".into(), leaf.into());
    let f = ksy::from_text("main.ksy", main, &imports, 0, None).unwrap();
    let t = hexlens_core::decode_as(f, &[7u8, 9].as_slice()).tree;
    assert_eq!(val(&t, "r/x"), Value::U(7));
    assert_eq!(val(&t, "l/y"), Value::U(9));
}

#[test]
fn a_node_s_details_carry_what_the_ksy_says_of_it() {
    let text = "meta: {id: t, endian: le}\ndoc: The whole.\nseq:\n  - id: a\n    type: u1\n    doc: First byte.\n  - id: items\n    type: item\n    repeat: expr\n    repeat-expr: 2\n    doc: The items.\n  - id: s\n    type:\n      switch-on: a\n      cases:\n        1: one\n  - id: plain\n    type: u1\ntypes:\n  item:\n    doc: An item.\n    seq:\n      - id: x\n        type: u1\n        doc-ref: Spec 1.2\n  one:\n    seq:\n      - id: y\n        type: u1\n        doc: |\n          Y of one.\n";
    let data = vec![0xEE, 1, 5, 6, 7, 8];
    // Over a whole file (the format's data without the byte before it).
    let doc = |from: usize, path: &str| {
        let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
        let f = hexlens_core::formats::register(ksy::format_in(spec, 0, None));
        let s = hexlens_core::session::Session::open_as(data[from..].to_vec(), Some(f), false);
        let t = hexlens_core::decode_as(f, &data[from..].to_vec()).tree;
        let id = t.find(path).unwrap_or_else(|| panic!("no {path}"));
        s.node(id).unwrap().doc
    };
    let s = |v: &str| Some(v.to_string());
    assert_eq!(doc(1, ""), s("The whole."));
    assert_eq!(doc(1, "a"), s("First byte."));
    assert_eq!(doc(1, "items"), s("The items."));
    assert_eq!(doc(1, "items/[1]"), s("The items."));
    assert_eq!(doc(1, "items/[0]/x"), s("See: Spec 1.2"));
    assert_eq!(doc(1, "s"), None);
    assert_eq!(doc(1, "s/y"), s("Y of one."));
    assert_eq!(doc(1, "plain"), None);
    // Applied inside a file: the file's root says nothing, the format's object what its type does.
    let inside = |path: &str| {
        let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
        let f = hexlens_core::formats::register(ksy::format_in(spec, 1, None));
        let s = hexlens_core::session::Session::open_as(data.clone(), Some(f), false);
        let t = hexlens_core::decode_as(f, &data).tree;
        s.node(t.find(path).unwrap()).unwrap().doc
    };
    assert_eq!(inside(""), None);
    assert_eq!(inside("t"), s("The whole."));
    assert_eq!(inside("t/items/[0]/x"), s("See: Spec 1.2"));
}

#[test]
fn an_unsized_repeat_eos_comes_in_pages_found_by_reading_it() {
    // Records of 1 to 7 bytes end to end: where each starts is known only
    // by reading the ones before it.
    let text = "meta: {id: t, endian: le}\nseq:\n  - {id: magic, contents: [0x52]}\n  - {id: records, type: record, repeat: eos}\ntypes:\n  record:\n    seq:\n      - {id: len, type: u1}\n      - {id: body, size: len}\n";
    let mut data = vec![0x52];
    for i in 0..2500u32 {
        let len = (i % 7) as u8;
        data.push(len);
        data.extend(std::iter::repeat_n(i as u8, len as usize));
    }
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let opts = hexlens_core::Options {
        lazy_threshold: Some(64),
        page_size: Some(1000),
        ..Default::default()
    };
    let d = hexlens_core::decode_as_with(f, &data.as_slice(), &opts);
    let t = &d.tree;
    t.validate(data.len() as u64).unwrap();
    let list = t.find("records").unwrap();
    let pages: Vec<String> = t
        .children(list)
        .iter()
        .map(|&c| t.name(c).to_string())
        .collect();
    assert_eq!(pages, ["[0…999]", "[1000…1999]", "[2000…2499]"]);
    assert!(t.children(list).iter().all(|&c| t.is_lazy(c)));
    assert_eq!(t.value(list), Some(Value::U(2500)));
    assert!(t.len() < 20, "{} nodes before a page is opened", t.len());
    // Each page spans its records' bytes.
    let second = t.children(list)[1];
    let at = |i: u32| 1 + (0..i).map(|k| 1 + (k % 7) as u64).sum::<u64>();
    assert_eq!(
        (t.span(second).start, t.span(second).end),
        (at(1000) * 8, at(2000) * 8)
    );
    // Opened (the three pages), the pages are the eager tree.
    assert_eq!(same_in_pages(text, &data, 64, Some(1000)), 3);
    // A record past the end: the list is read as any list, its error where it is.
    let mut bad = data.clone();
    bad.push(9);
    let d = hexlens_core::decode_as_with(f, &bad.as_slice(), &opts);
    let list = d.tree.find("records").unwrap();
    assert!(d.tree.is_damaged(list));
    assert_eq!(d.tree.children(list).len(), 2501);
    // Short lists stay as they were.
    assert_eq!(same_in_pages(text, &data[..200], 64, Some(1000)), 0);
}

/// Past its first few MiB, a long unsized list pauses: its rest is a node
/// that reads on when opened (the viewer reads on by itself), and read to
/// its end the list is the eager tree; its elements are found by index.
#[test]
fn a_long_unsized_list_shows_what_was_read_and_reads_on() {
    let text = "meta: {id: t, endian: le}\nseq:\n  - {id: magic, contents: [0x52]}\n  - {id: records, type: record, repeat: eos}\ntypes:\n  record:\n    seq:\n      - {id: len, type: u1}\n      - {id: body, size: len}\n";
    let mut data = vec![0x52];
    let mut n = 0u32;
    while data.len() < 10 << 20 {
        let len = ((n * 37) % 251) as u8;
        data.push(len);
        data.extend(std::iter::repeat_n(n as u8, len as usize));
        n += 1;
    }
    let spec = ksy::compile("t.ksy", text, &mut NoImports).unwrap();
    let f = hexlens_core::formats::register(ksy::format(spec, 0));
    let opts = hexlens_core::Options {
        lazy_threshold: Some(64),
        page_size: Some(1000),
        ..Default::default()
    };
    let d = hexlens_core::decode_as_with(f, &data.as_slice(), &opts);
    let t = &d.tree;
    t.validate(data.len() as u64).unwrap();
    let list = t.find("records").unwrap();
    let kids = t.children(list);
    let rest = *kids.last().unwrap();
    assert!(t.is_rest(rest) && t.is_lazy(rest));
    let first = t.name(rest).to_string();
    let read: u64 = first[1..first.len() - "…]".len()].parse().unwrap();
    assert!(
        read.is_multiple_of(1000) && read > 0 && read < n as u64 / 2,
        "{first}"
    );
    assert_eq!(kids.len() as u64, read / 1000 + 1);
    // The rest spans the list's bytes after what was read, to the end.
    assert_eq!(t.span(rest).end, data.len() as u64 * 8);
    assert_eq!(t.value(list), None, "the count is not known yet");
    // Opened, it is the eager tree (the list's count known at its end).
    assert!(same_in_pages(text, &data, 64, Some(1000)) > kids.len());
    // The viewer reads the rest ahead, a few MiB at a time, to the end; its
    // node says how far it got.
    let mut s = hexlens_core::session::Session::open_as(data.clone(), Some(f), false);
    let mut steps = Vec::new();
    while let Some(a) = s.read_on(1 << 20) {
        steps.push(a);
        assert!(steps.len() < 20);
    }
    let end = data.len() as u64;
    assert!(steps.len() >= 5, "{steps:?}");
    assert!(steps
        .windows(2)
        .all(|w| w[0].to < w[1].to && w[0].entries < w[1].entries));
    let last = *steps.last().unwrap();
    assert!(last.done && last.to == end && last.end == end, "{last:?}");
    assert_eq!(last.entries, n as u64 - read);
    let t = s.tree();
    let rest = t
        .children(t.find("records").unwrap())
        .last()
        .copied()
        .unwrap();
    assert!(t.is_lazy(rest));
    let row = hexlens_core::session::row_text(t, rest, 0);
    assert!(
        row.contains(&format!(
            "{} entries read ahead to the end",
            n as u64 - read
        )),
        "{row}"
    );
    // Opened, the rest shows all it read, in pages, and the list's count.
    let rows = s.answer(&hexlens_core::protocol::Request::Rows {
        gen: 1,
        open: vec![0, s.tree().find("records").unwrap(), rest],
        first: 0,
        count: 10,
        find: None,
    });
    assert!(
        matches!(rows, hexlens_core::protocol::Answer::Rows { ref failed, .. } if failed.is_empty())
    );
    let t = s.tree();
    let list = t.find("records").unwrap();
    assert_eq!(t.value(list), Some(Value::U(n as u64)));
    assert_eq!(
        t.children(rest).len() as u64,
        (n as u64 - read).div_ceil(1000)
    );
    assert!(t.children(rest).iter().all(|&c| !t.is_rest(c)));
    // An element past what was first read, by its path.
    let last = s.resolve(&format!("records/[{}]/len", n - 1)).unwrap();
    assert_eq!(
        last.value.as_deref(),
        Some(&*format!(
            "{} (0x{:X})",
            ((n - 1) * 37) % 251,
            ((n - 1) * 37) % 251
        ))
    );
    // A record past the end, after the pause: its error where it is, the
    // pages before it whole.
    let mut bad = data.clone();
    bad.push(9);
    let mut s = hexlens_core::session::Session::open_as(bad.clone(), Some(f), false);
    while s.read_on(1 << 20).is_some() {}
    let p = s.resolve(&format!("records/[{n}]")).unwrap();
    assert!(p.error.is_some() || p.damaged, "{p:?}");
    let t = s.tree();
    let errors = t.errors();
    assert_eq!(
        errors.len(),
        1,
        "{:?}",
        errors.iter().map(|&e| t.error(e)).collect::<Vec<_>>()
    );
    assert_eq!(t.path(errors[0]), format!("records/[{n}]/body"));
}
