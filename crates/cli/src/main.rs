//! `hexlens`: dump a file's structure tree as indented text or JSON.
//!
//! ```text
//! hexlens dump FILE [--json] [--lazy-threshold BYTES]
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
  hexlens dump FILE [--json] [--lazy-threshold BYTES]
                               print FILE's structure tree (text, or the JSON contract)
      --json                   print the JSON contract instead of indented text
      --lazy-threshold BYTES   leave parts whose body holds BYTES or more (LLVM bitcode
                               blocks below the top level) undecoded: they are shown as
                               one node marked [not decoded yet] (\"lazy\": true in JSON),
                               so huge files dump quickly; by default everything is decoded
  hexlens formats              list the formats hexlens decodes
  hexlens --help               show this help

exit status: 0 decoded cleanly, 1 decoded with errors (tree still printed), 2 usage or I/O error";

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
        "dump" => {
            let mut json = false;
            let mut file = None;
            let mut opts = hexlens_core::Options::default();
            let mut rest = args[1..].iter();
            while let Some(a) = rest.next() {
                match a.as_str() {
                    "--json" => json = true,
                    "--lazy-threshold" => {
                        let Some(v) = rest.next() else {
                            return Err(format!(
                                "'--lazy-threshold' needs a number of bytes\n{USAGE}"
                            ));
                        };
                        let n = v.parse::<u64>().map_err(|_| {
                            format!(
                                "'--lazy-threshold' needs a number of bytes, not '{v}'\n{USAGE}"
                            )
                        })?;
                        opts.lazy_threshold = Some(n);
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
            let src = FileSource::open(&file).map_err(|e| format!("cannot read '{file}': {e}"))?;
            let decoded = hexlens_core::decode_with(&src, &opts);
            if let Some(e) = src.error.borrow().as_ref() {
                return Err(format!("cannot read '{file}': {e}"));
            }
            let text = if json {
                let mut s = hexlens_core::output::to_json(&decoded);
                s.push('\n');
                s
            } else {
                hexlens_core::output::to_text(&decoded)
            };
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    return Err(format!("cannot write output: {e}"));
                }
            }
            Ok(if decoded.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        other => Err(format!("unknown command '{other}'\n{USAGE}")),
    }
}
