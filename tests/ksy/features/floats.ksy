meta:
  id: floats
  endian: be
seq:
  - id: a
    type: f4
  - id: b
    type: f4le
  - id: c
    type: f8
  - id: d
    type: f8le
  - id: e
    type: f4
  - id: f
    type: f8
  - id: g
    type: f4
instances:
  sum:
    value: a + c
  halves:
    value: c / 2
