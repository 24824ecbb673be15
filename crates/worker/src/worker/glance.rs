//! The whole file at a glance (`static/glance.js`: the minimap, the byte
//! statistics and the field table), answered by the tools module in a
//! worker of the pane's own. It keeps the file's tree (decoded as the
//! viewer decodes it, the lazy groups opened as the table needs them) and
//! counts bytes a step at a time between the pane's questions
//! ([`hexlens_core::glance`]).
//!
//! Messages in (each `{type, job, …}`):
//! - `{type: "glance", job, blob, scan, ksy, cells}` opens the file and
//!   answers `{type: "glance-cells", job, pass, size, cells, from, to,
//!   entropy, zeros, text, done}` (`Float32Array`s for cells `[from, to)`)
//!   for the coarse pass, at once; then `{type: "glance-parts", job, size,
//!   cells, parts: [{path, name, kind, start, end}], owners: Int32Array}`
//!   (the coloured nodes, and for each cell the one holding most of its
//!   bytes, -1: none; the structure may take longer to read); then the full
//!   pass's `glance-cells`, a step at a time.
//! - `{type: "stats", job, start, end}` counts bytes `[start, end)`,
//!   answered after each step `{type: "stats", job, start, end, done,
//!   counts: Float64Array(256), finished}`.
//! - `{type: "glance-stop" | "glance-on", job, what}` stops (or, for
//!   `what: "map"`, resumes) a scan, answered `{type: "glance-stopped", job,
//!   what}` when stopped.
//! - `{type: "table", job, path, all, sort, desc, filter, first, count}`:
//!   rows of the field table of the node at `path`, answered (after `{type:
//!   "table-progress", job, done, total}` while lazy groups are decoded)
//!   `{type: "table", job, path, all, sort, desc, filter, total, first,
//!   rows: [[path, start, end, kind, value, meaning]]}` or with `error`.
//! - `{type: "table-copy", job, path, all, sort, desc, filter, form}` (`csv`
//!   or `tsv`): the whole table as text, answered `{type: "table-copied",
//!   job, text, rows}` or `{type: "table-copied", job, error}`.

use super::*;
use hexlens_core::glance::{self as g, Col, MapScan, StatsScan, Table};
use hexlens_core::Tree;

/// Bytes the map's full pass reads a step.
const MAP_STEP: u64 = 16 << 20;
/// Bytes the statistics count a step.
const STATS_STEP: u64 = 16 << 20;
/// Nodes the table looks through (or decodes) a step.
const TABLE_STEP: usize = 20_000;
/// Most cells a map has.
const MAX_CELLS: u32 = 8192;
/// Most text a table copy makes.
const MAX_COPY: usize = 64 << 20;
/// Most rows a table answer carries.
const MAX_WINDOW: usize = 2000;

/// The file as the scans read it: straight from the blob, each read as
/// asked (the decoder's reads go through pages kept and read ahead, which a
/// scan reading each byte once, or a sample of each cell, has no use for).
struct Direct<'a>(&'a BlobSource);

impl ByteSource for Direct<'_> {
    fn len(&self) -> u64 {
        self.0.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        let n = hexlens_core::source::clip(self.0.len(), offset, buf.len());
        if n > 0 && self.0.fetch_into(offset, &mut buf[..n]) {
            n
        } else {
            0
        }
    }
}

/// The table asked for: which node, how, and which rows.
struct Ask {
    msg: JsValue,
    copy: bool,
}

/// A field table: its node's path and `all`, the table, and how it was last
/// arranged (column, `desc`, filter).
struct Shown {
    path: String,
    all: bool,
    table: Table,
    arranged: Option<(Col, bool, String)>,
}

struct State {
    job: u32,
    src: BlobSource,
    tree: Tree,
    map: Option<MapScan>,
    map_stopped: bool,
    stats: Option<StatsScan>,
    /// The field table last asked for.
    table: Option<Shown>,
    /// The table question waiting for its table to fill.
    asked: Option<Ask>,
    /// A step is scheduled.
    busy: bool,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

/// Handles the pane's messages (see the module's notes).
pub fn handle(kind: &str, m: &JsValue, job: u32) {
    if kind == "glance" {
        return open(m, job);
    }
    let known = STATE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(st) = s.as_mut().filter(|st| st.job == job) else {
            return false;
        };
        let text = |k: &str| get(m, k).as_string().unwrap_or_default();
        match kind {
            "stats" => {
                let size = st.src.len();
                let start = uint(m, "start").unwrap_or(0);
                let end = uint(m, "end").unwrap_or(size);
                st.stats = Some(StatsScan::new(start, end, size));
            }
            "glance-stop" if text("what") == "stats" => {
                st.stats = None;
                post(&msg(
                    "glance-stopped",
                    &[("job", job.into()), ("what", "stats".into())],
                ));
            }
            "glance-stop" => {
                st.map_stopped = true;
                post(&msg(
                    "glance-stopped",
                    &[("job", job.into()), ("what", "map".into())],
                ));
            }
            "glance-on" => st.map_stopped = false,
            "table" | "table-copy" => {
                st.asked = Some(Ask {
                    msg: m.clone(),
                    copy: kind == "table-copy",
                })
            }
            _ => {}
        }
        true
    });
    if !known {
        let reply = match kind {
            "table" => "table",
            "table-copy" => "table-copied",
            _ => "failed",
        };
        let err = "that file is no longer open in the glance worker";
        return post(&msg(
            reply,
            &[
                ("job", job.into()),
                ("error", err.into()),
                ("message", err.into()),
            ],
        ));
    }
    step(job);
}

