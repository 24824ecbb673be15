# Windows bitmaps: the file header, the info header (its size says which version), bit masks, pixels.
meta:
  id: bmp
  file-extension: bmp
  endian: le
  encoding: ASCII
seq:
  - id: magic
    contents: BM
  - id: file_size
    type: u4
  - id: reserved
    type: u4
  - id: pixels_at
    type: u4
  - id: header_size
    type: u4
  - id: header
    size: header_size - 4
    type: info
instances:
  pixels:
    pos: pixels_at
    size: _io.size - pixels_at
types:
  info:
    seq:
      - id: width
        type: s4
      - id: height
        type: s4
      - id: planes
        type: u2
      - id: bits_per_pixel
        type: u2
      - id: compression
        type: u4
        enum: compression
      - id: image_size
        type: u4
      - id: x_per_meter
        type: s4
      - id: y_per_meter
        type: s4
      - id: colors_used
        type: u4
      - id: colors_important
        type: u4
      - id: masks
        type: masks
        if: _io.size - _io.pos >= 16
      - id: rest
        size-eos: true
    instances:
      top_down:
        value: height < 0
  masks:
    seq:
      - id: red
        type: u4
      - id: green
        type: u4
      - id: blue
        type: u4
      - id: alpha
        type: u4
enums:
  compression:
    0: rgb
    1: rle8
    2: rle4
    3: bitfields
    4: jpeg
    5: png
    6: alpha_bitfields
