# gzip members (RFC 1952): header, optional fields by flag bits, deflate data, trailer.
meta:
  id: gzip
  file-extension: gz
  endian: le
  encoding: ISO-8859-1
seq:
  - id: magic
    contents: [0x1f, 0x8b]
  - id: method
    type: u1
    enum: methods
  - id: flags
    type: flags
  - id: mtime
    type: u4
  - id: extra_flags
    type: u1
  - id: os
    type: u1
    enum: oses
  - id: extra
    type: extra
    if: flags.has_extra
  - id: name
    type: strz
    if: flags.has_name
  - id: comment
    type: strz
    if: flags.has_comment
  - id: header_crc
    type: u2
    if: flags.has_header_crc
  - id: body
    size: _io.size - _io.pos - 8
  - id: crc32
    type: u4
  - id: size_mod_2_32
    type: u4
types:
  flags:
    seq:
      - id: reserved
        type: b3
      - id: has_comment
        type: b1
      - id: has_name
        type: b1
      - id: has_extra
        type: b1
      - id: has_header_crc
        type: b1
      - id: is_text
        type: b1
  extra:
    seq:
      - id: len
        type: u2
      - id: data
        size: len
enums:
  methods:
    8: deflate
  oses:
    0: fat
    3: unix
    7: macintosh
    11: ntfs
    255: unknown
