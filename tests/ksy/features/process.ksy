meta:
  id: process
  endian: le
seq:
  - id: key
    type: u1
  - id: xored
    size: 6
    process: xor(key)
    type: pair
  - id: keyed
    size: 5
    process: xor([0x01, 0x02])
  - id: left
    size: 3
    process: rol(3)
  - id: right
    size: 3
    process: ror(3)
    type: three
  - id: packed_len
    type: u2
  - id: packed
    size: packed_len
    process: zlib
    type: inner
types:
  pair:
    seq:
      - id: a
        type: u2
      - id: b
        type: u4
  three:
    seq:
      - id: x
        type: u1
      - id: yz
        type: u2be
  inner:
    seq:
      - id: count
        type: u2
      - id: values
        type: u4
        repeat: expr
        repeat-expr: count
      - id: note
        type: strz
        encoding: UTF-8
