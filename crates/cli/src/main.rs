//! `hexlens`: dump a file's structure tree as indented text or JSON.
//!
//! ```text
//! hexlens dump FILE [--json]     print the decoded tree
//! hexlens formats                list the decoders
//! ```
//! Exit status: 0 decoded cleanly, 1 decoded with errors (the tree is still
//! printed), 2 usage or I/O error (message on stderr).

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage:
  hexlens dump FILE [--json]   print FILE's structure tree (text, or the JSON contract)
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
            for a in &args[1..] {
                match a.as_str() {
                    "--json" => json = true,
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
            let bytes = std::fs::read(&file).map_err(|e| format!("cannot read '{file}': {e}"))?;
            let decoded = hexlens_core::decode_bytes(&bytes);
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
