# GIF images (87a and 89a): the screen descriptor, its colour table, then blocks to the trailer.
meta:
  id: gif
  file-extension: gif
  endian: le
  encoding: ASCII
seq:
  - id: signature
    contents: GIF
  - id: version
    type: str
    size: 3
  - id: screen
    type: screen
  - id: colors
    size: 3 * screen.color_count
    if: screen.has_color_table
  - id: blocks
    type: block
    repeat: until
    repeat-until: _.kind == block_kind::trailer or _io.eof
types:
  screen:
    seq:
      - id: width
        type: u2
      - id: height
        type: u2
      - id: has_color_table
        type: b1
      - id: color_resolution
        type: b3
      - id: sorted
        type: b1
      - id: table_size
        type: b3
      - id: background
        type: u1
      - id: aspect
        type: u1
    instances:
      color_count:
        value: 1 << (table_size + 1)
  block:
    -webide-representation: '{kind}'
    seq:
      - id: kind
        type: u1
        enum: block_kind
      - id: body
        type:
          switch-on: kind
          cases:
            block_kind::image: image
            block_kind::extension: extension
  image:
    seq:
      - id: left
        type: u2
      - id: top
        type: u2
      - id: width
        type: u2
      - id: height
        type: u2
      - id: has_color_table
        type: b1
      - id: interlaced
        type: b1
      - id: sorted
        type: b1
      - id: reserved
        type: b2
      - id: table_size
        type: b3
      - id: colors
        size: 3 * (1 << (table_size + 1))
        if: has_color_table
      - id: min_code_size
        type: u1
      - id: data
        type: sub_block
        repeat: until
        repeat-until: _.len == 0
  extension:
    seq:
      - id: label
        type: u1
      - id: data
        type: sub_block
        repeat: until
        repeat-until: _.len == 0
  sub_block:
    seq:
      - id: len
        type: u1
      - id: bytes
        size: len
enums:
  block_kind:
    0x21: extension
    0x2c: image
    0x3b: trailer
