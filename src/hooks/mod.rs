//! Custom hooks: browser listeners, virtual scrolling, and asking the decode worker.

pub mod use_ask;
pub mod use_element_height;
pub mod use_file_drop;
pub mod use_hotkey;
pub mod use_permalink;
pub mod use_virtual_list;
