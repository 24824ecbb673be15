# ZIP archives (PKWARE APPNOTE): local file records, the central directory, its end record.
meta:
  id: zip
  file-extension: zip
  endian: le
  encoding: UTF-8
seq:
  - id: sections
    type: section
    repeat: eos
types:
  section:
    -webide-representation: '{kind}'
    seq:
      - id: magic
        contents: "PK"
      - id: kind
        type: u2
        enum: section_kind
      - id: body
        type:
          switch-on: kind
          cases:
            section_kind::local_file: local_file
            section_kind::central_entry: central_entry
            section_kind::end_of_central_dir: end_of_central_dir
  local_file:
    -webide-representation: '{name}'
    seq:
      - id: version
        type: u2
      - id: flags
        type: u2
      - id: method
        type: u2
        enum: method
      - id: time
        type: u2
      - id: date
        type: u2
      - id: crc32
        type: u4
      - id: compressed_size
        type: u4
      - id: size
        type: u4
      - id: name_len
        type: u2
      - id: extra_len
        type: u2
      - id: name
        type: str
        size: name_len
      - id: extra
        size: extra_len
      - id: data
        size: compressed_size
    instances:
      year:
        value: 1980 + (date >> 9)
  central_entry:
    -webide-representation: '{name}'
    seq:
      - id: made_by
        type: u2
      - id: version
        type: u2
      - id: flags
        type: u2
      - id: method
        type: u2
        enum: method
      - id: time
        type: u2
      - id: date
        type: u2
      - id: crc32
        type: u4
      - id: compressed_size
        type: u4
      - id: size
        type: u4
      - id: name_len
        type: u2
      - id: extra_len
        type: u2
      - id: comment_len
        type: u2
      - id: disk
        type: u2
      - id: internal_attrs
        type: u2
      - id: external_attrs
        type: u4
      - id: local_offset
        type: u4
      - id: name
        type: str
        size: name_len
      - id: extra
        size: extra_len
      - id: comment
        type: str
        size: comment_len
    instances:
      local:
        io: _root._io
        pos: local_offset
        type: section
  end_of_central_dir:
    seq:
      - id: disk
        type: u2
      - id: dir_disk
        type: u2
      - id: entries_here
        type: u2
      - id: entries
        type: u2
      - id: dir_size
        type: u4
      - id: dir_offset
        type: u4
      - id: comment_len
        type: u2
      - id: comment
        type: str
        size: comment_len
enums:
  section_kind:
    0x0403: local_file
    0x0201: central_entry
    0x0605: end_of_central_dir
  method:
    0: stored
    8: deflated
    12: bzip2
    14: lzma
