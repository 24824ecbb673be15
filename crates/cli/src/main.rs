//! `hexlens`: dump a file's structure tree as indented text or JSON, search
//! it, compare two files by their structure.
//!
//! ```text
//! hexlens dump FILE [--json] [--max-depth N] [--select PATH] [--scan] [--color WHEN]
//! hexlens find FILE QUERY [--json] [--max N] [--scan]
//! hexlens diff A B [--json] [--max N]
//! hexlens formats
//! hexlens completions SHELL
//! ```
//! `hexlens help COMMAND` (or `COMMAND --help`) describes each command. A FILE
//! given as `-` is read from standard input. Exit status: 0 success, 1 decoded
//! with errors (dump), nothing found (find) or the files differ (diff), 2 usage
//! or I/O error (message on standard error, starting `hexlens: `).
//!
//! Arguments are parsed by `clap` (derive) and completions written by
//! `clap_complete`; what that costs in binary size and build time is in
//! bench/RESULTS.md, "CLI argument parsing".

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use std::cell::RefCell;
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use hexlens_core::ByteSource;

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
    fn open(path: &Path) -> std::io::Result<Self> {
        Self::new(std::fs::File::open(path)?)
    }

    /// Reads `file` (from its start) on demand.
    fn new(file: std::fs::File) -> std::io::Result<Self> {
        let len = file.metadata()?.len();
        Ok(FileSource {
            file: RefCell::new(file),
            len,
            cache: RefCell::new((0, Vec::new())),
            error: RefCell::new(None),
        })
    }
}

