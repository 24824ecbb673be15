//! PDB / MSF 7.00 containers (`Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0`): the
//! multi-stream file Microsoft's program databases (and DXC's shader PDBs)
//! are kept in. Follows LLVM's `docs/PDB/MsfFile.rst` (superblock, free block
//! maps, block map, stream directory) and, for the streams decoded field by
//! field, `PdbStream.rst`, `TpiStream.rst` and `DbiStream.rst`.
//!
//! A stream's pages may lie anywhere in the file, in any order, so the tree
//! follows the file: every byte belongs to one node, and no two siblings
//! overlap however a stream is scattered.
//!
//! * `SuperBlock`: page 0, its fields and the unused rest of the page.
//! * `Streams`: what the directory says, as derived nodes (they claim no
//!   bytes): `Streams/[i]` is stream `i` (its size, what it is) and
//!   `Streams/[i]/[k]` its `k`-th page, referring to that page's bytes.
//! * `Pages`: pages 1 onwards in file order, `Pages/[p]` being page `p`: a free
//!   block map page, the block map (the directory's page numbers), a page of
//!   the stream directory (`NumStreams`, `StreamSizes`, `StreamPages`; the
//!   arrays are cut where the page ends), a page of a stream (its bytes as
//!   `Data`, what follows the stream's end as `Slack`; a stream's header is
//!   decoded in its first page), or a run of pages nothing uses. A stream
//!   whose pages follow each other and whose content is decoded across them
//!   (a DirectX Container, a PDB info stream longer than a page) is one node
//!   over all its pages, named after the first. A stream that holds a DirectX
//!   Container is decoded in place by the DXContainer decoder, its nodes at
//!   the file offsets of its bytes; if its pages are scattered it is shown
//!   page by page and says so.
//!
//! Every problem is an error on the field it is about (a page number past the
//! end, a page claimed twice, a directory too short for its counts); the rest
//! is still decoded. With pages of a list (`Options::page_size`), long runs of
//! pages come in pages of the tree.

pub(crate) mod layout;
mod streams;

use super::{has_magic, read_exact, u32_at, Embedded, Format};
use crate::builder::{Builder, DResult};
use crate::source::ByteSource;
use crate::tree::{BitSpan, Kind, Name, Value};
use layout::{plural, Field, Owner, Plan};
use std::sync::Arc;
use streams::stream_label;

/// The registry entry.
pub const FORMAT: Format = Format {
    name: "msf",
    root: "MSF",
    description: "PDB / MSF 7.00 container (Microsoft program database, DXC shader PDB)",
    extensions: &["pdb"],
    // PDBs apart from the shaders they hold: the MSF decoder (about 20 KB of a
    // module, gzip) is fetched for a PDB only. Its build also links the
    // DXContainer decoder, which it runs on a container inside a stream.
    module: "pdb",
    probe,
    head_probe: true,
    embedded: Some(Embedded {
        signatures: &[b"Microsoft C/C++ MSF 7.00\r\n"],
        extent,
    }),
    decode: &decode,
    doc: None,
};

/// True if the file starts with the 32-byte MSF 7.00 magic.
pub(crate) fn probe(src: &dyn ByteSource) -> bool {
    has_magic(src, layout::MAGIC)
}

/// One entry of the `Pages` list.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// One page, shown by what owns it.
    Page(u64),
    /// All the pages of stream `stream`, `count` of them from `first`,
    /// decoded as one.
    Run {
        stream: usize,
        first: u64,
        count: u64,
    },
    /// Pages nothing uses.
    Free { first: u64, count: u64 },
}

impl Item {
    fn first(self) -> u64 {
        match self {
            Item::Page(p) => p,
            Item::Run { first, .. } | Item::Free { first, .. } => first,
        }
    }

    fn count(self) -> u64 {
        match self {
            Item::Page(_) => 1,
            Item::Run { count, .. } | Item::Free { count, .. } => count,
        }
    }
}

