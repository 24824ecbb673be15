# `include: true` is left out: Kaitai's JavaScript runtime reads a byte past an
# included terminator (its C++ and Python runtimes do not); the interpreter's own
# tests check it (crates/core/src/ksy/interp.rs).
meta:
  id: strings
  encoding: UTF-8
seq:
  - id: fixed
    type: str
    size: 5
  - id: utf16
    type: str
    size: 8
    encoding: UTF-16LE
  - id: utf16be
    type: str
    size: 4
    encoding: UTF-16BE
  - id: latin
    type: str
    size: 3
    encoding: ISO-8859-1
  - id: zero
    type: strz
  - id: kept
    type: str
    terminator: 0x2c
  - id: left
    type: str
    terminator: 0x3b
    consume: false
  - id: semi
    type: u1
  - id: padded
    type: str
    size: 6
    pad-right: 0x20
  - id: cut
    type: str
    size: 6
    terminator: 0x2e
  - id: raw_term
    terminator: 0xff
  - id: tail
    type: str
    terminator: 0
    eos-error: false
