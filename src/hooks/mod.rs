//! Custom hooks: browser listeners and virtual scrolling.

pub mod use_element_height;
pub mod use_file_drop;
pub mod use_hotkey;
pub mod use_virtual_list;
