//! `hexlens`: dump a file's structure tree as indented text or JSON.
//!
//! ```text
//! hexlens dump FILE [--json | --yaml] [--lazy-threshold BYTES]
//!                                print the decoded tree
//! hexlens formats                list the decoders
//! ```
//! Exit status: 0 decoded cleanly, 1 decoded with errors (the tree is still
//! printed), 2 usage or I/O error (message on stderr).

use std::cell::RefCell;
use std::io::{Read, Seek, SeekFrom, Write};
use std::process::ExitCode;

/// A file read on demand, so a file of several GiB is never held in memory.
/// Small reads are served from a cached 64 KiB run of the file.
struct FileSource {
    file: RefCell<std::fs::File>,
    len: u64,
    /// Offset and bytes of the cached run.
    cache: RefCell<(u64, Vec<u8>)>,
    /// The first read error; the dump is refused if one happened.
    error: RefCell<Option<std::io::Error>>,
}

impl FileSource {
    fn open(path: &str) -> std::io::Result<Self> {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        Ok(FileSource {
            file: RefCell::new(file),
            len,
            cache: RefCell::new((0, Vec::new())),
            error: RefCell::new(None),
        })
    }
}

impl hexlens_core::ByteSource for FileSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        const RUN: usize = 1 << 16;
        // At or past the end there is nothing to read (and seeking to an offset
        // such as 2^64 - 1 would fail): no bytes, no error.
        let n = hexlens_core::source::clip(self.len, offset, buf.len());
        if n == 0 {
            return 0;
        }
        let buf = &mut buf[..n];
        if buf.len() > RUN {
            return self.read_direct(offset, buf);
        }
        let mut cache = self.cache.borrow_mut();
        let (at, run) = &mut *cache;
        let inside =
            offset >= *at && offset.saturating_add(buf.len() as u64) <= *at + run.len() as u64;
        if !inside {
            run.resize(RUN, 0);
            let got = self.read_direct(offset, run);
            run.truncate(got);
            *at = offset;
        }
        let from = (offset - *at) as usize;
        let n = buf.len().min(run.len().saturating_sub(from));
        buf[..n].copy_from_slice(&run[from..from + n]);
        n
    }
}