fn open(m: &JsValue, job: u32) {
    STATE.with(|s| s.borrow_mut().take());
    let Ok((src, how)) = super::tools::file(m, job) else {
        return;
    };
    let opts = hexlens_core::Options {
        scan: how.scan,
        ..hexlens_core::view::viewer_options()
    };
    let size = src.len();
    let wanted = uint(m, "cells")
        .unwrap_or(1024)
        .clamp(1, u64::from(MAX_CELLS)) as u32;
    let mut map = MapScan::new(size, wanted);
    let cells = map.cells();
    // The coarse pass first: a few MiB read, where the structure may take
    // longer (a file scanned for containers is read whole).
    let coarse = map.coarse(&Direct(&src));
    cells_out(job, "coarse", 0, &coarse, (size, cells), cells == 0);
    let mut tree = hexlens_core::decode_as_or_with(how.format, &src, &opts).tree;
    let parts = g::parts(&src, &mut tree);
    let owners = g::owners(&tree, &parts, size, cells);
    let list = js_sys::Array::new();
    for &p in &parts {
        let o = Object::new();
        let s = tree.span(p);
        let set = |k: &str, v: JsValue| {
            let _ = Reflect::set(&o, &k.into(), &v);
        };
        set("path", tree.path(p).into());
        set("name", tree.name(p).to_string().into());
        set("kind", tree.kind(p).as_str().into());
        set("start", (s.start_byte().min(size) as f64).into());
        set("end", (s.end_byte().min(size) as f64).into());
        list.push(&o);
    }
    let own = js_sys::Int32Array::from(owners.as_slice());
    post(&msg(
        "glance-parts",
        &[
            ("job", job.into()),
            ("size", (size as f64).into()),
            ("cells", cells.into()),
            ("parts", list.into()),
            ("owners", own.into()),
        ],
    ));
    STATE.with(|s| {
        *s.borrow_mut() = Some(State {
            job,
            src,
            tree,
            map: (cells > 0).then_some(map),
            map_stopped: false,
            stats: None,
            table: None,
            asked: None,
            busy: false,
        })
    });
    step(job);
}

/// Posts cells `[from, from + cells.len())` of a pass over a map of `size`
/// bytes in `count` cells.
fn cells_out(job: u32, pass: &str, from: u32, cells: &[g::Cell], map: (u64, u32), done: bool) {
    let col = |f: fn(&g::Cell) -> f32| {
        let v: Vec<f32> = cells.iter().map(f).collect();
        js_sys::Float32Array::from(v.as_slice())
    };
    post(&msg(
        "glance-cells",
        &[
            ("job", job.into()),
            ("pass", pass.into()),
            ("size", (map.0 as f64).into()),
            ("cells", map.1.into()),
            ("from", from.into()),
            ("to", (from + cells.len() as u32).into()),
            ("entropy", col(|c| c.entropy).into()),
            ("zeros", col(|c| c.zeros).into()),
            ("text", col(|c| c.text).into()),
            ("done", done.into()),
        ],
    ));
}

/// Schedules the next step unless one is.
fn step(job: u32) {
    let go = STATE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(st) = s.as_mut().filter(|st| st.job == job) else {
            return false;
        };
        let go = !st.busy;
        st.busy = true;
        go
    });
    if go {
        later(job);
    }
}

fn later(job: u32) {
    super::soon(move || work(job));
}

