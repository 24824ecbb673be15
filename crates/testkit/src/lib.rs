//! What hexlens's tests, fuzz targets, benchmarks and examples share (a dev-only
//! crate, never published): the core's integration tests (`crates/core/tests`),
//! the CLI's golden tests, `fuzz/` (the targets' checks), the core's benchmarks
//! and examples all use this one copy.
//!
//! - [`repo`]: where the repository, its fixtures and the shared samples are,
//!   and listing their files (a missing or empty folder fails the test);
//! - [`tools`]: finding the external programs the oracle tests run (LLVM 19's);
//! - [`bless`]: the one writer of the files tests compare against (generated
//!   fixtures, golden dumps), which compares or, with `HEXLENS_BLESS=1`, rewrites;
//! - [`lookup`]: nodes of a decoded tree by path;
//! - [`lazy`]: decoding on demand and checking it against the eager tree;
//! - [`checks`] and [`invariants`]: the properties every decode must have, and a
//!   deterministic random generator for damage sweeps;
//! - [`alloc`]: a counting global allocator (per thread);
//! - [`decoders`], [`compare`], [`query`]: what the fuzz targets drive and check;
//! - [`bcanalyzer`]: `llvm-bcanalyzer-19`'s dump, parsed;
//! - [`generators`]: writers of test files in every format, from the specs.

pub mod alloc;
pub mod bcanalyzer;
pub mod bless;
pub mod checks;
pub mod compare;
pub mod decoders;
pub mod generators;
pub mod invariants;
pub mod lazy;
pub mod lookup;
pub mod query;
pub mod repo;
pub mod tools;
