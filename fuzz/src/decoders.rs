//! The decodes the fuzz targets drive, shared with the root package's tests
//! (included there with `#[path]`).

#![allow(dead_code)]

use hexlens_core::{formats, Builder, Decoded};

/// The fuzz targets, each with the registered decoder it drives: `None` goes
/// through format detection, `Some("bitstream")` is the bare LLVM bitstream decoder.
pub const TARGETS: &[(&str, Option<&str>)] = &[
    ("detect", None),
    ("dxcontainer", Some("dxcontainer")),
    ("bitstream", Some("bitstream")),
    ("dyno", Some("chapel-dyno")),
    ("cdac", Some("cdac")),
    ("llvm1", Some("llvm1-bytecode")),
    ("msf", Some("msf")),
    ("embedded", Some("embedded")),
];

/// Decodes `data` as the fuzz target `target` does (see [`TARGETS`]).
pub fn decode_for_target(target: &str, data: &[u8]) -> Decoded {
    match TARGETS.iter().find(|(t, _)| *t == target) {
        Some((_, Some("bitstream"))) => decode_bitstream(data),
        Some((_, Some(name))) => decode(Some(name), data),
        _ => decode(None, data),
    }
}

/// Decodes `data` with the registered decoder called `format` (whatever its probe
/// says), or through format detection when `format` is `None`.
pub fn decode(format: Option<&str>, data: &[u8]) -> Decoded {
    match format.and_then(formats::by_name) {
        Some(f) => hexlens_core::decode_as(f, &data),
        None => hexlens_core::decode_bytes(data),
    }
}

/// Decodes `data` as bare LLVM bitcode (optionally behind the wrapper header),
/// the way the DXIL part hands its bitcode to the bitstream decoder.
pub fn decode_bitstream(data: &[u8]) -> Decoded {
    let src: &dyn hexlens_core::ByteSource = &data;
    let mut b = Builder::new(src, "bitcode");
    let _ = hexlens_core::bitstream::decode_bitcode(&mut b, 0, data.len() as u64);
    Decoded {
        format: "bitstream",
        file_size: data.len() as u64,
        tree: b.finish(),
    }
}
