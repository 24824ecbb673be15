# SQLite 3 databases: the 100-byte header, the first page's b-tree header and cell pointers.
meta:
  id: sqlite
  file-extension: [sqlite, db]
  endian: be
  encoding: UTF-8
seq:
  - id: magic
    contents: ["SQLite format 3", 0]
  - id: page_size_raw
    type: u2
  - id: write_version
    type: u1
  - id: read_version
    type: u1
  - id: reserved_space
    type: u1
  - id: max_payload_fraction
    type: u1
    valid: 64
  - id: min_payload_fraction
    type: u1
    valid: 32
  - id: leaf_payload_fraction
    type: u1
    valid: 32
  - id: change_counter
    type: u4
  - id: page_count
    type: u4
  - id: first_freelist_page
    type: u4
  - id: freelist_pages
    type: u4
  - id: schema_cookie
    type: u4
  - id: schema_format
    type: u4
    valid:
      min: 1
      max: 4
  - id: default_cache_size
    type: u4
  - id: largest_root_page
    type: u4
  - id: text_encoding
    type: u4
    enum: encodings
  - id: user_version
    type: u4
  - id: incremental_vacuum
    type: u4
  - id: application_id
    type: u4
  - id: reserved
    size: 20
  - id: version_valid_for
    type: u4
  - id: sqlite_version
    type: u4
  - id: first_page
    type: btree_page
instances:
  page_size:
    value: 'page_size_raw == 1 ? 0x10000 : page_size_raw'
  pages:
    pos: page_size
    size: page_size
    type: btree_page
    repeat: expr
    repeat-expr: page_count - 1
types:
  btree_page:
    seq:
      - id: kind
        type: u1
        enum: page_kind
      - id: first_freeblock
        type: u2
      - id: cell_count
        type: u2
      - id: content_start
        type: u2
      - id: fragmented_bytes
        type: u1
      - id: right_child
        type: u4
        if: kind == page_kind::interior_index or kind == page_kind::interior_table
      - id: cells
        type: u2
        repeat: expr
        repeat-expr: cell_count
enums:
  encodings:
    1: utf_8
    2: utf_16le
    3: utf_16be
  page_kind:
    2: interior_index
    5: interior_table
    10: leaf_index
    13: leaf_table
