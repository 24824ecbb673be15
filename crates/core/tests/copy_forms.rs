//! "Copy selection as": each text form of the bytes, read back by the tool it
//! is written for. The Python form is run by `python3`, the C form compiled by
//! `clang-19` and the Rust form by `rustc`, each printing the bytes back; the
//! base64 form is decoded by coreutils' `base64 -d`. Random bytes of several
//! lengths (0, 1, one line, lines and a bit) must come back unchanged.

use hexlens_core::copy::{self, Form};
use hexlens_testkit::tools::scratch_dir;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `name` in this test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    scratch_dir("copy-forms").join(name)
}

/// Runs `cmd`, giving it `stdin`, and returns its standard output (panics,
/// with its standard error, if it fails or cannot start).
fn run(cmd: &mut Command, stdin: &[u8]) -> Vec<u8> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (the test needs it installed)"));
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

const LENGTHS: [usize; 5] = [0, 1, 16, 37, 300];

#[test]
fn python_reads_the_python_form_back() {
    for (k, n) in LENGTHS.into_iter().enumerate() {
        let b = bytes(n, k as u64 + 1);
        let prog = format!(
            "{}\nimport sys\nsys.stdout.buffer.write(data)\n",
            copy::text(Form::Python, &b)
        );
        assert_eq!(
            run(Command::new("python3").arg("-"), prog.as_bytes()),
            b,
            "{n} bytes"
        );
    }
}

#[test]
fn base64_decodes_the_base64_form_back() {
    for (k, n) in LENGTHS.into_iter().enumerate() {
        let b = bytes(n, k as u64 + 10);
        let t = copy::text(Form::Base64, &b);
        assert_eq!(
            run(Command::new("base64").arg("-d"), t.as_bytes()),
            b,
            "{n} bytes"
        );
    }
}

/// Compiles `src` with `compiler` (arguments before the source and the output)
/// and runs the program.
fn compile_and_run(compiler: &str, args: &[&str], src: &str, ext: &str, tag: &str) -> Vec<u8> {
    let file = scratch(&format!("{tag}.{ext}"));
    let exe = scratch(tag);
    std::fs::write(&file, src).unwrap();
    run(
        Command::new(compiler)
            .args(args)
            .arg(&file)
            .arg("-o")
            .arg(&exe),
        b"",
    );
    run(&mut Command::new(Path::new(&exe)), b"")
}

#[test]
fn clang_compiles_the_c_form_to_the_same_bytes() {
    for (k, n) in LENGTHS.into_iter().enumerate().skip(1) {
        let b = bytes(n, k as u64 + 20);
        let src = format!(
            "#include <stdio.h>\n{}\nint main(void) {{ fwrite(data, 1, sizeof data, stdout); return 0; }}\n",
            copy::text(Form::C, &b)
        );
        let got = compile_and_run(
            "clang-19",
            &["-x", "c", "-std=c99", "-Werror"],
            &src,
            "c",
            &format!("c{n}"),
        );
        assert_eq!(got, b, "{n} bytes");
    }
}

#[test]
fn rustc_compiles_the_rust_form_to_the_same_bytes() {
    for (k, n) in LENGTHS.into_iter().enumerate() {
        let b = bytes(n, k as u64 + 30);
        let src = format!(
            "{}\nfn main() {{ use std::io::Write; std::io::stdout().write_all(&DATA).unwrap(); }}\n",
            copy::text(Form::Rust, &b)
        );
        let got = compile_and_run(
            "rustc",
            &["--edition", "2021", "-D", "warnings"],
            &src,
            "rs",
            &format!("rs{n}"),
        );
        assert_eq!(got, b, "{n} bytes");
    }
}