/// The layout and what is decided from it before nodes are made.
struct View {
    plan: Plan,
    /// Per stream: it starts with a DirectX Container's magic.
    dxbc: Vec<bool>,
    /// Per stream: decoded as one node over its pages.
    in_place: Vec<bool>,
    /// Where the PDB info stream's named stream map ends, if it is whole.
    map_end: Option<u64>,
    items: Vec<Item>,
}

impl View {
    fn new(b: &Builder, plan: Plan) -> View {
        let bs = plan.bs;
        let dxbc: Vec<bool> = (0..plan.streams.len())
            .map(|s| streams::is_dxbc(&plan, b, s))
            .collect();
        let in_place: Vec<bool> = plan
            .streams
            .iter()
            .enumerate()
            .map(|(s, st)| {
                !st.pages.is_empty()
                    && st.contiguous(bs)
                    && (dxbc[s] || (s == 1 && st.pages.len() > 1))
            })
            .collect();
        let map_end = plan.streams.get(1).and_then(|st| {
            let bytes = plan.read_stream(b, 1, 0, st.len());
            streams::named_map_end(&bytes).filter(|_| bytes.len() as u64 == st.len())
        });
        let mut items = Vec::new();
        let mut p = 1u64;
        while p < plan.pages {
            match plan.owner(p) {
                Some(Owner::Stream(s, 0)) if in_place.get(s as usize) == Some(&true) => {
                    let count = plan.streams[s as usize].pages.len() as u64;
                    items.push(Item::Run {
                        stream: s as usize,
                        first: p,
                        count,
                    });
                    p += count.max(1);
                }
                Some(Owner::Free) => {
                    let mut q = p;
                    while q < plan.pages && plan.owner(q) == Some(Owner::Free) {
                        q += 1;
                    }
                    items.push(Item::Free {
                        first: p,
                        count: q - p,
                    });
                    p = q;
                }
                _ => {
                    items.push(Item::Page(p));
                    p += 1;
                }
            }
        }
        View {
            plan,
            dxbc,
            in_place,
            map_end,
            items,
        }
    }
}

fn decode(b: &mut Builder) -> DResult<()> {
    let mut plan = layout::read(b);
    if plan.bs > 0 {
        streams::name_streams(b, &mut plan);
    }
    let v = Arc::new(View::new(b, plan));
    let p = &v.plan;
    superblock(b, p);
    if p.bs == 0 {
        return Ok(());
    }
    let root = b.current();
    let mut what = format!(
        "program database (MSF 7.00): {} of {} bytes",
        plural(u64::from(p.sb.num_blocks), "page", "pages"),
        p.bs
    );
    if p.num_streams.is_some() {
        what.push_str(&format!(
            ", {}",
            plural(p.streams.len() as u64, "stream", "streams")
        ));
    }
    b.set_display(root, what);
    b.seek(p.bs.min(p.file_len));
    streams_index(b, &v)?;
    pages(b, &v)
}

/// Puts the problems `plan` found with superblock field `f` on the last node.
fn sb_errors(b: &mut Builder, plan: &Plan, f: Field) {
    for (g, msg) in &plan.sb_errors {
        if *g == f {
            b.error(msg.clone());
        }
    }
}

/// Page `p`'s bytes as a span, if the page is shown.
fn page_ref(plan: &Plan, p: u64) -> Option<BitSpan> {
    (p < plan.pages).then(|| {
        let (s, e) = plan.page_span(p);
        BitSpan::bytes(s, e)
    })
}

