//! The decodes the fuzz targets drive, shared with the core's tests that replay
//! and bound them.

use hexlens_core::{formats, Decoded};

/// The fuzz targets that decode: `detect` (format detection, as the CLI and
/// the viewer do), then one per format of the registry, named after the
/// format's folder (`chapel_dyno` for `chapel-dyno`), each running that
/// format's decoder on any bytes whatever its probe says. Each with the format
/// it drives (`None`: detection).
pub fn targets() -> Vec<(String, Option<&'static str>)> {
    std::iter::once(("detect".to_string(), None))
        .chain(
            formats::catalog()
                .iter()
                .map(|a| (a.name.replace('-', "_"), Some(a.name))),
        )
        .collect()
}

/// True if `target` is a decoding fuzz target (see [`targets`]).
pub fn is_target(target: &str) -> bool {
    targets().iter().any(|(t, _)| t == target)
}

/// Decodes `data` as the fuzz target `target` does (see [`targets`]); an
/// unknown target decodes through detection.
pub fn decode_for_target(target: &str, data: &[u8]) -> Decoded {
    let format = targets()
        .into_iter()
        .find(|(t, _)| t == target)
        .and_then(|(_, f)| f);
    decode(format, data)
}

/// Decodes `data` with the registered decoder called `format` (whatever its probe
/// says), or through format detection when `format` is `None`.
pub fn decode(format: Option<&str>, data: &[u8]) -> Decoded {
    match format.and_then(formats::by_name) {
        Some(f) => hexlens_core::decode_as(f, &data),
        None => hexlens_core::decode_bytes(data),
    }
}
