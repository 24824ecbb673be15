# TrueType fonts: the table directory, and the tables it points at read where they lie.
meta:
  id: ttf
  file-extension: [ttf, otf]
  endian: be
  encoding: ASCII
seq:
  - id: version
    type: u4
  - id: table_count
    type: u2
  - id: search_range
    type: u2
  - id: entry_selector
    type: u2
  - id: range_shift
    type: u2
  - id: tables
    type: table
    repeat: expr
    repeat-expr: table_count
types:
  table:
    -webide-representation: '{tag}'
    seq:
      - id: tag
        type: str
        size: 4
      - id: checksum
        type: u4
      - id: offset
        type: u4
      - id: len
        type: u4
    instances:
      body:
        io: _root._io
        pos: offset
        size: len
        type:
          switch-on: tag
          cases:
            '"head"': head
            '"maxp"': maxp
            '"hhea"': hhea
            '"name"': names
            '"OS/2"': os2
  head:
    seq:
      - id: version
        type: u4
      - id: revision
        type: u4
      - id: checksum_adjust
        type: u4
      - id: magic
        contents: [0x5f, 0x0f, 0x3c, 0xf5]
      - id: flags
        type: u2
      - id: units_per_em
        type: u2
      - id: created
        type: s8
      - id: modified
        type: s8
      - id: x_min
        type: s2
      - id: y_min
        type: s2
      - id: x_max
        type: s2
      - id: y_max
        type: s2
      - id: mac_style
        type: u2
      - id: lowest_ppem
        type: u2
      - id: direction_hint
        type: s2
      - id: loca_format
        type: s2
      - id: glyph_format
        type: s2
  maxp:
    seq:
      - id: version
        type: u4
      - id: glyph_count
        type: u2
  hhea:
    seq:
      - id: version
        type: u4
      - id: ascender
        type: s2
      - id: descender
        type: s2
      - id: line_gap
        type: s2
      - id: advance_max
        type: u2
  os2:
    seq:
      - id: version
        type: u2
      - id: avg_width
        type: s2
      - id: weight
        type: u2
      - id: width_class
        type: u2
  names:
    seq:
      - id: format
        type: u2
      - id: count
        type: u2
      - id: strings_at
        type: u2
      - id: records
        type: name_record
        repeat: expr
        repeat-expr: count
  name_record:
    seq:
      - id: platform
        type: u2
      - id: encoding
        type: u2
      - id: language
        type: u2
      - id: name_id
        type: u2
      - id: len
        type: u2
      - id: offset
        type: u2
    instances:
      text:
        io: _parent._io
        pos: _parent.strings_at + offset
        size: len
        type: str
        encoding: UTF-16BE
        if: platform == 3