fn superblock(b: &mut Builder, p: &Plan) {
    let len = if p.bs > 0 {
        p.bs.min(p.file_len)
    } else {
        layout::SUPERBLOCK_SIZE.min(p.file_len)
    };
    b.region("SuperBlock", Kind::Struct, 0, len, |b| {
        b.fixed_str("Magic", 32)?;
        b.display("MSF 7.00");
        sb_errors(b, p, Field::Magic);
        let bs = b.u32("BlockSize")?;
        b.display(format!("pages of {bs} bytes"));
        sb_errors(b, p, Field::BlockSize);
        let fpm = b.u32("FreeBlockMapBlock")?;
        b.display(format!("free block map {fpm} is the active one"));
        sb_errors(b, p, Field::FpmBlock);
        let nb = b.u32("NumBlocks")?;
        let mut text = format!(
            "{}, {} bytes",
            plural(u64::from(nb), "page", "pages"),
            u64::from(nb) * u64::from(bs)
        );
        if p.bs > 0 && u64::from(nb) < p.pages {
            text.push_str(&format!(
                "; the file holds {}: pages past NumBlocks are read too, as LLVM's reader does (DXC's shader PDBs count one page less)",
                p.pages
            ));
        }
        b.display(text);
        sb_errors(b, p, Field::NumBlocks);
        let db = b.u32("NumDirectoryBytes")?;
        if p.bs > 0 {
            b.display(format!(
                "the stream directory, in {}",
                plural(u64::from(db).div_ceil(p.bs), "page", "pages")
            ));
        }
        sb_errors(b, p, Field::DirBytes);
        b.u32("Unknown")?;
        let bm = b.uint_field("BlockMapAddr", 4)?;
        b.display(format!("the block map is page {}", bm.value));
        sb_errors(b, p, Field::BlockMapAddr);
        if let Some(r) = page_ref(p, bm.value) {
            if p.block_map.is_some() {
                b.set_reference(bm.id, r);
            }
        }
        let rest = b.remaining();
        if rest > 0 {
            b.padding("Unused", rest)?;
        }
        Ok(())
    });
}

/// What stream `i` is, for its directory entries and index node.
/// What a stream is matched by when two files are compared: its name, else
/// what kind of stream it is (streams of one kind are matched in order).
fn stream_key(p: &Plan, i: usize) -> String {
    let Some(st) = p.streams.get(i) else {
        return String::new();
    };
    match &st.name {
        Some(n) => n.clone(),
        None if st.size == layout::NIL_SIZE => "nil stream".into(),
        None if st.len() == 0 => "empty".into(),
        None => "stream".into(),
    }
}

fn stream_summary(p: &Plan, v: Option<&View>, i: usize) -> String {
    let Some(st) = p.streams.get(i) else {
        return String::new();
    };
    let mut s = match &st.name {
        Some(n) => format!("{n}: "),
        None => String::new(),
    };
    if st.size == layout::NIL_SIZE {
        s.push_str("nil stream (no size, no pages)");
        return s;
    }
    if st.len() == 0 {
        s.push_str("empty");
        return s;
    }
    s.push_str(&format!(
        "{} in {}",
        plural(st.len(), "byte", "bytes"),
        plural(st.len().div_ceil(p.bs), "page", "pages")
    ));
    if let Some(v) = v {
        if v.in_place.get(i) == Some(&true) {
            s.push_str(", decoded in place");
        } else if v.dxbc.get(i) == Some(&true) && !st.contiguous(p.bs) {
            s.push_str(
                "; it holds a DirectX Container, but its pages are not contiguous in the file: shown page by page",
            );
        }
    }
    s
}

/// `Streams`: the directory's view of the streams, as derived nodes.
fn streams_index(b: &mut Builder, v: &View) -> DResult<()> {
    let p = &v.plan;
    let Some(n) = p.num_streams else {
        return Ok(());
    };
    let all = b.derived_group_field("Streams", None, |b| {
        for (i, st) in p.streams.iter().enumerate() {
            let first = st.pages.first().and_then(|&pg| page_ref(p, u64::from(pg)));
            let one = b.derived_group_field(Name::Index(i as u32), first, |b| {
                for (k, &pg) in st.pages.iter().enumerate() {
                    let from = k as u64 * p.bs;
                    let to = (from + p.bs).min(st.len());
                    let name = Name::Index(k as u32);
                    let pg = u64::from(pg);
                    match page_ref(p, pg) {
                        Some(r) => {
                            let mut text = format!(
                                "page {pg} at 0x{:X}: stream bytes 0x{from:X}–0x{to:X}",
                                r.start_byte()
                            );
                            if !st.usable.get(k).copied().unwrap_or(false) {
                                text.push_str(&format!(
                                    "; the page is {} (see the directory entry)",
                                    p.owner(pg).map_or("not shown".into(), |o| p.owner_text(o))
                                ));
                            }
                            b.derived(name, Value::U(pg), r, Some(text))?;
                        }
                        None => {
                            let id = b.derived_group_field(name, None, |_| Ok(()))?.id;
                            b.set_value(id, Value::U(pg));
                            b.set_display(
                                id,
                                format!("page {pg} is not in the file (see the directory entry)"),
                            );
                        }
                    }
                }
                Ok(())
            })?;
            if st.size != layout::NIL_SIZE {
                b.set_value(one.id, Value::U(st.len()));
            }
            b.set_display(one.id, stream_summary(p, Some(v), i));
            b.set_key(one.id, stream_key(p, i));
        }
        Ok(())
    })?;
    b.set_value(all.id, Value::U(u64::from(n)));
    b.set_display(
        all.id,
        format!(
            "{} listed in the stream directory",
            plural(p.streams.len() as u64, "stream", "streams")
        ),
    );
    Ok(())
}

