//! hexlens-web: the browser front end over `hexlens-core`.
//!
//! The model (bytes, store, inspector, scrolling math) is
//! plain Rust and tested natively; the Yew components, hooks and browser glue are
//! compiled for `wasm32` only.

pub mod bytes;
pub mod doc;
pub mod hexfmt;
pub mod inspect;
pub mod offset;
pub use hexlens_core::pages;
pub mod state;
pub mod virt;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod components;
#[cfg(target_arch = "wasm32")]
pub mod decoder;
#[cfg(target_arch = "wasm32")]
pub mod hooks;
#[cfg(target_arch = "wasm32")]
pub mod io;
#[cfg(target_arch = "wasm32")]
pub mod ksy;
#[cfg(target_arch = "wasm32")]
pub mod listing;
#[cfg(all(test, target_arch = "wasm32"))]
mod wasm_tests;

/// The page's allocator: smaller than the standard library's in the download
/// (bench/RESULTS.md, "App transfer size"), and as fast on the page's many
/// small allocations.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
