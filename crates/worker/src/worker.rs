//! The web viewer's decode worker, a wasm module of its own (the page's module
//! holds the UI and no decoder), run in a Web Worker (`static/worker.js` loads
//! it), so decoding never blocks the page.
//!
//! It is built once per module of `hexlens_core::formats::modules()`, as the bin
//! `hexlens-worker-NAME` with the cargo feature `NAME` alone: each build's
//! registry holds only that module's decoders, so a visit downloads only the
//! decoders of the file it opens. The page picks the module from the file's
//! first bytes (`hexlens_core::formats::module_for`); every build runs this
//! same code.
//!
//! The worker reads the file through `FileReaderSync` over `Blob.slice`, a page
//! at a time into a bounded cache: a 4 GiB file is never in memory whole. It
//! keeps the one tree of the file (with what it needs to decode lazy nodes
//! later); the page keeps no copy and asks for what it shows: the rows of the
//! tree pane's window, the field boxes of the hex pane's, a node's details.
//! It decodes as a viewer does ([`hexlens_core::view`]): the top levels and
//! small groups at once, the rest when the page opens them.
//!
//! Every message is one envelope `{type, job, …}`, `job` being the load of a
//! file it is about ([`hexlens_core::protocol`]). Messages in: `{type: "open",
//! job, blob, rows, scan}` (`scan`: scan the file for containers whatever it
//! is, [`hexlens_core::Options::scan`]; the tools module's messages carry it
//! too); `{type: "ask", job, data}`, a question about the open file (`data`: a
//! [`Request`] in its binary form), answered from its [`Session`] (a search,
//! by the tools module, which is sent the file as `blob`: the decoder
//! modules hold no search code); `{type: "crash"}` (a test hook: panics on
//! purpose).
//!
//! Copy and export, made in the tools module (which is sent the file with
//! each message, `blob`, and keeps no session), so neither the page's module
//! nor a decoder module holds any of it: `{type: "copy", job, what, form,
//! start, end, path}` makes text for the clipboard (`what: "bytes"`: bytes
//! `[start, end)` in a `copy::Form`; `"value"`: the value of the node at
//! `path`, whole (a string as it is), found by decoding along the path;
//! `"json"`: the subtree at `path` in the JSON contract, as `hexlens dump
//! --json --select PATH` writes it), answered `{type: "copied", job,
//! text, what}` (`what`: what the text is, for the page to say); `{type:
//! "export", job, form, path}` writes the dump (`form`: `json` or
//! `text`) of the subtree at `path` (empty: the whole file) into a `Blob`, a
//! few MiB at a time (the browser keeps a blob's data outside this module's
//! memory), answered `{type: "exported", job, blob}`. Either fails as
//! `{type: "copied", job, error}`.
//!
//! Messages out: `{type: "progress", job, done, total}` (bytes read), `{type:
//! "walked", job, done, total}` (the tools module: where in the file a
//! structure search's walk is), `{type: "answer",
//! job, data}` (`data`: an [`Answer`] in its binary form), `{type: "failed",
//! job, message}`, `{type: "panic", message}`. Every message carries
//! `wasmBytes`, the worker's wasm memory.

#[cfg(target_arch = "wasm32")]
mod worker {
    use hexlens_core::pages::PageCache;
    use hexlens_core::protocol::{Answer, Request};
    use hexlens_core::session::Session;
    use hexlens_core::ByteSource;
    use js_sys::{Object, Reflect, Uint8Array};
    use std::cell::{Cell, RefCell};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// Pages the worker keeps (64 KiB each): 16 MiB.
    const WORKER_CACHE_PAGES: usize = 256;
    /// Pages read at once when the decoder misses (1 MiB): a decoder walking a
    /// file reads it in a few big reads, not one per page.
    const READ_AHEAD: u64 = 16;
    /// Least time between two progress messages, in ms.
    const PROGRESS_EVERY_MS: f64 = 100.0;

    /// The file, read synchronously a page at a time.
    struct BlobSource {
        blob: web_sys::Blob,
        reader: web_sys::FileReaderSync,
        cache: RefCell<PageCache>,
        job: u32,
        /// Furthest byte read so far, and when progress was last reported.
        furthest: Cell<u64>,
        last_report: Cell<f64>,
    }

    impl BlobSource {
        fn new(blob: web_sys::Blob, job: u32) -> Result<Self, String> {
            let reader = web_sys::FileReaderSync::new()
                .map_err(|_| "this browser cannot read files in a worker".to_string())?;
            let len = blob.size() as u64;
            Ok(BlobSource {
                blob,
                reader,
                cache: RefCell::new(
                    PageCache::new(len, WORKER_CACHE_PAGES).with_read_ahead(READ_AHEAD),
                ),
                job,
                furthest: Cell::new(0),
                last_report: Cell::new(now()),
            })
        }

        fn fetch(&self, start: u64, end: u64) -> Option<Vec<u8>> {
            self.read(start, end).map(|a| a.to_vec())
        }

        /// Reads `dst.len()` bytes at `start` straight into `dst`.
        fn fetch_into(&self, start: u64, dst: &mut [u8]) -> bool {
            match self.read(start, start + dst.len() as u64) {
                Some(a) if a.length() as usize == dst.len() => {
                    a.copy_to(dst);
                    true
                }
                _ => false,
            }
        }