impl ByteSource for FileSource {
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

/// Exit statuses, shown at the end of the top-level help.
const EXIT_STATUS: &str = "\
A FILE given as '-' is read from standard input, to its end before decoding
starts: up to 64 MiB in memory, a longer stream in a temporary file (removed at
once). A file on disk is read as the command needs it, however big.

Exit status: dump: 0 decoded cleanly, 1 decoded with errors (the tree is still
printed); find: 0 something found, 1 nothing found; diff: 0 the structures are
equal, 1 they differ; all: 2 usage or I/O error (message on standard error).";

/// The command line of hexlens, a structure-aware hex viewer
///
/// Decodes DirectX Containers (DXBC/DXIL), LLVM bitcode, Chapel .dyno
/// libraries, .NET cDAC blobs, LLVM 1.x bytecode and PDB/MSF files into a tree
/// of fields, each with the bytes it came from.
#[derive(Parser, Debug)]
#[command(name = "hexlens", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Dump(DumpArgs),
    Find(FindArgs),
    Diff(DiffArgs),
    Dis(DisArgs),
    /// List the formats hexlens decodes
    Formats,
    /// Write a shell completion script to standard output
    ///
    /// For bash: `hexlens completions bash > ~/.local/share/bash-completion/completions/hexlens`;
    /// zsh: write `_hexlens` into a directory of your `$fpath`; fish:
    /// `hexlens completions fish > ~/.config/fish/completions/hexlens.fish`.
    Completions {
        /// The shell the script is for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Print FILE's structure tree (indented text, or the JSON contract)
///
/// The tree is written as it is decoded: parts of the file are decoded when the
/// dump reaches them and dropped after, so memory does not grow with the file.
/// Text: one node a line, its byte range in hex (`0146.4` is bit 4 of byte
/// 0x146), name, value and, in parentheses, its meaning; errors follow their
/// node on a line starting with `!`.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 decoded cleanly, 1 decoded with errors (the tree is \
still printed), 2 usage or I/O error."
)]
struct DumpArgs {
    /// The file to decode ('-': standard input, read to its end first)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print the JSON contract instead of indented text
    #[arg(long)]
    json: bool,
    /// Print nodes down to N levels below the root (or below PATH)
    ///
    /// A node whose children are left out says how many: `[N children not
    /// shown]` in text, `"hidden_children": N` in JSON.
    #[arg(long, value_name = "N")]
    max_depth: Option<usize>,
    /// Print only the subtree at PATH (Parts/[3]/PSVInfo)
    ///
    /// PATH is a path as the JSON contract writes it: names joined with '/',
    /// list elements as [i], the root left out (Blocks/[1]/Body/[7]).
    #[arg(long, value_name = "PATH")]
    select: Option<String>,
    /// Scan FILE for containers of every format and decode each in place
    ///
    /// DXBC, bitcode, cDAC blobs, .dyno, LLVM 1.x, PDB: each container whose
    /// header says where it ends is decoded where it lies, whatever FILE is (a
    /// file no decoder recognises is scanned anyway).
    #[arg(long)]
    scan: bool,
    /// Leave parts of BYTES or more undecoded, shown as `[not decoded yet]`
    ///
    /// Parts whose body holds BYTES or more (LLVM bitcode blocks below the top
    /// level) are shown as one node marked `[not decoded yet]` (`"lazy": true`
    /// in JSON).
    #[arg(long, value_name = "BYTES")]
    lazy_threshold: Option<u64>,
    /// Colour the text tree
    ///
    /// Names, values, displays, errors and unknown bytes each in their own
    /// colour, byte ranges and notes dim. `auto` colours when standard output is a terminal and the NO_COLOR
    /// environment variable is unset or empty. The JSON is never coloured.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// Print a DirectX Container as the YAML LLVM 19's obj2yaml writes
    ///
    /// yaml2obj builds the container back from it. Takes no other option.
    /// Exit 1 if the container has errors (a damaged part's mapping is left
    /// out and named on standard error; no YAML if the header is unreadable),
    /// 2 for a file that is not a DirectX Container.
    #[arg(long, conflicts_with_all = ["json", "max_depth", "select", "scan", "lazy_threshold"])]
    yaml: bool,
    /// Decode FILE with a Kaitai Struct format (a .ksy file)
    ///
    /// The tree's format is `ksy:<meta/id>` and its root is named by the
    /// format's id; every instance is read and shown after its type's fields.
    #[arg(long, value_name = "FORMAT.ksy", conflicts_with_all = ["yaml", "scan"])]
    ksy: Option<PathBuf>,
    /// A folder absolute imports of the .ksy (`/common/riff`) are found in
    /// (repeatable, searched in order); relative ones are beside the .ksy
    #[arg(long, value_name = "DIR", requires = "ksy")]
    ksy_path: Vec<PathBuf>,
    /// Apply the .ksy from this byte of FILE (hex 0x40 or decimal): a
    /// structure inside another file
    #[arg(long, value_name = "OFFSET", requires = "ksy", value_parser = parse_offset)]
    at: Option<u64>,
    /// Apply the .ksy to this many bytes (from --at, or the file's start;
    /// hex 0x40 or decimal): its stream ends there
    #[arg(long, value_name = "BYTES", requires = "ksy", value_parser = parse_offset)]
    size: Option<u64>,
}

/// An offset as the command line writes it: decimal, or hex with `0x`.
fn parse_offset(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| format!("'{s}' is not an offset (decimal, or hex with 0x)"))
}

/// The registry entry for the `.ksy` format `path` names (its imports found
/// beside it and in `dirs`), applied from byte `at` to `size` bytes (or the
/// file's end).
fn ksy_format(
    path: &Path,
    dirs: &[PathBuf],
    at: u64,
    size: Option<u64>,
) -> Result<&'static hexlens_core::Format, String> {
    let spec = hexlens_core::ksy::load_file(path, dirs)?;
    Ok(hexlens_core::formats::register(
        hexlens_core::ksy::format_in(spec, at, size),
    ))
}

