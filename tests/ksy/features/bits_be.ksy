meta:
  id: bits_be
  endian: be
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
    type: u1
  - id: wide
    type: b32
  - id: rest
    type: b8
  - id: kind
    type: b4
    enum: kinds
  - id: low
    type: b4
enums:
  kinds:
    1: one
    9: nine
