meta:
  id: imp_rel
  endian: le
seq:
  - id: x
    type: u2