/// Entries a page of a long list holds, when lists are shown as pages.
fn list_page(b: &Builder) -> Option<usize> {
    match (b.page_size(), b.lazy_threshold()) {
        (Some(n), Some(_)) => Some(n.max(1) as usize),
        _ => None,
    }
}

/// `Pages`: pages 1 onwards, in file order.
fn pages(b: &mut Builder, v: &Arc<View>) -> DResult<()> {
    let p = &v.plan;
    let start = p.bs.min(p.file_len);
    let end = p.file_len;
    if end <= start || v.items.is_empty() {
        return Ok(());
    }
    b.region("Pages", Kind::Array, start, end - start, |b| {
        match list_page(b).filter(|&n| v.items.len() > n) {
            Some(n) => {
                for i in (0..v.items.len()).step_by(n) {
                    let j = (i + n).min(v.items.len());
                    let (a, z) = (v.items[i], v.items[j - 1]);
                    let from = p.page_span(a.first()).0;
                    let to = p.page_span(z.first() + z.count() - 1).1;
                    let v2 = Arc::clone(v);
                    let list = b.current();
                    b.page(a.first(), z.first(), from, to - from, move |b| {
                        for &it in &v2.items[i..j] {
                            item(b, &v2, it)?;
                        }
                        Ok(())
                    })?;
                    // The page is named by the page numbers its entries start
                    // with (so a page number finds its page); it holds
                    // `j - i` entries, fewer when runs of pages are one entry.
                    if let Some(id) = b.last() {
                        if b.tree().is_page(id) && b.tree().parent(id) == Some(list) {
                            b.set_value(id, Value::U((j - i) as u64));
                            b.set_display(
                                id,
                                format!(
                                    "pages {}–{}, not decoded yet",
                                    a.first(),
                                    z.first() + z.count() - 1
                                ),
                            );
                        }
                    }
                }
                Ok(())
            }
            None => {
                for &it in &v.items {
                    item(b, v, it)?;
                }
                Ok(())
            }
        }
    });
    Ok(())
}

fn item(b: &mut Builder, v: &View, it: Item) -> DResult<()> {
    let p = &v.plan;
    match it {
        Item::Free { first, count } => {
            let from = p.page_span(first).0;
            let to = p.page_span(first + count - 1).1;
            b.seek(from);
            b.bytes(Name::Index(first as u32), to - from)?;
            let mut text = if count == 1 {
                "not used by the directory or any stream".to_string()
            } else {
                format!(
                    "pages {first}–{}: not used by the directory or any stream",
                    first + count - 1
                )
            };
            if !p.marked_free.is_empty() {
                let free = (first..first + count)
                    .filter(|&q| p.marked_free.get(q as usize) == Some(&true))
                    .count() as u64;
                if free == count {
                    text.push_str("; marked free in the free block map");
                } else {
                    text.push_str(&format!(
                        "; the free block map marks {free} of {count} free"
                    ));
                }
            }
            b.display(text);
            Ok(())
        }
        Item::Page(pg) => page(b, v, pg),
        Item::Run {
            stream,
            first,
            count,
        } => {
            let from = p.page_span(first).0;
            let to = p.page_span(first + count - 1).1;
            b.region(
                Name::Index(first as u32),
                Kind::Struct,
                from,
                to - from,
                |b| {
                    let len = p.streams[stream].len().min(to - from);
                    content(b, v, stream, from, len)?;
                    slack(b)
                },
            );
            if let Some(id) = b.last() {
                let which = if count == 1 {
                    format!("its only page, {first}")
                } else {
                    format!("pages {first}–{}, one after the other", first + count - 1)
                };
                b.set_display(
                    id,
                    format!(
                        "{}: {which}, decoded in place",
                        stream_label(p, stream as u64)
                    ),
                );
                b.set_key(id, "stream");
            }
            Ok(())
        }
    }
}