/// Print the programs FILE holds as text, each line tied to its bytes
///
/// SM4/5 programs (the SHDR/SHEX part of a DirectX Container, FXC's bytecode)
/// print as FXC's own listing prints them (`fxc /Fc`): the comment header made
/// from the container's resource definitions and signatures, the program, the
/// statistics line. LLVM bitcode modules that DXC or LLVM 3.x wrote (a DXIL
/// or ILDB part, a `.bc` file) print as `llvm-dis-14` prints them. Programs
/// come in file order; in a container each follows a heading comment naming
/// its path (`// hexlens: Parts/[3] SHEX`, `; hexlens: Parts/[4] DXIL`), so
/// the text still assembles; a bare module prints with none. A program that
/// cannot be read to its end says where and why in a comment.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 every program printed whole, 1 a program damaged (what \
could be read is printed) or no program in FILE, 2 usage or I/O error."
)]
struct DisArgs {
    /// The file to read ('-': standard input, read to its end first)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print only the program at PATH, or the one holding the node at PATH
    #[arg(long, value_name = "PATH")]
    select: Option<String>,
    /// Print JSON Lines: one object a text line, {program, line, text, spans, bits}
    ///
    /// `line` counts from 1 within its program; `spans` are the byte ranges
    /// (half-open) of the tokens, fields or records the line was made from,
    /// `bits` the same in bits. No heading lines.
    #[arg(long)]
    json: bool,
    /// Scan FILE for containers of every format and read the programs of each
    #[arg(long)]
    scan: bool,
    /// LLVM text's dialect: 14 (typed pointers, as llvm-dis-14 prints them)
    /// or 19 (opaque pointers, as llvm-dis-19 does); by default DXC's and
    /// LLVM 3.x's modules print as 14, later ones as 19
    #[arg(long, value_name = "14|19", value_parser = ["14", "19"])]
    dialect: Option<String>,
    /// Print only the LLVM function NAME (its define or declare and body,
    /// numbered as in the whole text); exit 1 if no program has it
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
}

/// Print the nodes of FILE's structure that QUERY finds
///
/// QUERY is text found in a node's name, else in its value or display (ASCII
/// case ignored), or, when it holds a '/', a path pattern in which '*' is any
/// one segment (Parts/*/PSVInfo). The whole tree is walked the way the dump
/// does, each part decoded when reached and dropped after.
#[derive(Args, Debug)]
#[command(after_help = "Exit status: 0 something found, 1 nothing found, 2 usage or I/O error.")]
struct FindArgs {
    /// The file to search ('-': standard input, read to its end first)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Text to find, or a path pattern (with '/')
    #[arg(value_name = "QUERY")]
    query: String,
    /// Print the hits as a JSON array of {path, start, end, match}
    #[arg(long)]
    json: bool,
    /// Stop after N hits
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max: u64,
    /// Search the containers a scan finds (as dump --scan)
    #[arg(long)]
    scan: bool,
    /// Search the tree a Kaitai Struct format (a .ksy file) gives FILE
    #[arg(long, value_name = "FORMAT.ksy", conflicts_with = "scan")]
    ksy: Option<PathBuf>,
    /// A folder the .ksy's absolute imports are found in (repeatable)
    #[arg(long, value_name = "DIR", requires = "ksy")]
    ksy_path: Vec<PathBuf>,
}

/// Compare two files by their structure
///
/// Each node of A is matched with B's by what it is (a part by its FourCC, a
/// symbol by its name, a block by its kind and function), so an insertion is
/// one addition. Prints changed fields (~ PATH: A -> B), values that changed
/// only because what they point at moved (>), nodes only in A (-) or only in B
/// (+), and a summary.
#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 the structures are equal, 1 they differ, 2 usage or I/O \
error."
)]
struct DiffArgs {
    /// The first file ('-': standard input, read to its end first)
    #[arg(value_name = "A")]
    a: PathBuf,
    /// The second file ('-': standard input; not both)
    #[arg(value_name = "B")]
    b: PathBuf,
    /// Print {a, b, equal, changed_bytes, truncated, differences: [{path,
    /// path_b, change, shown, a, b, a_span, b_span}]}
    #[arg(long)]
    json: bool,
    /// Print the merged tree instead: the nodes compared, two spaces a level,
    /// each marked = the same (a run of identical siblings is one row), ~
    /// changed (A -> B), > moved, - only in A, + only in B, * the differences
    /// are inside; with --json, "rows": [{depth, mark, name, path, text,
    /// count, a_span, b_span, align, difference}] is added
    #[arg(long)]
    tree: bool,
    /// Colour the text: changed values yellow, moves and identical nodes dim,
    /// nodes only in A red, only in B green (`auto`: when standard output is
    /// a terminal and NO_COLOR is unset or empty; the JSON is never coloured)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    color: ColorWhen,
    /// List at most N differences
    #[arg(long, value_name = "N", default_value_t = hexlens_core::diff::MAX_DIFFERENCES as u64)]
    max: u64,
    /// Compare the trees a Kaitai Struct format (a .ksy file) gives A and B
    #[arg(long, value_name = "FORMAT.ksy")]
    ksy: Option<PathBuf>,
    /// A folder the .ksy's absolute imports are found in (repeatable)
    #[arg(long, value_name = "DIR", requires = "ksy")]
    ksy_path: Vec<PathBuf>,
}

