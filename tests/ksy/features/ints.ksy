meta:
  id: ints
  endian: le
seq:
  - id: a
    type: u1
  - id: b
    type: u2
  - id: c
    type: u2be
  - id: d
    type: u4
  - id: e
    type: u4be
  - id: f
    type: u8
  - id: g
    type: u8be
  - id: h
    type: s1
  - id: i
    type: s2
  - id: j
    type: s4be
  - id: k
    type: s8
  - id: l
    type: s2be