/// The bytes of the page past the stream's end, if any.
fn slack(b: &mut Builder) -> DResult<()> {
    let rest = b.remaining();
    if rest > 0 {
        b.padding("Slack", rest)?;
        b.display("past the end of the stream");
    }
    Ok(())
}

/// One page shown by what owns it.
fn page(b: &mut Builder, v: &View, pg: u64) -> DResult<()> {
    let p = &v.plan;
    let (from, to) = p.page_span(pg);
    let name = Name::Index(pg as u32);
    let owner = p.owner(pg).unwrap_or(Owner::Free);
    let text = match owner {
        Owner::Fpm(w, k) => {
            b.seek(from);
            b.bytes(name, to - from)?;
            b.display(fpm_text(p, w, k));
            return Ok(());
        }
        Owner::Free | Owner::Superblock => {
            b.seek(from);
            b.bytes(name, to - from)?;
            return Ok(());
        }
        Owner::BlockMap => {
            b.region(name, Kind::Struct, from, to - from, |b| block_map(b, p));
            format!(
                "block map: the stream directory's {}",
                plural(p.dir_pages.len() as u64, "page", "pages")
            )
        }
        Owner::Directory(k) => {
            b.region(name, Kind::Struct, from, to - from, |b| {
                directory_page(b, v, u64::from(k))
            });
            let a = u64::from(k) * p.bs;
            format!(
                "stream directory, page {k} of {}: directory bytes 0x{a:X}–0x{:X}",
                p.dir_pages.len(),
                (a + p.bs).min(u64::from(p.sb.dir_bytes))
            )
        }
        Owner::Stream(s, k) => {
            b.region(name, Kind::Struct, from, to - from, |b| {
                stream_page(b, v, s as usize, u64::from(k))
            });
            let st = &p.streams[s as usize];
            let a = u64::from(k) * p.bs;
            let mut text = format!(
                "{}, page {k} of {}: stream bytes 0x{a:X}–0x{:X}",
                stream_label(p, u64::from(s)),
                st.pages.len(),
                (a + p.bs).min(st.len())
            );
            if k == 0 && v.dxbc.get(s as usize) == Some(&true) {
                text.push_str(
                    "; the stream holds a DirectX Container, but its pages are not contiguous in the file: shown page by page",
                );
            }
            if pg % p.bs == 1 || pg % p.bs == 2 {
                text.push_str(&format!(
                    "; a free block map position (FPM{}), used for data",
                    pg % p.bs
                ));
            }
            if p.marked_free.get(pg as usize) == Some(&true) {
                text.push_str("; the free block map marks it free");
            }
            text
        }
    };
    if let Some(id) = b.last() {
        b.set_display(id, text);
        // Pages are matched by what owns them, in order.
        let key = match owner {
            Owner::BlockMap => "block map",
            Owner::Directory(_) => "stream directory",
            _ => "stream",
        };
        b.set_key(id, key);
    }
    Ok(())
}

