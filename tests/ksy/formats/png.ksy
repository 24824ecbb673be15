# PNG images (ISO/IEC 15948): the signature, then chunks to IEND.
meta:
  id: png
  title: Portable Network Graphics
  file-extension: png
  endian: be
  encoding: ISO-8859-1
doc: A PNG file is an 8-byte signature followed by length-prefixed, CRC-checked chunks.
seq:
  - id: signature
    contents: [0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a]
  - id: chunks
    type: chunk
    repeat: until
    repeat-until: _.kind == "IEND" or _io.eof
types:
  chunk:
    -webide-representation: '{kind} ({len} bytes)'
    seq:
      - id: len
        type: u4
        valid:
          max: 0x7fffffff
      - id: kind
        type: str
        size: 4
      - id: body
        size: len
        type:
          switch-on: kind
          cases:
            '"IHDR"': header
            '"tEXt"': text
            '"zTXt"': compressed_text
            '"pHYs"': physical
            '"tIME"': time
            '"gAMA"': gamma
      - id: crc
        type: u4
  header:
    seq:
      - id: width
        type: u4
      - id: height
        type: u4
      - id: bit_depth
        type: u1
        valid:
          any-of: [1, 2, 4, 8, 16]
      - id: color
        type: u1
        enum: color_type
      - id: compression
        type: u1
      - id: filter
        type: u1
      - id: interlace
        type: u1
    instances:
      pixels:
        value: width * height
      has_alpha:
        value: color == color_type::grey_alpha or color == color_type::rgba
  text:
    seq:
      - id: keyword
        type: strz
      - id: value
        type: str
        size-eos: true
  compressed_text:
    seq:
      - id: keyword
        type: strz
      - id: method
        type: u1
      - id: value
        size-eos: true
        process: zlib
  physical:
    seq:
      - id: x
        type: u4
      - id: y
        type: u4
      - id: unit
        type: u1
  time:
    seq:
      - id: year
        type: u2
      - id: month
        type: u1
      - id: day
        type: u1
      - id: hour
        type: u1
      - id: minute
        type: u1
      - id: second
        type: u1
  gamma:
    seq:
      - id: raw
        type: u4
    instances:
      value:
        value: raw / 100000.0
enums:
  color_type:
    0: grey
    2: rgb
    3: indexed
    4: grey_alpha
    6: rgba