/// One step of what is waiting: the table first, then the statistics, then
/// the map.
fn work(job: u32) {
    let more = STATE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(st) = s.as_mut().filter(|st| st.job == job) else {
            return false;
        };
        if st.asked.is_some() {
            table_step(st);
        } else if let Some(sc) = st.stats.as_mut() {
            let finished = sc.step(&Direct(&st.src), STATS_STEP);
            let counts: Vec<f64> = sc.counts.0.iter().map(|&n| n as f64).collect();
            post(&msg(
                "stats",
                &[
                    ("job", job.into()),
                    ("start", (sc.start as f64).into()),
                    ("end", (sc.end as f64).into()),
                    ("done", ((sc.at - sc.start) as f64).into()),
                    (
                        "counts",
                        js_sys::Float64Array::from(counts.as_slice()).into(),
                    ),
                    ("finished", finished.into()),
                ],
            ));
            if finished {
                st.stats = None;
            }
        } else if let Some(map) = st.map.as_mut().filter(|_| !st.map_stopped) {
            let (from, cells) = map.step(&Direct(&st.src), MAP_STEP);
            let done = map.done();
            if !cells.is_empty() || done {
                let shape = (st.src.len(), map.cells());
                cells_out(job, "full", from, &cells, shape, done);
            }
            if done {
                st.map = None;
            }
        }
        let more =
            st.asked.is_some() || st.stats.is_some() || (st.map.is_some() && !st.map_stopped);
        st.busy = more;
        more
    });
    if more {
        later(job);
    }
}

/// Fills the table asked for a step, and answers once it is filled.
fn table_step(st: &mut State) {
    let Some(ask) = st.asked.as_ref() else { return };
    let m = ask.msg.clone();
    let copy = ask.copy;
    let job = st.job;
    let text = |k: &str| get(&m, k).as_string().unwrap_or_default();
    let path = text("path");
    let all = get(&m, "all").is_truthy();
    let same = matches!(&st.table, Some(t) if t.path == path && t.all == all);
    if !same {
        st.table = None;
        let Some(id) = hexlens_core::stream::select(&st.src, &mut st.tree, &path) else {
            st.asked = None;
            return table_error(&m, copy, job, format!("there is no node at {path}"));
        };
        st.table = Some(Shown {
            table: Table::new(&st.tree, id, all),
            path,
            all,
            arranged: None,
        });
    }
    let Some(Shown {
        table, arranged, ..
    }) = st.table.as_mut()
    else {
        return;
    };
    if !table.filled() && !table.fill(&st.src, &mut st.tree, TABLE_STEP) {
        let (done, total) = table.progress();
        return post(&msg(
            "table-progress",
            &[
                ("job", job.into()),
                ("done", (done as f64).into()),
                ("total", (total as f64).into()),
            ],
        ));
    }
    st.asked = None;
    let col = Col::from_name(&text("sort")).unwrap_or(Col::Order);
    let desc = get(&m, "desc").is_truthy();
    let filter = text("filter");
    let how = (col, desc, filter.clone());
    if arranged.as_ref() != Some(&how) {
        table.arrange(&st.tree, col, desc, &filter);
        *arranged = Some(how);
    }
    if copy {
        let sep = if text("form") == "tsv" { '\t' } else { ',' };
        let out = match table.text(&st.tree, sep, MAX_COPY) {
            Some(t) => vec![("text", t.into()), ("rows", (table.len() as f64).into())],
            None => vec![(
                "error",
                format!("the table's text is over {} MiB", MAX_COPY >> 20).into(),
            )],
        };
        let mut fields = vec![("job", job.into())];
        fields.extend(out);
        return post(&msg("table-copied", &fields));
    }
    let first = uint(&m, "first").unwrap_or(0) as usize;
    let count = (uint(&m, "count").unwrap_or(100) as usize).min(MAX_WINDOW);
    let rows = js_sys::Array::new();
    for r in table.window(&st.tree, first, count, hexlens_core::clip::ROW) {
        let a = js_sys::Array::new();
        a.push(&r.path.into());
        a.push(&(r.start as f64).into());
        a.push(&(r.end as f64).into());
        a.push(&r.kind.into());
        a.push(&r.value.into());
        a.push(&r.meaning.into());
        rows.push(&a);
    }
    let mut fields = echo(&m, job);
    fields.push(("total", (table.len() as f64).into()));
    fields.push(("first", (first as f64).into()));
    fields.push(("rows", rows.into()));
    post(&msg("table", &fields));
}

/// The keys a table answer repeats from its question.
fn echo(m: &JsValue, job: u32) -> Vec<(&'static str, JsValue)> {
    let mut v = vec![("job", job.into())];
    for k in ["path", "all", "sort", "desc", "filter"] {
        v.push((k, get(m, k)));
    }
    v
}

fn table_error(m: &JsValue, copy: bool, job: u32, e: String) {
    let mut fields = echo(m, job);
    fields.push(("error", e.into()));
    post(&msg(if copy { "table-copied" } else { "table" }, &fields));
}