/// What a free block map page is.
fn fpm_text(p: &Plan, w: u8, k: u32) -> String {
    let active = u64::from(p.sb.fpm_block) == u64::from(w);
    let mut s = format!("free block map {w}, interval {k}");
    if !active {
        s.push_str(", inactive");
        return s;
    }
    s.push_str(", active");
    // The k-th page of the map holds the bits of pages k·8·bs onwards.
    let bits = p.bs * 8;
    let from = u64::from(k) * bits;
    if from >= p.pages || p.marked_free.is_empty() {
        s.push_str(": no page of the file is described here");
        return s;
    }
    let to = (from + bits).min(p.pages);
    let marked = |q: u64| p.marked_free.get(q as usize) == Some(&true);
    let free = (from..to).filter(|&q| marked(q)).count();
    let used_free = (from..to)
        .filter(|&q| marked(q) && !matches!(p.owner(q), Some(Owner::Free | Owner::Fpm(..))))
        .count();
    s.push_str(&format!(": marks {free} of pages {from}–{} free", to - 1));
    if used_free > 0 {
        s.push_str(&format!(
            " ({} in use marked free)",
            plural(used_free as u64, "page", "pages")
        ));
    }
    s
}

/// The block map page: the directory's page numbers.
fn block_map(b: &mut Builder, p: &Plan) -> DResult<()> {
    b.array("DirectoryPages", |b| {
        for (k, &pg) in p.dir_pages.iter().enumerate() {
            let k = k as u64;
            let id = b.uint_field(Name::Index(k as u32), 4)?.id;
            if let Some(msg) = p.bm_errors.get(&k) {
                b.error(msg.clone());
            } else if k < p.dir_readable {
                let pg = u64::from(pg);
                b.display(format!(
                    "stream directory page {k} is page {pg} at 0x{:X}",
                    pg * p.bs
                ));
                if let Some(r) = page_ref(p, pg) {
                    b.set_reference(id, r);
                }
            } else {
                b.display("not followed: the directory ends at an earlier page");
            }
        }
        Ok(())
    })?;
    let rest = b.remaining();
    if rest > 0 {
        b.padding("Unused", rest)?;
    }
    Ok(())
}

/// Directory entry at directory offset `o`: its problem, if any.
fn dir_error(b: &mut Builder, p: &Plan, o: u64) {
    if let Some(msg) = p.dir_errors.get(&o) {
        b.error(msg.clone());
    }
}

/// Page `k` of the stream directory: the entries that lie in it.
fn directory_page(b: &mut Builder, v: &View, k: u64) -> DResult<()> {
    let p = &v.plan;
    let base = b.pos();
    let from = k * p.bs;
    let to = (from + p.bs).min(p.dir_avail).max(from);
    let used = to.min(p.dir_used).max(from);
    let at = |o: u64| base + (o - from);
    let count = p.streams.len() as u64;
    if from == 0 && used >= 4 {
        let n = b.u32("NumStreams")?;
        b.display(plural(u64::from(n), "stream", "streams"));
        dir_error(b, p, 0);
    }
    let (lo, hi) = (from.max(4), used.min(4 + 4 * count));
    if lo < hi {
        b.seek(at(lo));
        b.array("StreamSizes", |b| {
            for o in (lo..hi).step_by(4) {
                let i = (o - 4) / 4;
                b.u32(Name::Index(i as u32))?;
                b.display(format!(
                    "stream {i}: {}",
                    stream_summary(p, Some(v), i as usize)
                ));
                dir_error(b, p, o);
            }
            Ok(())
        })?;
    }
    let e0 = p.streams.first().map_or(u64::MAX, |s| s.first_entry);
    let lo = from.max(e0);
    if lo < used {
        b.seek(at(lo));
        b.array("StreamPages", |b| {
            let first = p
                .streams
                .partition_point(|s| s.first_entry + 4 * s.pages.len() as u64 <= lo);
            for (i, st) in p.streams.iter().enumerate().skip(first) {
                if st.first_entry >= used {
                    break;
                }
                let a = lo.max(st.first_entry);
                let z = used.min(st.first_entry + 4 * st.pages.len() as u64);
                if a >= z {
                    continue;
                }
                b.seek(at(a));
                let list = b.array_field(Name::Index(i as u32), |b| {
                    for o in (a..z).step_by(4) {
                        let kk = (o - st.first_entry) / 4;
                        let entry = b.uint_field(Name::Index(kk as u32), 4)?;
                        let pg = entry.value;
                        if p.dir_errors.contains_key(&o) {
                            dir_error(b, p, o);
                        } else if let Some(r) = page_ref(p, pg) {
                            let past = if pg >= u64::from(p.sb.num_blocks) {
                                " (past NumBlocks, inside the file: read as LLVM's reader reads it)"
                            } else {
                                ""
                            };
                            b.display(format!("page {pg} at 0x{:X}{past}", r.start_byte()));
                            b.set_reference(entry.id, r);
                        }
                    }
                    Ok(())
                })?;
                b.set_display(list.id, stream_label(p, i as u64));
                b.set_key(list.id, "stream");
            }
            Ok(())
        })?;
    }
    b.seek(at(used));
    let rest = b.remaining();
    if rest > 0 {
        b.padding("Unused", rest)?;
        if used < u64::from(p.sb.dir_bytes) && used < to {
            b.display("directory bytes no entry reads");
        } else {
            b.display("past the end of the stream directory");
        }
    }
    Ok(())
}