/// When the text tree is coloured.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ColorWhen {
    /// When standard output is a terminal and NO_COLOR is unset or empty
    Auto,
    /// Always
    Always,
    /// Never
    Never,
}

impl ColorWhen {
    /// True if the text tree written to standard output is coloured.
    fn colours_stdout(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// The text tree's colours: byte ranges dim, names bright blue, values cyan,
/// displays green, errors bold red, unknown bytes' names magenta, notes in
/// brackets dim.
fn colours() -> hexlens_core::output::TextStyle {
    use anstyle::{AnsiColor, Style};
    let paint = |s: Style| {
        hexlens_core::output::Paint::new(s.render().to_string(), s.render_reset().to_string())
    };
    let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
    hexlens_core::output::TextStyle {
        span: paint(fg(AnsiColor::BrightBlack)),
        name: paint(fg(AnsiColor::BrightBlue)),
        unknown: paint(fg(AnsiColor::Magenta)),
        value: paint(fg(AnsiColor::Cyan)),
        display: paint(fg(AnsiColor::Green)),
        error: paint(fg(AnsiColor::Red).bold()),
        note: paint(fg(AnsiColor::BrightBlack)),
    }
}

/// A line of `hexlens diff` (or of its merged tree) coloured by its sign:
/// `~` yellow, `-` red, `+` green, `>` and `=` dim, `*` bold.
fn painted_difference(line: &str) -> String {
    use anstyle::{AnsiColor, Style};
    let body = line.trim_start_matches(' ');
    let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
    let style = match body.chars().next() {
        Some('~') => fg(AnsiColor::Yellow),
        Some('-') => fg(AnsiColor::Red),
        Some('+') => fg(AnsiColor::Green),
        Some('>') | Some('=') => fg(AnsiColor::BrightBlack),
        Some('*') => Style::new().bold(),
        _ => return line.to_string(),
    };
    let indent = &line[..line.len() - body.len()];
    format!("{indent}{}{body}{}", style.render(), style.render_reset())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("hexlens: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Shows what clap says about the command line: help and the version on
/// standard output (exit 0), a usage error on standard error after `hexlens: `
/// (exit 2).
fn usage_error(e: clap::Error) -> ExitCode {
    if !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.render().to_string();
    match text.strip_prefix("error: ") {
        Some(message) => eprint!("hexlens: {message}"),
        // No command at all: clap shows the help.
        None => eprint!("hexlens: no command given\n\n{text}"),
    }
    ExitCode::from(2)
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Formats => {
            let mut out = String::new();
            for f in hexlens_core::formats() {
                out.push_str(&format!(
                    "{:<14} {}  (.{})\n",
                    f.name,
                    f.description,
                    f.extensions.join(", .")
                ));
            }
            write_out(out.as_bytes(), "the formats")
        }
        Command::Completions { shell } => {
            // Written to memory first: the generator cannot report a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "hexlens", &mut script);
            write_out(&script, "the completion script")
        }
        Command::Dump(args) => dump(args),
        Command::Find(args) => find(args),
        Command::Diff(args) => diff(args),
        Command::Dis(args) => dis(args),
    }
}

fn dis(args: DisArgs) -> Result<ExitCode, String> {
    use hexlens_core::dis;
    let file = &args.file;
    let src = Input::open(file)?;
    let dialect = args.dialect.as_deref().and_then(|d| d.parse::<u32>().ok());
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout());
    let mut failed: Option<std::io::Error> = None;
    let mut whole = true;
    // Writes one line of a program's text (or its JSON object).
    let mut emit = |program: &str, n: usize, l: &dis::Line, mark: &str| {
        if failed.is_some() {
            return;
        }
        whole &= !l.text.trim_start().starts_with(mark);
        let r = if args.json {
            let mut j = dis::json_line(program, n, l);
            j.push('\n');
            out.write_all(j.as_bytes())
        } else {
            out.write_all(l.text.as_bytes())
                .and_then(|_| out.write_all(b"\n"))
        };
        if let Err(e) = r {
            failed = Some(e);
        }
    };
    // A bare bitcode module: its text straight from its records, no tree.
    let root_only = args.select.as_deref().is_none_or(str::is_empty);
    if !args.scan && root_only && dis::bare_bitcode(&src) {
        let mut bytes = vec![0u8; src.len() as usize];
        let n = src.read_at(0, &mut bytes);
        bytes.truncate(n);
        src.check(file)?;
        let name = file.display().to_string();
        let mut k = 0;
        let found = dis::llvm_function_to(
            &bytes,
            0,
            &name,
            dialect,
            args.function.as_deref(),
            &mut |l| {
                k += 1;
                emit("", k, &l, "; hexlens:");
            },
        );
        return finish_dis(out, failed, whole && found);
    }
    // Anything else: a tree whose big parts (bitcode blocks) wait until asked
    // for; the programs are found in it, and read from the file.
    let mut d = hexlens_core::decode_with(&src, &dis::tree_options(args.scan));
    dis::open_programs(&src, &mut d.tree);
    src.check(file)?;
    let programs = match &args.select {
        Some(p) => {
            let mut id = d.tree.find(p);
            if id.is_none() {
                // The node may lie inside a part left for later.
                d = hexlens_core::decode_with(
                    &src,
                    &hexlens_core::Options {
                        scan: args.scan,
                        ..Default::default()
                    },
                );
                src.check(file)?;
                id = d.tree.find(p);
            }
            let id = id.ok_or_else(|| format!("{} has no node at '{p}'", describe(file)))?;
            vec![dis::program_at(&d.tree, id)
                .ok_or_else(|| format!("the node at '{p}' is in no program hexlens can print"))?]
        }
        None => dis::programs(&d.tree),
    };
    if programs.is_empty() {
        eprintln!(
            "hexlens: {} holds no program hexlens can print (SM4/5 programs and DXIL or LLVM 3.x bitcode modules)",
            describe(file)
        );
        return Ok(ExitCode::from(1));
    }
    let mut found = false;
    for p in &programs {
        // A bare module names itself by its file, as llvm-dis does.
        let bare = p.node == d.tree.root();
        let name = if bare {
            file.display().to_string()
        } else {
            p.path.clone()
        };
        let mark = format!("{} hexlens:", p.syntax.comment());
        if !bare && !args.json && args.function.is_none() {
            emit(&p.path, 0, &dis::Line::plain(p.heading()), "\u{0}");
        }
        let mut k = 0;
        found |= dis::listing_function_to(
            &d.tree,
            p,
            &src,
            &name,
            dialect,
            args.function.as_deref(),
            &mut |l| {
                k += 1;
                emit(&p.path, k, &l, &mark);
            },
        );
        src.check(file)?;
    }
    whole &= d.is_clean() && found;
    finish_dis(out, failed, whole)
}

/// The end of `hexlens dis`: flushes what is left; a closed pipe is no error.
fn finish_dis(
    mut out: impl Write,
    failed: Option<std::io::Error>,
    whole: bool,
) -> Result<ExitCode, String> {
    let r = match failed {
        Some(e) => Err(e),
        None => out.flush(),
    };
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("cannot write output: {e}")),
        Ok(()) => Ok(if whole {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }),
    }
}

