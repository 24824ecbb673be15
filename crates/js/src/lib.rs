//! The npm package `hexlens`: the parser core compiled to WebAssembly with a
//! small JavaScript API over its on-demand tree (see README.md here for the
//! API; scripts/build-npm.sh builds the package for the `web` and `nodejs`
//! targets with wasm-pack).
//!
//! [`handle`] holds what the API does, in plain Rust (tested natively);
//! `js` (wasm32 only) turns it into JavaScript functions and a `HexTree`
//! class, reading a `Uint8Array` in place and a `Blob` through
//! `FileReaderSync` in a worker, or whole where it cannot be read
//! synchronously.

pub mod handle;

#[cfg(target_arch = "wasm32")]
mod js;
