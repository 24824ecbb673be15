meta:
  id: bits_le
  endian: le
  bit-endian: le
seq:
  - id: flag
    type: b1
  - id: three
    type: b3
  - id: four
    type: b4
  - id: twelve
    type: b12
  - id: seven
    type: b7
  - id: five
    type: b5
  - id: after
    type: u2
  - id: wide
    type: b32
  - id: rest
    type: b8
  - id: mixed
    type: b8be
