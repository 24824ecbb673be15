//! Formats the user describes: Kaitai Struct `.ksy` files, read and
//! interpreted. [`yaml`] reads the YAML they are written in, keeping where
//! every node is, so an error in a `.ksy` can name its line and column.

pub mod yaml;