/// Page `k` of stream `s`: its header (first page), its data, its slack.
fn stream_page(b: &mut Builder, v: &View, s: usize, k: u64) -> DResult<()> {
    let p = &v.plan;
    let st = &p.streams[s];
    let start = b.pos();
    let off = k * p.bs;
    let n = st.len().saturating_sub(off).min(p.bs).min(b.remaining());
    if k == 0 {
        content(b, v, s, start, n)?;
    }
    let data = (start + n).saturating_sub(b.pos());
    if data > 0 {
        b.bytes("Data", data)?;
    }
    slack(b)
}

/// What is decoded of stream `s` whose first `len` bytes lie at `start` (all
/// of it when it is in place or fits its first page; else its first page).
fn content(b: &mut Builder, v: &View, s: usize, start: u64, len: u64) -> DResult<()> {
    let p = &v.plan;
    let size = p.streams[s].len();
    if v.in_place.get(s) == Some(&true) && v.dxbc.get(s) == Some(&true) {
        b.region("DXContainer", Kind::Struct, start, len, |b| {
            crate::formats::nest::graft(b, &crate::formats::dxcontainer::FORMAT, start, len)
        });
        return Ok(());
    }
    if len == 0 {
        return Ok(());
    }
    match s {
        1 => {
            b.region(
                "Header",
                Kind::Struct,
                start,
                len.min(streams::PDB_HEADER),
                streams::pdb_header,
            );
            // The rest is decoded when the whole stream is here.
            if len == size && size > streams::PDB_HEADER {
                let map_to = v.map_end.unwrap_or(size).min(size);
                let at = start + streams::PDB_HEADER;
                b.region(
                    "NamedStreamMap",
                    Kind::Struct,
                    at,
                    map_to.saturating_sub(streams::PDB_HEADER),
                    |b| streams::named_stream_map(b, p),
                );
                if map_to < size {
                    b.region(
                        "Features",
                        Kind::Array,
                        start + map_to,
                        size - map_to,
                        |b| streams::features(b),
                    );
                }
            }
        }
        2 | 4 => {
            b.region(
                "Header",
                Kind::Struct,
                start,
                len.min(streams::TPI_HEADER),
                |b| streams::tpi_header(b, p, size),
            );
        }
        3 => {
            b.region(
                "Header",
                Kind::Struct,
                start,
                len.min(streams::DBI_HEADER),
                |b| streams::dbi_header(b, p, size),
            );
        }
        _ => {}
    }
    Ok(())
}

// How far a container found inside another file extends (see `super::embedded`).

/// An MSF 7.00 superblock: its page size one the format allows, its pages
/// within the file.
pub(crate) fn extent(src: &dyn ByteSource, offset: u64, room: u64) -> Option<u64> {
    let h = read_exact(src, offset, 44)?;
    if h[..32] != layout::MAGIC[..] {
        return None;
    }
    let page = u32_at(&h, 32, false);
    let pages = u64::from(u32_at(&h, 40, false));
    let n = u64::from(page) * pages;
    (layout::valid_block_size(page) && pages > 0 && n <= room).then_some(n)
}