impl FileSource {
    fn read_direct(&self, offset: u64, buf: &mut [u8]) -> usize {
        let mut f = self.file.borrow_mut();
        let mut got = 0;
        let r = f.seek(SeekFrom::Start(offset)).and_then(|_| {
            while got < buf.len() {
                match f.read(&mut buf[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            self.error.borrow_mut().get_or_insert(e);
        }
        got
    }
}

const USAGE: &str = "usage:
  hexlens dump FILE [--json] [--max-depth N] [--select PATH] [--scan]
                               print FILE's structure tree (text, or the JSON contract)
      --json                   print the JSON contract instead of indented text
      --yaml                   print a DirectX Container as the YAML LLVM 19's obj2yaml
                               writes (yaml2obj builds the container back from it);
                               takes no other option; exit 1 if the container has
                               errors (a damaged part's mapping is left out and named
                               on stderr; no YAML if the header is unreadable), 2 for
                               a file that is not a DirectX Container
      --scan                   scan FILE for containers of every format (DXBC, bitcode,
                               cDAC blobs, .dyno, LLVM 1.x, PDB) and decode each in
                               place, whatever FILE is (a file no decoder recognises
                               is scanned anyway)
      --max-depth N            print nodes down to N levels below the root (or below
                               PATH); a node whose children are left out says how many
                               ([N children not shown]; \"hidden_children\": N in JSON)
      --select PATH            print only the subtree at PATH, a path as the JSON
                               contract writes it (Parts/[3]/PSVInfo, Blocks/[1]/Body/[7])
      --lazy-threshold BYTES   leave parts whose body holds BYTES or more (LLVM bitcode
                               blocks below the top level) undecoded: they are shown as
                               one node marked [not decoded yet] (\"lazy\": true in JSON)
  hexlens find FILE QUERY [--json] [--max N] [--scan]
                               print the nodes of FILE's structure QUERY finds: text
                               in a name, else in a value or its display (ASCII case
                               ignored), or, when QUERY holds a '/', a path pattern
                               (Parts/*/PSVInfo: '*' is any one segment)
      --json                   print the hits as a JSON array of {path, start, end, match}
      --max N                  stop after N hits (default 1000)
      --scan                   search the containers a scan finds (as dump --scan)
  hexlens diff A B [--json] [--max N]
                               compare two files by their structure: each node of A
                               matched with B's by what it is (a part by its FourCC, a
                               symbol by its name, a block by its kind and function),
                               so an insertion is one addition; prints changed fields
                               (~ PATH: A -> B), values that changed only because what
                               they point at moved (>), nodes only in A (-) or only in
                               B (+), and a summary
      --json                   print {a, b, equal, changed_bytes, truncated,
                               differences: [{path, path_b, change, shown, a, b,
                               a_span, b_span}]}
      --max N                  list at most N differences (default 100000)
  hexlens formats              list the formats hexlens decodes
  hexlens --help               show this help

The tree is written as it is decoded: parts of the file are decoded when the dump
reaches them and dropped after, so memory does not grow with the file.

exit status: dump: 0 decoded cleanly, 1 decoded with errors (tree still printed);
find: 0 something found, 1 nothing found; diff: 0 the structures are equal, 1 they
differ; all: 2 usage or I/O error";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("hexlens: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(cmd) = args.first() else {
        return Err(format!("no command given\n{USAGE}"));
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "formats" => {
            if args.len() > 1 {
                return Err(format!("'formats' takes no arguments\n{USAGE}"));
            }
            for f in hexlens_core::formats() {
                println!(
                    "{:<14} {}  (.{})",
                    f.name,
                    f.description,
                    f.extensions.join(", .")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        "dump" => dump(&args[1..]),
        "find" => find(&args[1..]),
        "diff" => diff(&args[1..]),
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    }
}

/// The number after option `flag` (a number of `what`).
fn number(flag: &str, what: &str, v: Option<&String>) -> Result<u64, String> {
    let Some(v) = v else {
        return Err(format!("'{flag}' needs a number of {what}\n{USAGE}"));
    };
    v.parse::<u64>()
        .map_err(|_| format!("'{flag}' needs a number of {what}, not '{v}'\n{USAGE}"))
}

fn diff(args: &[String]) -> Result<ExitCode, String> {
    use hexlens_core::diff::Change;
    let mut json = false;
    let mut max = hexlens_core::diff::MAX_DIFFERENCES as u64;
    let mut files: Vec<&String> = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json = true,
            "--max" => max = number(a, "differences", rest.next())?.max(1),
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'\n{USAGE}")),
            _ => files.push(a),
        }
    }
    let [fa, fb] = files[..] else {
        return Err(format!("'diff' needs two FILEs\n{USAGE}"));
    };
    let a = FileSource::open(fa).map_err(|e| format!("cannot read '{fa}': {e}"))?;
    let b = FileSource::open(fb).map_err(|e| format!("cannot read '{fb}': {e}"))?;
    let d = hexlens_core::diff::diff(&a, &b, usize::try_from(max).unwrap_or(usize::MAX));
    for (src, f) in [(&a, fa), (&b, fb)] {
        if let Some(e) = src.error.borrow().as_ref() {
            return Err(format!("cannot read '{f}': {e}"));
        }
    }
    let mut out: Vec<u8> = Vec::new();
    let span = |out: &mut Vec<u8>, s: Option<(u64, u64)>| match s {
        Some((x, y)) => {
            let _ = write!(out, "[{x},{y}]");
        }
        None => out.extend_from_slice(b"null"),
    };
    if json {
        let side = |out: &mut Vec<u8>, name: &str, format: &str, size: u64| {
            out.extend_from_slice(b"{\"file\":");
            hexlens_core::output::json_str(out, name);
            out.extend_from_slice(b",\"format\":");
            hexlens_core::output::json_str(out, format);
            let _ = write!(out, ",\"size\":{size}}}");
        };
        out.extend_from_slice(b"{\"a\":");
        side(&mut out, fa, d.formats.0, d.sizes.0);
        out.extend_from_slice(b",\"b\":");
        side(&mut out, fb, d.formats.1, d.sizes.1);
        let _ = write!(
            out,
            ",\"equal\":{},\"changed_bytes\":{},\"truncated\":{},\"differences\":[",
            d.is_equal(),
            d.changed_bytes,
            d.truncated
        );
        for (i, x) in d.differences.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"path\":");
            hexlens_core::output::json_str(&mut out, &x.path);
            if let Some(pb) = &x.path_b {
                out.extend_from_slice(b",\"path_b\":");
                hexlens_core::output::json_str(&mut out, pb);
            }
            let (kind, va, vb) = match &x.change {
                Change::Changed { a, b } => ("changed", Some(a), Some(b)),
                Change::Moved { a, b } => ("moved", Some(a), Some(b)),
                Change::Removed => ("removed", None, None),
                Change::Added => ("added", None, None),
            };
            let _ = write!(out, ",\"change\":\"{kind}\"");
            if !x.shown.is_empty() {
                out.extend_from_slice(b",\"shown\":");
                hexlens_core::output::json_str(&mut out, &x.shown);
            }
            for (k, v) in [("a", va), ("b", vb)] {
                if let Some(v) = v {
                    let _ = write!(out, ",\"{k}\":");
                    hexlens_core::output::json_str(&mut out, v);
                }
            }
            out.extend_from_slice(b",\"a_span\":");
            span(&mut out, x.a);
            out.extend_from_slice(b",\"b_span\":");
            span(&mut out, x.b);
            out.push(b'}');
        }
        out.extend_from_slice(b"]}\n");
    } else {
        for x in &d.differences {
            let _ = writeln!(out, "{}", x.line());
        }
        let _ = writeln!(out, "{}", d.summary(fa, fb));
    }
    stdout()
        .write_all(&out)
        .map_err(|e| format!("cannot write the differences: {e}"))?;
    Ok(if d.is_equal() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn find(args: &[String]) -> Result<ExitCode, String> {
    let mut json = false;
    let mut max = 1000u64;
    let mut scan = false;
    let mut words: Vec<&String> = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json = true,
            "--max" => max = number(a, "hits", rest.next())?.max(1),
            "--scan" => scan = true,
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'\n{USAGE}")),
            _ => words.push(a),
        }
    }
    let [file, query] = words[..] else {
        return Err(format!("'find' needs a FILE and a QUERY\n{USAGE}"));
    };
    let src = FileSource::open(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let hits = hexlens_core::search::find_nodes(&src, query, max as usize, scan, &mut |_| {});
    if let Some(e) = src.error.borrow().as_ref() {
        return Err(format!("cannot read '{file}': {e}"));
    }
    let mut out: Vec<u8> = Vec::new();
    if json {
        out.push(b'[');
        for (i, h) in hits.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"path\":");
            hexlens_core::output::json_str(&mut out, &h.path);
            let _ = write!(
                out,
                ",\"start\":{},\"end\":{},\"match\":\"{}\"}}",
                h.start, h.end, h.what
            );
        }
        out.extend_from_slice(b"]\n");
    } else {
        for h in &hits {
            let _ = writeln!(
                out,
                "{:06X}-{:06X}  {}  ({})",
                h.start, h.end, h.path, h.what
            );
        }
    }
    stdout()
        .write_all(&out)
        .map_err(|e| format!("cannot write the hits: {e}"))?;
    Ok(if hits.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn dump(args: &[String]) -> Result<ExitCode, String> {
    let mut json = false;
    let mut file = None;
    let mut lazy_threshold = None;
    let mut limits = hexlens_core::stream::Limits::default();
    let mut select: Option<String> = None;
    let mut scan = false;
    let mut yaml = false;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--json" => json = true,
            "--yaml" => yaml = true,
            "--scan" => scan = true,
            "--lazy-threshold" => lazy_threshold = Some(number(a, "bytes", rest.next())?),
            "--max-depth" => {
                let n = number(a, "levels", rest.next())?;
                limits.max_depth = Some(usize::try_from(n).unwrap_or(usize::MAX));
            }
            "--select" => {
                let Some(p) = rest.next() else {
                    return Err(format!("'--select' needs a PATH\n{USAGE}"));
                };
                select = Some(p.clone());
            }
            s if s.starts_with('-') && s != "-" => {
                return Err(format!("unknown option '{s}'\n{USAGE}"))
            }
            s => {
                if file.replace(s.to_string()).is_some() {
                    return Err(format!("'dump' takes one FILE\n{USAGE}"));
                }
            }
        }
    }
    let Some(file) = file else {
        return Err(format!("'dump' needs a FILE\n{USAGE}"));
    };
    let tree_options =
        json || scan || select.is_some() || lazy_threshold.is_some() || limits.max_depth.is_some();
    if yaml && tree_options {
        return Err(format!(
            "'--yaml' writes the whole container and takes no other option\n{USAGE}"
        ));
    }
    let src = FileSource::open(&file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let read_error = |src: &FileSource| -> Result<(), String> {
        match src.error.borrow().as_ref() {
            Some(e) => Err(format!("cannot read '{file}': {e}")),
            None => Ok(()),
        }
    };
    if yaml {
        return dump_yaml(&src, &file);
    }
    let mut out = stdout();
    let written = if let Some(t) = lazy_threshold {
        // Parts left lazy stay so: the dump shows them as not decoded.
        let opts = hexlens_core::Options {
            lazy_threshold: Some(t),
            scan,
            ..Default::default()
        };
        let mut d = hexlens_core::decode_with(&src, &opts);
        read_error(&src)?;
        let start = match &select {
            Some(p) => d
                .tree
                .find(p)
                .ok_or_else(|| format!("'{file}' has no node at '{p}'"))?,
            None => d.tree.root(),
        };
        let r = write(&src, &mut d, start, limits, json, true, &mut out);
        (r, d.is_clean())
    } else {
        use hexlens_core::stream::{self, DumpError, DumpForm};
        let form = if json { DumpForm::Json } else { DumpForm::Text };
        match stream::dump(
            &src,
            select.as_deref(),
            form,
            limits.max_depth,
            scan,
            &mut out,
        ) {
            Ok(clean) => (Ok(()), clean),
            Err(DumpError::NoSuchPath(p)) => {
                read_error(&src)?;
                return Err(format!("'{file}' has no node at '{p}'"));
            }
            Err(DumpError::Io(e)) => (Err(e), false),
        }
    };
    let (r, clean) = written;
    if let Err(e) = r.and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(format!("cannot write output: {e}"));
        }
    }
    read_error(&src)?;
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `dump FILE --yaml`: the DirectX Container as LLVM 19's obj2yaml writes it.
/// Exit 1 when the container has errors: a part whose mapping had to be left
/// out is named on stderr, and a header too damaged for any YAML is said so.
fn dump_yaml(src: &FileSource, file: &str) -> Result<ExitCode, String> {
    use hexlens_core::formats::dxcontainer::yaml::{self, YamlError};
    let yaml = yaml::dump(src);
    if let Some(e) = src.error.borrow().as_ref() {
        return Err(format!("cannot read '{file}': {e}"));
    }
    let yaml = match yaml {
        Ok(y) => y,
        Err(e @ YamlError::NotDxContainer(_)) => return Err(format!("'{file}': {e}")),
        Err(e @ YamlError::Damaged(_)) => {
            eprintln!("hexlens: '{file}': {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut out = stdout();
    if let Err(e) = out
        .write_all(yaml.text.as_bytes())
        .and_then(|_| out.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(format!("cannot write output: {e}"));
        }
    }
    for line in &yaml.left_out {
        eprintln!("hexlens: {line}");
    }
    if !yaml.clean {
        eprintln!("hexlens: '{file}' decoded with errors ('hexlens dump' shows them)");
    }
    Ok(if yaml.clean && yaml.left_out.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Standard output for the dump. The dump hands over output in big pieces and
/// ends it with its only newline, so on Unix it goes to a duplicate of the
/// descriptor: the line-buffered `Stdout` would search every piece for a newline.
fn stdout() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout().lock())
}

/// Writes the tree from `start`, streaming (or, with `keep_lazy`, as decoded).
fn write(
    src: &FileSource,
    d: &mut hexlens_core::Decoded,
    start: hexlens_core::NodeId,
    limits: hexlens_core::stream::Limits,
    json: bool,
    keep_lazy: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use hexlens_core::stream;
    let limits = stream::Limits {
        keep_lazy,
        ..limits
    };
    if json {
        stream::write_json(src, d, start, limits, out)
    } else {
        stream::write_text(src, d, start, limits, out)
    }
}

#[cfg(test)]
mod tests {
    use super::FileSource;
    use hexlens_core::ByteSource;

    #[test]
    fn reads_at_or_past_the_end_of_a_file_give_nothing_and_no_error() {
        let path =
            std::env::temp_dir().join(format!("hexlens-cli-past-end-{}", std::process::id()));
        std::fs::write(&path, b"0123456789").unwrap();
        let src = FileSource::open(path.to_str().unwrap()).unwrap();
        let mut buf = [0u8; 4];
        for at in [10, 11, 1 << 40, u64::MAX - 1, u64::MAX] {
            assert_eq!(src.read_at(at, &mut buf), 0, "at {at}");
        }
        assert_eq!(src.read_at(8, &mut buf), 2);
        assert_eq!(&buf[..2], b"89");
        let mut big = vec![0u8; 1 << 17];
        assert_eq!(src.read_at(u64::MAX, &mut big), 0);
        assert!(src.error.borrow().is_none(), "{:?}", src.error.borrow());
        std::fs::remove_file(&path).unwrap();
    }
}