/// Writes `bytes` to standard output; exit status 0.
fn write_out(bytes: &[u8], what: &str) -> Result<ExitCode, String> {
    let mut out = stdout();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write {what}: {e}"))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// A usage error found after parsing (clap's form, `hexlens: ` first, exit 2).
fn usage(command: &str, message: &str) -> ExitCode {
    let mut cli = Cli::command();
    cli.build();
    let e = match cli.find_subcommand_mut(command) {
        Some(sub) => sub.error(clap::error::ErrorKind::ArgumentConflict, message),
        None => cli.error(clap::error::ErrorKind::ArgumentConflict, message),
    };
    usage_error(e)
}

/// Where a command's input comes from: a file read on demand, or standard input
/// (held in memory up to [`STDIN_IN_MEMORY`] bytes, beyond that spooled to a
/// temporary file and read from there on demand).
enum Input {
    File(FileSource),
    Memory(Vec<u8>),
    Spooled(Spool),
}

/// Standard input up to this many bytes is held in memory; a longer stream is
/// copied to a temporary file, so memory stays flat however long it is.
const STDIN_IN_MEMORY: usize = 64 << 20;

/// Standard input copied to a temporary file. The file is removed as soon as it
/// is open (Unix), or else when the spool is dropped.
struct Spool {
    src: FileSource,
    /// The file's path while it still has one.
    path: Option<PathBuf>,
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Some(p) = &self.path {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Reads `r` to its end: into memory if it holds at most `keep` bytes, else
/// into a temporary file in `dir` (what was read first included).
fn read_stream(mut r: impl Read, keep: usize, dir: &Path) -> std::io::Result<Input> {
    let mut bytes = Vec::new();
    // One byte past `keep` tells a stream that fits from one that does not.
    let limit = u64::try_from(keep).unwrap_or(u64::MAX).saturating_add(1);
    r.by_ref().take(limit).read_to_end(&mut bytes)?;
    if bytes.len() <= keep {
        return Ok(Input::Memory(bytes));
    }
    let (mut file, path) = temporary_file(dir)?;
    let mut spool = Spool {
        src: FileSource::new(file.try_clone()?)?,
        path: Some(path),
    };
    if let Some(p) = &spool.path {
        if std::fs::remove_file(p).is_ok() {
            spool.path = None;
        }
    }
    file.write_all(&bytes)?;
    drop(bytes);
    std::io::copy(&mut r, &mut file)?;
    file.flush()?;
    spool.src.len = file.metadata()?.len();
    Ok(Input::Spooled(spool))
}

/// A new file in `dir`, open for reading and writing, and its path.
fn temporary_file(dir: &Path) -> std::io::Result<(std::fs::File, PathBuf)> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for attempt in 0u32..100 {
        let path = dir.join(format!(
            "hexlens-stdin-{}-{stamp:x}-{attempt}",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!(
        "no new temporary file could be made in '{}'",
        dir.display()
    )))
}

/// True if `path` stands for standard input.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name the input at `path`.
fn describe(path: &Path) -> String {
    if is_stdin(path) {
        "standard input".to_string()
    } else {
        format!("'{}'", path.display())
    }
}

impl Input {
    /// Opens the file at `path`, or reads standard input whole for `-`.
    fn open(path: &Path) -> Result<Self, String> {
        let r = if is_stdin(path) {
            read_stream(
                std::io::stdin().lock(),
                STDIN_IN_MEMORY,
                &std::env::temp_dir(),
            )
        } else {
            FileSource::open(path).map(Input::File)
        };
        r.map_err(|e| format!("cannot read {}: {e}", describe(path)))
    }

    /// The first read error while decoding, as a message naming `path`.
    fn check(&self, path: &Path) -> Result<(), String> {
        match self {
            Input::File(f) | Input::Spooled(Spool { src: f, .. }) => {
                match f.error.borrow().as_ref() {
                    Some(e) => Err(format!("cannot read {}: {e}", describe(path))),
                    None => Ok(()),
                }
            }
            Input::Memory(_) => Ok(()),
        }
    }
}

impl ByteSource for Input {
    fn len(&self) -> u64 {
        match self {
            Input::File(f) | Input::Spooled(Spool { src: f, .. }) => f.len(),
            Input::Memory(m) => ByteSource::len(m),
        }
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> usize {
        match self {
            Input::File(f) | Input::Spooled(Spool { src: f, .. }) => f.read_at(offset, buf),
            Input::Memory(m) => m.read_at(offset, buf),
        }
    }
}

fn diff(args: DiffArgs) -> Result<ExitCode, String> {
    use hexlens_core::diff::Change;
    let (pa, pb) = (&args.a, &args.b);
    if is_stdin(pa) && is_stdin(pb) {
        return Ok(usage(
            "diff",
            "A and B cannot both be '-': standard input can be read only once",
        ));
    }
    let a = Input::open(pa)?;
    let b = Input::open(pb)?;
    let max = usize::try_from(args.max.max(1)).unwrap_or(usize::MAX);
    let format = match &args.ksy {
        Some(k) => Some(ksy_format(k, &args.ksy_path, 0, None)?),
        None => None,
    };
    let d = hexlens_core::diff::diff_as(&a, &b, format, max);
    a.check(pa)?;
    b.check(pb)?;
    // The JSON names a file as given ('-' for standard input); the summary
    // line, which must not start like a difference line, says which.
    let (fa, fb) = (pa.to_string_lossy(), pb.to_string_lossy());
    let (json, tree) = (args.json, args.tree);
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
        side(&mut out, &fa, d.formats.0, d.sizes.0);
        out.extend_from_slice(b",\"b\":");
        side(&mut out, &fb, d.formats.1, d.sizes.1);
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
        out.push(b']');
        if tree {
            out.extend_from_slice(b",\"rows\":[");
            for (i, r) in d.rows.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let _ = write!(
                    out,
                    "{{\"depth\":{},\"mark\":\"{}\",\"name\":",
                    r.depth,
                    r.mark.name()
                );
                hexlens_core::output::json_str(&mut out, &r.name);
                out.extend_from_slice(b",\"path\":");
                hexlens_core::output::json_str(&mut out, &r.path);
                out.extend_from_slice(b",\"text\":");
                hexlens_core::output::json_str(&mut out, &r.text);
                let _ = write!(out, ",\"count\":{},\"a_span\":", r.count);
                span(&mut out, r.a);
                out.extend_from_slice(b",\"b_span\":");
                span(&mut out, r.b);
                let _ = write!(
                    out,
                    ",\"align\":[{},{}],\"difference\":",
                    r.align.0, r.align.1
                );
                match r.difference {
                    Some(n) => {
                        let _ = write!(out, "{n}}}");
                    }
                    None => out.extend_from_slice(b"null}"),
                }
            }
            out.push(b']');
        }
        out.extend_from_slice(b"}\n");
    } else {
        let paint = !json && args.color.colours_stdout();
        let mut line = |l: String| {
            let _ = if paint {
                writeln!(out, "{}", painted_difference(&l))
            } else {
                writeln!(out, "{l}")
            };
        };
        if tree {
            d.rows.iter().for_each(|r| line(r.line()));
        } else {
            d.differences.iter().for_each(|x| line(x.line()));
        }
        let name = |p: &Path, f: &str| {
            if is_stdin(p) {
                "standard input".to_string()
            } else {
                f.to_string()
            }
        };
        let _ = writeln!(out, "{}", d.summary(&name(pa, &fa), &name(pb, &fb)));
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

fn find(args: FindArgs) -> Result<ExitCode, String> {
    let src = Input::open(&args.file)?;
    let max = usize::try_from(args.max.max(1)).unwrap_or(usize::MAX);
    let format = match &args.ksy {
        Some(k) => Some(ksy_format(k, &args.ksy_path, 0, None)?),
        None => None,
    };
    let hits =
        hexlens_core::search::find_nodes_as(&src, format, &args.query, max, args.scan, &mut |_| {});
    src.check(&args.file)?;
    let json = args.json;
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

fn dump(args: DumpArgs) -> Result<ExitCode, String> {
    let file = &args.file;
    let src = Input::open(file)?;
    if args.yaml {
        return dump_yaml(&src, file);
    }
    let limits = hexlens_core::stream::Limits {
        max_depth: args.max_depth,
        ..Default::default()
    };
    let style = if !args.json && args.color.colours_stdout() {
        colours()
    } else {
        hexlens_core::output::TextStyle::default()
    };
    let (json, scan, select) = (args.json, args.scan, &args.select);
    let read_error = |src: &Input| src.check(file);
    let mut out = stdout();
    // A tree decoded whole (its lazy parts left so), written from PATH.
    let whole = |mut d: hexlens_core::Decoded, out: &mut Box<dyn Write>| {
        read_error(&src)?;
        let start = match &select {
            Some(p) => d
                .tree
                .find(p)
                .ok_or_else(|| format!("{} has no node at '{p}'", describe(file)))?,
            None => d.tree.root(),
        };
        let r = write(&src, &mut d, start, limits, json, &style, out);
        Ok::<_, String>((r, d.is_clean()))
    };
    let written = if let Some(k) = &args.ksy {
        let format = ksy_format(k, &args.ksy_path, args.at.unwrap_or(0), args.size)?;
        let opts = hexlens_core::Options {
            lazy_threshold: args.lazy_threshold,
            ..Default::default()
        };
        whole(hexlens_core::decode_as_with(format, &src, &opts), &mut out)?
    } else if let Some(t) = args.lazy_threshold {
        // Parts left lazy stay so: the dump shows them as not decoded.
        let opts = hexlens_core::Options {
            lazy_threshold: Some(t),
            scan,
            ..Default::default()
        };
        whole(hexlens_core::decode_with(&src, &opts), &mut out)?
    } else {
        use hexlens_core::stream::{self, DumpError, DumpForm};
        let form = if json { DumpForm::Json } else { DumpForm::Text };
        match stream::dump_styled(
            &src,
            select.as_deref(),
            form,
            limits.max_depth,
            scan,
            &style,
            &mut out,
        ) {
            Ok(clean) => (Ok(()), clean),
            Err(DumpError::NoSuchPath(p)) => {
                read_error(&src)?;
                return Err(format!("{} has no node at '{p}'", describe(file)));
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
fn dump_yaml(src: &Input, path: &Path) -> Result<ExitCode, String> {
    use hexlens_core::formats::dxcontainer::yaml::{self, YamlError};
    let yaml = yaml::dump(src);
    src.check(path)?;
    let file = path.to_string_lossy();
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

/// Standard output, unbuffered: every command hands over its output in big
/// pieces (the dump's end with their only newline), so on Unix it goes to a
/// duplicate of the descriptor: the line-buffered `Stdout` would search every
/// piece for a newline.
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

/// Writes the tree from `start` as decoded: lazy parts stay lazy.
fn write(
    src: &Input,
    d: &mut hexlens_core::Decoded,
    start: hexlens_core::NodeId,
    limits: hexlens_core::stream::Limits,
    json: bool,
    style: &hexlens_core::output::TextStyle,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use hexlens_core::stream;
    let limits = stream::Limits {
        keep_lazy: true,
        ..limits
    };
    if json {
        stream::write_json(src, d, start, limits, out)
    } else {
        stream::write_text_styled(src, d, start, limits, style, out)
    }
}

#[cfg(test)]
mod tests {
    use super::{read_stream, FileSource, Input};
    use hexlens_core::ByteSource;

    #[test]
    fn a_stream_longer_than_memory_keeps_is_spooled_to_a_file_that_is_removed() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let dir = std::env::temp_dir().join(format!("hexlens-cli-spool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for keep in [0, 1, 99_999, 100_000, 1 << 20] {
            let input = read_stream(&data[..], keep, &dir).unwrap();
            match (&input, keep >= data.len()) {
                (Input::Memory(m), true) => assert_eq!(m, &data),
                (Input::Spooled(_), false) => {}
                _ => panic!("keep {keep}: held the wrong way"),
            }
            assert_eq!(ByteSource::len(&input), data.len() as u64, "keep {keep}");
            let mut got = vec![0u8; data.len() + 10];
            assert_eq!(input.read_at(0, &mut got), data.len(), "keep {keep}");
            assert_eq!(&got[..data.len()], &data[..], "keep {keep}");
            let mut mid = [0u8; 5];
            assert_eq!(input.read_at(65_534, &mut mid), 5);
            assert_eq!(&mid, &data[65_534..65_539]);
            input.check(std::path::Path::new("-")).unwrap();
            // The spool file is gone from the directory: unlinked while open
            // (Unix), or when the input is dropped.
            if cfg!(unix) {
                assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "keep {keep}");
            }
            drop(input);
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "keep {keep}");
        }
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn reads_at_or_past_the_end_of_a_file_give_nothing_and_no_error() {
        let path =
            std::env::temp_dir().join(format!("hexlens-cli-past-end-{}", std::process::id()));
        std::fs::write(&path, b"0123456789").unwrap();
        let src = FileSource::open(&path).unwrap();
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