        /// `[start, end)` of the file, read synchronously (and progress reported).
        fn read(&self, start: u64, end: u64) -> Option<Uint8Array> {
            let slice = self
                .blob
                .slice_with_f64_and_f64(start as f64, end as f64)
                .ok()?;
            let buf = self.reader.read_as_array_buffer(&slice).ok()?;
            let v = Uint8Array::new(&buf);
            if end > self.furthest.get() {
                self.furthest.set(end);
                let t = now();
                if t - self.last_report.get() >= PROGRESS_EVERY_MS {
                    self.last_report.set(t);
                    post(&msg(
                        "progress",
                        &[
                            ("job", self.job.into()),
                            ("done", (end as f64).into()),
                            ("total", (self.blob.size()).into()),
                        ],
                    ));
                }
            }
            Some(v)
        }
    }

    impl ByteSource for BlobSource {
        fn len(&self) -> u64 {
            self.cache.borrow().len()
        }

        fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
            self.cache.borrow_mut().read_with_into(
                offset,
                buf,
                |s, e| self.fetch(s, e),
                |s, dst| self.fetch_into(s, dst),
            )
        }
    }

    struct Job {
        id: u32,
        session: Session<BlobSource>,
        /// Reading lists ahead is stopped (the page's Stop).
        #[cfg_attr(not(feature = "ksy"), allow(dead_code))]
        stopped: bool,
        /// A step of reading ahead is scheduled.
        #[cfg_attr(not(feature = "ksy"), allow(dead_code))]
        reading: bool,
    }

    thread_local! {
        static JOB: RefCell<Option<Job>> = const { RefCell::new(None) };
    }

    fn now() -> f64 {
        js_sys::Date::now()
    }

    fn msg(kind: &str, fields: &[(&str, JsValue)]) -> Object {
        let o = Object::new();
        let _ = Reflect::set(&o, &"type".into(), &kind.into());
        let _ = Reflect::set(&o, &"wasmBytes".into(), &wasm_memory_bytes().into());
        for (k, v) in fields {
            let _ = Reflect::set(&o, &(*k).into(), v);
        }
        o
    }

    /// Bytes of this module's wasm memory (the page shows it in its benchmark figures).
    fn wasm_memory_bytes() -> f64 {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    }

    fn scope() -> web_sys::DedicatedWorkerGlobalScope {
        js_sys::global().unchecked_into()
    }

    fn post(m: &Object) {
        let _ = scope().post_message(m);
    }

    /// Posts `m` with the buffer of `bytes` transferred (not copied).
    fn post_with(m: &Object, key: &str, bytes: &[u8]) {
        let arr = Uint8Array::from(bytes);
        post_transferring(m, key, &arr, &arr.buffer());
    }

    /// Posts `m` with `array` as its field `key`, the array's `buffer`
    /// transferred (not copied).
    fn post_transferring(m: &Object, key: &str, array: &JsValue, buffer: &JsValue) {
        let _ = Reflect::set(m, &key.into(), array);
        let transfer = js_sys::Array::of1(buffer);
        let _ = scope().post_message_with_transfer(m, &transfer);
    }

    fn get(o: &JsValue, k: &str) -> JsValue {
        Reflect::get(o, &k.into()).unwrap_or(JsValue::UNDEFINED)
    }

    fn num(o: &JsValue, k: &str) -> Option<f64> {
        get(o, k).as_f64()
    }

    /// Installs a panic hook that tells the page what went wrong (the instance is
    /// unusable after a panic; the page starts a fresh worker for the next file).
    fn hook_panics() {
        thread_local!(static DONE: Cell<bool> = const { Cell::new(false) });
        if DONE.with(|d| d.replace(true)) {
            return;
        }
        std::panic::set_hook(Box::new(|info| {
            post(&msg("panic", &[("message", info.to_string().into())]));
        }));
    }

    /// Handles one message from the page. Called by `static/worker.js`.
    #[wasm_bindgen]
    pub fn worker_handle(m: JsValue) {
        hook_panics();
        let kind = get(&m, "type").as_string().unwrap_or_default();
        let job = num(&m, "job").unwrap_or(0.0) as u32;
        match kind.as_str() {
            "open" => open(&m, job),
            "crash" => panic!("decoder crash requested by the page (test hook)"),
            "ask" => ask(&m, job),
            #[cfg(feature = "ksy")]
            "inner" => inner(&m, job),
            #[cfg(feature = "ksy")]
            "stop-reading" | "read-on" => ahead::toggle(job, kind == "stop-reading"),
            #[cfg(feature = "tools")]
            "copy" | "export" | "diff" | "bytediff" => tools::handle(&kind, &m, job),
            #[cfg(feature = "tools")]
            "glance" | "stats" | "glance-stop" | "glance-on" | "table" | "table-copy" => {
                glance::handle(&kind, &m, job)
            }
            #[cfg(feature = "listing")]
            "listing" | "piece" | "locate" | "define" => listing::handle(&kind, &m, job),
            _ => {}
        }
    }

    fn fail(job: u32, message: String) {
        post(&msg(
            "failed",
            &[("job", job.into()), ("message", message.into())],
        ));
    }

    fn answer(job: u32, a: &Answer) {
        let out = msg("answer", &[("job", job.into())]);
        post_with(&out, "data", &a.encode());
    }

    fn open(m: &JsValue, job: u32) {
        let Ok(blob) = get(m, "blob").dyn_into::<web_sys::Blob>() else {
            return fail(job, "no file was given to the decoder".into());
        };
        let src = match BlobSource::new(blob, job) {
            Ok(s) => s,
            Err(e) => return fail(job, e),
        };
        // Free the previous file's tree and pages first.
        JOB.with(|j| j.borrow_mut().take());
        // What a viewer needs first: the top levels, and small groups up to a
        // budget; big groups and long lists wait until they are opened.
        #[cfg(feature = "ksy")]
        let format = match ksy_format(m).transpose() {
            Ok(f) => f,
            Err(e) => {
                let missing = js_sys::Array::new();
                for name in &e.missing {
                    missing.push(&name.into());
                }
                let message = format!("the format is refused: {e}");
                return post(&msg(
                    "failed",
                    &[
                        ("job", job.into()),
                        ("message", message.into()),
                        ("line", e.error.pos.line.into()),
                        ("missing", missing.into()),
                    ],
                ));
            }
        };
        #[cfg(not(feature = "ksy"))]
        let format = None;
        let mut session = Session::open_as(src, format, get(m, "scan").is_truthy());
        let rows = uint(m, "rows").unwrap_or(100).max(1);
        answer(job, &session.opened(rows));
        session.shown(0, rows);
        JOB.with(|j| {
            *j.borrow_mut() = Some(Job {
                id: job,
                session,
                stopped: false,
                reading: false,
            })
        });
        #[cfg(feature = "ksy")]
        ahead::start(job);
    }

    /// The `.ksy` format a message gives (`ksy: {name, text, imports:
    /// {name: text}, at, size}`: an `open`, or a question to the tools module
    /// about a file decoded with one), compiled and registered; `None` if
    /// it gives none.
    #[cfg(any(feature = "ksy", feature = "tools"))]
    fn ksy_format(
        m: &JsValue,
    ) -> Option<Result<&'static hexlens_core::formats::Format, hexlens_core::ksy::TextError>> {
        let k = get(m, "ksy");
        let text = get(&k, "text").as_string()?;
        let name = get(&k, "name")
            .as_string()
            .unwrap_or_else(|| "format.ksy".into());
        let mut imports = std::collections::BTreeMap::new();
        let given = get(&k, "imports");
        if let Some(obj) = given.dyn_ref::<Object>() {
            for key in Object::keys(obj).iter() {
                let Some(n) = key.as_string() else { continue };
                if let Some(t) = get(&given, &n).as_string() {
                    imports.insert(n, t);
                }
            }
        }
        let at = uint(&k, "at").unwrap_or(0);
        let size = uint(&k, "size");
        Some(hexlens_core::ksy::from_text(
            &name, &text, &imports, at, size,
        ))
    }

    /// A number field as a `u64` (absent or negative: `None`).
    fn uint(m: &JsValue, k: &str) -> Option<u64> {
        num(m, k).filter(|v| *v >= 0.0).map(|v| v as u64)
    }

    /// `{type: "ask", job, data}`: a [`Request`] in its binary form, answered
    /// from the open file's session (a structure search, by the tools module).
    /// Reading ahead the rest of a list read only as far as the viewer
    /// needed (a `.ksy` list of unsized elements, see
    /// `Session::read_on`): a step at a time between the page's questions,
    /// each followed by the rows the page last asked for, as they are now,
    /// and `{type: "reading", job, from, to, end, entries, done}` (where
    /// the rest starts, how far it has been read, where it ends, the
    /// entries read); `{type: "reading", job, stopped}` after a Stop or a
    /// Read on.
    #[cfg(feature = "ksy")]
    mod ahead {
        use super::*;

        /// Bytes read ahead a step (about a tenth of a second here).
        const STEP: u64 = 2 << 20;

        /// Reads ahead for load `job`, unless it is reading or stopped.
        pub fn start(job: u32) {
            let go = JOB.with(|j| {
                let mut j = j.borrow_mut();
                let Some(st) = j.as_mut().filter(|s| s.id == job) else {
                    return false;
                };
                let go = !st.reading && !st.stopped;
                st.reading |= go;
                go
            });
            if go {
                later(job);
            }
        }

        /// The page's Stop (`stop`), or Read on.
        pub fn toggle(job: u32, stop: bool) {
            let known = JOB.with(|j| {
                let mut j = j.borrow_mut();
                let st = j.as_mut().filter(|s| s.id == job)?;
                st.stopped = stop;
                Some(())
            });
            if known.is_some() {
                post(&msg(
                    "reading",
                    &[("job", job.into()), ("stopped", stop.into())],
                ));
                start(job);
            }
        }

        /// The next step, once the page's questions waiting now are answered.
        fn later(job: u32) {
            super::soon(move || step(job));
        }

        fn step(job: u32) {
            let r = JOB.with(|j| {
                let mut j = j.borrow_mut();
                let st = j.as_mut().filter(|s| s.id == job)?;
                let a = if st.stopped {
                    None
                } else {
                    st.session.read_on(STEP)
                };
                st.reading = a.is_some();
                Some((a?, st.session.rows_again()))
            });
            let Some((a, rows)) = r else { return };
            answer(job, &rows);
            post(&msg(
                "reading",
                &[
                    ("job", job.into()),
                    ("from", (a.from as f64).into()),
                    ("to", (a.to as f64).into()),
                    ("end", (a.end as f64).into()),
                    ("entries", (a.entries as f64).into()),
                    ("done", a.done.into()),
                ],
            ));
            later(job);
        }
    }

    /// Runs `f` once the messages waiting now are handled (a step of work
    /// done between the page's questions: `setTimeout` 0).
    #[cfg(any(feature = "ksy", feature = "tools"))]
    fn soon(f: impl FnOnce() + 'static) {
        let g = js_sys::global();
        let t = Reflect::get(&g, &"setTimeout".into())
            .ok()
            .and_then(|t| t.dyn_into::<js_sys::Function>().ok());
        if let Some(t) = t {
            let cb = Closure::once_into_js(f);
            let _ = t.call2(&g, &cb, &0.into());
        }
    }

    /// `{type: "inner", job, path, from, to}`: bytes `[from, to)` of those a
    /// `.ksy` field's `process` made, around the node at `path`, and which
    /// node owns each (static/ksy.js shows them). The answer is `{type:
    /// "inner", job, path, holder, at, end, len, node, mark: [start, end],
    /// from, bytes, segs: [start, end, owner…], owners: [id, path…]}` or
    /// `{type: "inner", job, path, error}`; the page hands it to static/inner.js.
    #[cfg(feature = "ksy")]
    fn inner(m: &JsValue, job: u32) {
        let path = get(m, "path").as_string().unwrap_or_default();
        let from = num(m, "from").unwrap_or(0.0) as u64;
        let to = num(m, "to").unwrap_or(0.0) as u64;
        let r = JOB.with(|j| {
            let mut j = j.borrow_mut();
            let state = j
                .as_mut()
                .filter(|s| s.id == job)
                .ok_or("that file is no longer open in the decoder")?;
            state.session.inner_view(&path, from, to)
        });
        let base = [("job", job.into()), ("path", JsValue::from(&path))];
        let v = match r {
            Ok(v) => v,
            Err(e) => {
                let mut f = base.to_vec();
                f.push(("error", e.into()));
                return post(&msg("inner", &f));
            }
        };
        let nums = |xs: &mut dyn Iterator<Item = f64>| -> JsValue {
            xs.map(JsValue::from).collect::<js_sys::Array>().into()
        };
        let segs = nums(
            &mut v
                .segments
                .iter()
                .flat_map(|s| [s.start as f64, s.end as f64, f64::from(s.owner)]),
        );
        let owners: js_sys::Array = v
            .owners
            .iter()
            .flat_map(|(id, p)| [JsValue::from(*id), JsValue::from(p)])
            .collect();
        let mut f = base.to_vec();
        f.extend([
            ("holder", JsValue::from(&v.holder_path)),
            ("at", (v.file.0 as f64).into()),
            ("end", (v.file.1 as f64).into()),
            ("len", (v.len as f64).into()),
            ("node", v.node.into()),
            (
                "mark",
                nums(&mut [v.mark.0 as f64, v.mark.1 as f64].into_iter()),
            ),
            ("from", (v.from as f64).into()),
            ("segs", segs),
            ("owners", owners.into()),
        ]);
        post_with(&msg("inner", &f), "bytes", &v.bytes);
    }

    fn ask(m: &JsValue, job: u32) {
        let data = get(m, "data")
            .dyn_into::<Uint8Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let r = match Request::decode(&data) {
            Ok(r) => r,
            Err(e) => return fail(job, e),
        };
        #[cfg(feature = "tools")]
        if let Request::Search {
            gen,
            query,
            max,
            from,
            to,
        } = &r
        {
            if query.mode == hexlens_core::search::Mode::Structure {
                return tools::structure(m, job, *gen, &query.text, *max);
            }
            return tools::bytes(m, job, *gen, query, *from, *to, *max);
        }
        JOB.with(|j| {
            let mut j = j.borrow_mut();
            let Some(state) = j.as_mut().filter(|s| s.id == job) else {
                return fail(job, "that file is no longer open in the decoder".into());
            };
            let a = state.session.answer(&r);
            answer(job, &a);
        });
        // Opening a list's rest may leave a rest again, to read ahead.
        #[cfg(feature = "ksy")]
        ahead::start(job);
    }

    /// The tools module (`hexlens-worker-tools`: every decoder, the streaming
    /// dump and the structure search) answers what needs a whole walk of the
    /// tree. It keeps no session: each message brings the file (`blob`), which
    /// it decodes afresh as the walk goes, so the format modules the page
    /// fetches first carry none of this (about 15 KB of each, gzip).
    #[cfg(feature = "tools")]
    mod tools {
        use super::*;
        use hexlens_core::copy;
        use hexlens_core::stream::{DumpError, DumpForm};

        /// Posts the reply to a copy or an export: `Ok((key, value, what))` sets
        /// `key` (`text` or `blob`) and `what`; `Err` sets `error`.
        fn reply(kind: &str, job: u32, r: Result<(&str, JsValue, String), String>) {
            let kind = if kind == "export" {
                "exported"
            } else {
                "copied"
            };
            let mut fields = vec![("job", job.into())];
            match r {
                Ok((key, v, what)) => {
                    fields.push((key, v));
                    fields.push(("what", what.into()));
                }
                Err(e) => fields.push(("error", e.into())),
            }
            post(&msg(kind, &fields));
        }

        /// Most text a copy makes (a bigger subtree is exported instead).
        const MAX_COPY_TEXT: usize = 64 << 20;
        /// An export hands its text to the browser's blob store this often.
        const BLOB_STEP: usize = 8 << 20;

        /// Text the dump writes, kept up to a limit.
        struct Capped(Vec<u8>);

        impl std::io::Write for Capped {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                if self.0.len() + b.len() > MAX_COPY_TEXT {
                    return Err(std::io::Error::other("too big to copy"));
                }
                self.0.extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        /// Text the dump writes, gathered into a `Blob` a few MiB at a time.
        struct BlobOut {
            buf: Vec<u8>,
            blob: Option<web_sys::Blob>,
        }

        impl BlobOut {
            fn seal(&mut self) -> Result<(), JsValue> {
                let parts = js_sys::Array::new();
                if let Some(b) = self.blob.take() {
                    parts.push(&b);
                }
                parts.push(&Uint8Array::from(&self.buf[..]));
                self.buf.clear();
                self.blob = Some(web_sys::Blob::new_with_u8_array_sequence(&parts)?);
                Ok(())
            }
        }

        impl std::io::Write for BlobOut {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.buf.extend_from_slice(b);
                if self.buf.len() >= BLOB_STEP {
                    self.seal().map_err(|_| {
                        std::io::Error::other("the browser refused the export's data")
                    })?;
                }
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        /// The dump of the subtree at `path` (the whole file: `None`) of
        /// the tree the session has.
        fn dump(
            src: &BlobSource,
            how: How,
            path: Option<&str>,
            form: DumpForm,
            out: &mut dyn std::io::Write,
        ) -> Result<bool, DumpError> {
            let style = hexlens_core::output::TextStyle::default();
            hexlens_core::stream::dump_styled_as(
                src, how.format, path, form, None, how.scan, &style, out,
            )
        }

        fn dump_error(e: DumpError) -> String {
            match e {
                DumpError::NoSuchPath(p) => format!("there is no node at {p}"),
                DumpError::Io(e) => e.to_string(),
            }
        }

        /// Most differences sent to the page.
        const MAX_DIFFERENCES: usize = 100_000;

        /// A reply of kind `kind` to job `job` with `fields`.
        fn replier(kind: &'static str, job: u32) -> impl Fn(&[(&str, JsValue)]) {
            move |fields| {
                let mut f = vec![("job", JsValue::from(job))];
                f.extend_from_slice(fields);
                post(&msg(kind, &f));
            }
        }

        /// The second file of a comparison (`other`).
        fn other_file(m: &JsValue, job: u32) -> Result<BlobSource, String> {
            let other = get(m, "other")
                .dyn_into::<web_sys::Blob>()
                .map_err(|_| "no second file was given".to_string())?;
            BlobSource::new(other, job)
        }

        /// `{type: "diff", job, blob, other}`: the open file (A) compared
        /// with `other` (B) by their structure, answered with
        /// [`Answer::Compared`] (the merged tree's rows, or why not).
        fn compare(
            m: &JsValue,
            job: u32,
            a: &BlobSource,
            format: Option<&'static hexlens_core::formats::Format>,
        ) {
            use hexlens_core::protocol::{MergedRow, Version};
            let answered = match other_file(m, job) {
                Ok(b) => {
                    let d = hexlens_core::diff::diff_as(a, &b, format, MAX_DIFFERENCES);
                    Answer::Compared {
                        version: Version::default(),
                        summary: d.summary("A", "B"),
                        rows: d.rows.iter().map(MergedRow::of).collect(),
                        error: None,
                    }
                }
                Err(e) => Answer::Compared {
                    version: Version::default(),
                    summary: String::new(),
                    rows: Vec::new(),
                    error: Some(e),
                },
            };
            answer(job, &answered);
        }

        /// `{type: "bytediff", job, blob, other, from, delta, back}`: the next
        /// run of differing bytes after A's offset `from` (or with `back`,
        /// the last before it), B's bytes standing `delta` further on,
        /// answered `{type: "bytediff", job, start, end}` (none: no
        /// `start`), or `{error}`.
        fn byte_difference(m: &JsValue, job: u32, a: &BlobSource) {
            let reply = replier("bytediff", job);
            let b = match other_file(m, job) {
                Ok(b) => b,
                Err(e) => return reply(&[("error", e.into())]),
            };
            let from = uint(m, "from").unwrap_or(0);
            let delta = get(m, "delta").as_f64().unwrap_or(0.0) as i64;
            let back = get(m, "back").is_truthy();
            match hexlens_core::diff::next_byte_difference(a, &b, from, delta, back) {
                Some((s, e)) => reply(&[("start", (s as f64).into()), ("end", (e as f64).into())]),
                None => reply(&[]),
            }
        }

        /// How the session decoded the file: scanned for containers when the
        /// page asked for that, or with the `.ksy` format it was given.
        #[derive(Clone, Copy)]
        pub struct How {
            pub scan: bool,
            pub format: Option<&'static hexlens_core::formats::Format>,
        }

        /// The file of message `m` (its `blob`) and how the session decoded it.
        pub fn file(m: &JsValue, job: u32) -> Result<(BlobSource, How), ()> {
            let Ok(blob) = get(m, "blob").dyn_into::<web_sys::Blob>() else {
                fail(job, "no file was given to the tools".into());
                return Err(());
            };
            let format = match ksy_format(m).transpose() {
                Ok(f) => f,
                Err(e) => {
                    fail(job, e.to_string());
                    return Err(());
                }
            };
            let how = How {
                scan: get(m, "scan").is_truthy(),
                format,
            };
            match BlobSource::new(blob, job) {
                Ok(s) => Ok((s, how)),
                Err(e) => {
                    fail(job, e);
                    Err(())
                }
            }
        }

        /// One step of a byte search (an `ask` whose request is a search of
        /// the hex, text or number modes), over the file as the message's
        /// `blob`.
        pub fn bytes(
            m: &JsValue,
            job: u32,
            gen: u32,
            query: &hexlens_core::search::Query,
            from: u64,
            to: u64,
            max: u32,
        ) {
            let Ok((src, _)) = file(m, job) else {
                return;
            };
            let version = hexlens_core::protocol::Version::default();
            let a = hexlens_core::session::byte_search(&src, version, gen, query, from, to, max);
            answer(job, &a);
        }

        /// A copy for the clipboard from the message's file: bytes in a
        /// [`copy::Form`], or the value of the node at `path`, found by
        /// decoding the file afresh along the path.
        fn copy_out(m: &JsValue, src: &BlobSource, how: How) -> CopyResult {
            let text = |k: &str| get(m, k).as_string().unwrap_or_default();
            if text("what") == "value" {
                let p = text("path");
                let opts = hexlens_core::Options {
                    scan: how.scan,
                    ..hexlens_core::stream::streaming_options()
                };
                let mut d = hexlens_core::decode_as_or_with(how.format, src, &opts);
                let id = hexlens_core::stream::select(src, &mut d.tree, &p)
                    .ok_or_else(|| format!("there is no node at {p}"))?;
                let v = d.tree.value(id).ok_or("that node has no value")?;
                let t = match v {
                    hexlens_core::Value::Str(s) => s,
                    other => other.to_string(),
                };
                return Ok(("text", t.into(), "the value".into()));
            }
            let f = copy::Form::from_name(&text("form")).ok_or("no such copy form")?;
            let start = uint(m, "start").unwrap_or(0).min(src.len());
            let end = uint(m, "end").unwrap_or(0).clamp(start, src.len());
            if end - start > copy::MAX_BYTES {
                return Err(format!(
                    "{} bytes selected: at most {} MiB can be copied",
                    end - start,
                    copy::MAX_BYTES >> 20
                ));
            }
            let mut bytes = vec![0u8; (end - start) as usize];
            let got = src.read_at(start, &mut bytes);
            bytes.truncate(got);
            let said = format!("{} bytes as {}", bytes.len(), f.label());
            Ok(("text", copy::text(f, &bytes).into(), said))
        }

        /// What a copy or an export posts back (see `reply`).
        type CopyResult = Result<(&'static str, JsValue, String), String>;

        /// A structure search (an `ask` whose request is one), over the file
        /// as the message's `blob`.
        pub fn structure(m: &JsValue, job: u32, gen: u32, text: &str, max: u32) {
            let Ok((src, how)) = file(m, job) else {
                return;
            };
            // Where the walk is, every so often (as a decode's progress).
            let total = src.len() as f64;
            let mut last = now();
            let mut progress = |at: u64| {
                let t = now();
                if t - last >= PROGRESS_EVERY_MS {
                    last = t;
                    post(&msg(
                        "walked",
                        &[
                            ("job", job.into()),
                            ("done", (at as f64).into()),
                            ("total", total.into()),
                        ],
                    ));
                }
            };
            let a = hexlens_core::session::structure_search_as(
                &src,
                how.format,
                gen,
                text,
                max,
                how.scan,
                &mut progress,
            );
            answer(job, &a);
        }

        /// `{type: "export", …}` and `{type: "copy", what: "json", …}`,
        /// `{type: "diff", …}` and `{type: "bytediff", …}` (see the module's
        /// notes), each with the file as `blob`.
        pub fn handle(kind: &str, m: &JsValue, job: u32) {
            let Ok((src, how)) = file(m, job) else {
                return;
            };
            let text = |k: &str| get(m, k).as_string().unwrap_or_default();
            if kind == "diff" {
                return compare(m, job, &src, how.format);
            }
            if kind == "bytediff" {
                return byte_difference(m, job, &src);
            }
            if kind == "copy" && text("what") != "json" {
                return reply(kind, job, copy_out(m, &src, how));
            }
            let path = text("path");
            let path = (!path.is_empty()).then_some(path.as_str());
            let r = if kind == "export" {
                let form = if text("form") == "json" {
                    DumpForm::Json
                } else {
                    DumpForm::Text
                };
                let mut out = BlobOut {
                    buf: Vec::with_capacity(BLOB_STEP + (1 << 20)),
                    blob: None,
                };
                dump(&src, how, path, form, &mut out)
                    .map_err(dump_error)
                    .and_then(|_| {
                        out.seal()
                            .map_err(|_| "the browser refused the export's data".into())
                    })
                    .map(|_| {
                        (
                            "blob",
                            out.blob.take().map_or(JsValue::NULL, Into::into),
                            String::new(),
                        )
                    })
            } else {
                let mut out = Capped(Vec::new());
                dump(&src, how, path, DumpForm::Json, &mut out)
                    .map_err(|e| match e {
                        DumpError::Io(_) => format!(
                            "the subtree's JSON is over {} MiB: download it instead",
                            MAX_COPY_TEXT >> 20
                        ),
                        e => dump_error(e),
                    })
                    .map(|_| {
                        let t = String::from_utf8_lossy(&out.0).into_owned();
                        ("text", t.into(), "the subtree as JSON".into())
                    })
            };
            reply(kind, job, r);
        }
    }

    #[cfg(feature = "tools")]
    mod glance;

    /// The listing module (`hexlens-worker-listing`: every decoder and the
    /// program text, `hexlens_core::dis`), fetched when the listing pane is
    /// first opened. It keeps one program's text ([`dis::ProgramText`]: the
    /// module's records read, its bodies left until a piece needs them), and
    /// makes a piece of it (the header, named types, globals, a function,
    /// metadata nodes) when the pane asks for it.
    ///
    /// `{type: "listing", job, blob, scan, at, program, name, dialect}`:
    /// opens the program of the file `blob` holding byte `at` (or the
    /// `program`th; or its first), answered
    /// `{type: "listed", job, programs: [{path, kind}], current, pieces,
    /// estimates}` (`estimates`: about how many lines each piece holds) or `{type:
    /// "listed", job, error}`. `{type: "piece", job, k}`: piece `k`'s lines,
    /// answered `{type: "piece", job, k, lines, text, bits}` (`text`: the
    /// lines joined by line breaks; `bits`: a `Float64Array`, for each line
    /// the number of bit ranges it was made from, then each range's start
    /// and end). `{type: "locate", job, bit}`: the piece bit `bit`'s line is
    /// most likely in, answered `{type: "located", job, bit, k}`. `{type:
    /// "define", job, name}`: the piece that defines `name` (`!12`, `#3`,
    /// `@g`), answered `{type: "defined", job, name, k}` (`k` -1: none).
    #[cfg(feature = "listing")]
    mod listing {
        use super::*;
        use hexlens_core::dis::{self, ProgramText};

        thread_local! {
            static TEXT: RefCell<Option<(u32, ProgramText)>> = const { RefCell::new(None) };
        }

        pub fn handle(kind: &str, m: &JsValue, job: u32) {
            match kind {
                "listing" => open(m, job),
                "piece" => piece(m, job),
                "define" => define(m, job),
                _ => locate(m, job),
            }
        }

        fn open(m: &JsValue, job: u32) {
            let reply = |fields: &[(&str, JsValue)]| {
                let mut f = vec![("job", JsValue::from(job))];
                f.extend_from_slice(fields);
                post(&msg("listed", &f));
            };
            TEXT.with(|t| t.borrow_mut().take());
            let Ok(blob) = get(m, "blob").dyn_into::<web_sys::Blob>() else {
                return reply(&[("error", "no file was given to the listing".into())]);
            };
            let src = match BlobSource::new(blob, job) {
                Ok(s) => s,
                Err(e) => return reply(&[("error", e.into())]),
            };
            let name = get(m, "name").as_string().unwrap_or_default();
            let dialect = uint(m, "dialect").map(|d| d as u32);
            let pick = match uint(m, "program") {
                Some(k) => dis::Pick::Index(k as usize),
                None => dis::Pick::At(uint(m, "at").unwrap_or(0)),
            };
            match dis::open_text(&src, get(m, "scan").is_truthy(), pick, &name, dialect) {
                Ok((all, current, text)) => {
                    let programs = js_sys::Array::new();
                    for p in &all {
                        let o = Object::new();
                        let _ = Reflect::set(&o, &"path".into(), &p.path.as_str().into());
                        let _ = Reflect::set(&o, &"kind".into(), &p.kind.as_str().into());
                        programs.push(&o);
                    }
                    let estimates = js_sys::Array::new();
                    for k in 0..text.pieces() {
                        estimates.push(&(text.estimate(k) as f64).into());
                    }
                    reply(&[
                        ("programs", programs.into()),
                        ("current", (current as f64).into()),
                        ("pieces", (text.pieces() as f64).into()),
                        ("estimates", estimates.into()),
                    ]);
                    TEXT.with(|t| *t.borrow_mut() = Some((job, text)));
                }
                Err(e) => reply(&[("error", e.into())]),
            }
        }

        /// Runs `f` on the open text of job `job`, or says there is none.
        fn with_text(job: u32, f: impl FnOnce(&mut ProgramText)) {
            TEXT.with(|t| match t.borrow_mut().as_mut() {
                Some((j, text)) if *j == job => f(text),
                _ => fail(job, "that program's text is no longer open".into()),
            });
        }

        fn piece(m: &JsValue, job: u32) {
            let k = uint(m, "k").unwrap_or(0) as usize;
            with_text(job, |text| {
                let lines = text.piece(k);
                let mut joined = String::new();
                let mut spans: Vec<f64> = Vec::with_capacity(lines.len() * 3);
                for (i, l) in lines.iter().enumerate() {
                    if i > 0 {
                        joined.push('\n');
                    }
                    joined.push_str(&l.text);
                    spans.push(l.bits.len() as f64);
                    for &(a, b) in &l.bits {
                        spans.push(a as f64);
                        spans.push(b as f64);
                    }
                }
                let out = msg(
                    "piece",
                    &[
                        ("job", job.into()),
                        ("k", (k as f64).into()),
                        ("lines", (lines.len() as f64).into()),
                        ("text", joined.into()),
                    ],
                );
                let arr = js_sys::Float64Array::from(&spans[..]);
                post_transferring(&out, "bits", &arr, &arr.buffer());
            });
        }

        fn define(m: &JsValue, job: u32) {
            let name = get(m, "name").as_string().unwrap_or_default();
            with_text(job, |text| {
                let k = text.definition(&name).map_or(-1.0, |k| k as f64);
                post(&msg(
                    "defined",
                    &[
                        ("job", job.into()),
                        ("name", name.as_str().into()),
                        ("k", k.into()),
                    ],
                ));
            });
        }

        fn locate(m: &JsValue, job: u32) {
            let bit = uint(m, "bit").unwrap_or(0);
            with_text(job, |text| {
                let k = text.piece_at(bit);
                post(&msg(
                    "located",
                    &[
                        ("job", job.into()),
                        ("bit", (bit as f64).into()),
                        ("k", (k as f64).into()),
                    ],
                ));
            });
        }
    }
}

/// The worker is driven by its messages (`static/worker.js` hands each to
/// `worker_handle`): nothing to do at start.
#[cfg(target_arch = "wasm32")]
pub fn main() {}

/// The worker's allocator: smaller in the download than the standard
/// library's, and faster on a decoder's many small allocations
/// (bench/RESULTS.md, "App transfer size").
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(not(target_arch = "wasm32"))]
pub fn main() {
    println!(
        "this is the web viewer's decode worker: run scripts/run.sh and open the printed URL."
    );
}

#[cfg(test)]
mod tests {
    use hexlens_core::formats::{catalog, modules};

    /// The listing pane's module (`static/listing.js` starts it).
    const LISTING: &str = "listing";

    fn manifest_features(name: &str) -> Vec<String> {
        let toml = include_str!("../Cargo.toml");
        let line = toml
            .lines()
            .find(|l| l.starts_with(&format!("{name} = [")))
            .unwrap_or_else(|| panic!("no feature {name} in crates/worker/Cargo.toml"));
        line.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    /// The features, bins and the page's build links follow `modules()`: a format
    /// moved between modules, or a module added, fails here until all agree.
    #[test]
    fn every_module_has_its_feature_bin_and_build_link() {
        let toml = include_str!("../Cargo.toml");
        let html = include_str!("../../../www/index.html");
        let modules = modules();
        let mut features: Vec<String> = modules.iter().map(|m| m.name.to_string()).collect();
        // The listing pane's module and the `.ksy` formats' module, which
        // are no built-in format's.
        features.push(LISTING.to_string());
        features.push("ksy".to_string());
        assert_eq!(manifest_features("default"), features);
        for m in &modules {
            // The core's feature of a format is the format's name; the
            // catalog order is the registry's.
            let mut want: Vec<String> = catalog()
                .iter()
                .filter(|f| m.formats.contains(&f.name))
                .map(|f| format!("hexlens-core/{}", f.name))
                .collect();
            // Searches are answered by the tools module alone: no decoder
            // module carries the search code.
            // and answer for files decoded with a `.ksy`, so it holds the
            // interpreter too.
            if m.name == "tools" {
                want.push("hexlens-core/byte-search".into());
                want.push("hexlens-core/ksy".into());
            }
            let mut got = manifest_features(m.name);
            got.sort();
            want.sort();
            assert_eq!(got, want, "module {}", m.name);
            let bin = format!("name = \"hexlens-worker-{}\"", m.name);
            assert!(toml.contains(&bin), "no bin for module {}", m.name);
            let link = format!(
                "data-bin=\"hexlens-worker-{}\" data-type=\"worker\" data-cargo-no-default-features data-cargo-features=\"{}\"",
                m.name, m.name
            );
            assert!(
                html.contains(&link),
                "www/index.html does not build module {}",
                m.name
            );
        }
        // The listing module holds every decoder (and the program text).
        assert_eq!(manifest_features(LISTING), ["hexlens-core/embedded"]);
        assert!(toml.contains(&format!("name = \"hexlens-worker-{LISTING}\"")));
        assert!(html.contains(&format!(
            "data-bin=\"hexlens-worker-{LISTING}\" data-type=\"worker\" data-cargo-no-default-features data-cargo-features=\"{LISTING}\""
        )));
        // The `.ksy` module holds the interpreter alone.
        assert_eq!(manifest_features("ksy"), ["hexlens-core/ksy"]);
        assert!(toml.contains("name = \"hexlens-worker-ksy\""));
        assert!(html.contains(
            "data-bin=\"hexlens-worker-ksy\" data-type=\"worker\" data-cargo-no-default-features data-cargo-features=\"ksy\""
        ));
        let names: Vec<String> = features.iter().map(|m| format!("\"{m}\"")).collect();
        let known = format!("const known = [{}];", names.join(", "));
        assert!(
            include_str!("../../../static/worker.js").contains(&known),
            "static/worker.js should list the modules: {known}"
        );
    }
}
