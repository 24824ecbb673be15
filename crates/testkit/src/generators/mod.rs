//! Writers of test files, one module per format, each written from the spec
//! (or the writer's source) and independent of the decoders: the generated
//! fixtures in `tests/fixtures/<format>/` (checked against what these make by
//! the core's tests, rewritten with `HEXLENS_BLESS=1`), hostile inputs, and the
//! large dense inputs of the benchmarks, the examples and the scale tests.
//!
//! The fixtures other programs write are made by the scripts beside the
//! modules: `generators/cdac/build.sh` (the compiled cDAC descriptors, from the
//! C source there) and `generators/bitcode/build.sh` (the bitcode of clang-19).

pub mod bitstream;
pub mod cdac;
pub mod dxcontainer;
pub mod dxil;
pub mod dyno;
pub mod embedded;
pub mod hostile;
pub mod llvm1;
pub mod msf;
