//! Golden text and JSON dumps of every cDAC fixture (`tests/fixtures/cdac/`),
//! compared byte for byte with `tests/golden/cdac/`; `HEXLENS_BLESS=1` rewrites them
//! when a change is intended.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn hexlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexlens"))
        .args(args)
        .output()
        .expect("run hexlens")
}

#[test]
fn cdac_dumps_match_the_golden_files() {
    let fixtures = repo().join("tests/fixtures/cdac");
    let golden = repo().join("tests/golden/cdac");
    let bless = std::env::var_os("HEXLENS_BLESS").is_some();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "o" || x == "obj" || x == "bin" || x == "dll")
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 20,
        "fixtures missing in {}",
        fixtures.display()
    );
    let mut stale = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let f = input.to_string_lossy().into_owned();
        for (ext, args) in [
            ("txt", vec!["dump", &f]),
            ("json", vec!["dump", &f, "--json"]),
        ] {
            let out = hexlens(&args);
            let damaged = name.starts_with("damaged-");
            assert_eq!(
                out.status.code(),
                Some(if damaged { 1 } else { 0 }),
                "{name}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            let first =
                String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(40)]).into_owned();
            assert!(
                first.starts_with("cdac (") || first.starts_with("{\"format\":\"cdac\""),
                "{name}: {first}"
            );
            let path = golden.join(format!("{name}.{ext}"));
            if bless {
                std::fs::create_dir_all(&golden).unwrap();
                std::fs::write(&path, &out.stdout).unwrap();
            } else if std::fs::read(&path).ok().as_deref() != Some(&out.stdout[..]) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "dumps differ from the golden files (HEXLENS_BLESS=1 to accept): {stale:#?}"
    );
}
