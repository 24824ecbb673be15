//! `process: zlib`: a zlib stream inflated, at most a given number of bytes
//! (a stream that would make more is an error, not an allocation).

use miniz_oxide::inflate::{decompress_to_vec_zlib_with_limit, TINFLStatus};

/// The bytes zlib stream `data` inflates to, if they are at most `limit`.
pub fn zlib(data: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    decompress_to_vec_zlib_with_limit(data, limit).map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => {
            format!("the zlib stream inflates to more than {limit} bytes")
        }
        s => format!("not a valid zlib stream ({s:?})"),
    })
}
