meta:
  id: params
  endian: le
seq:
  - id: n
    type: u1
  - id: lens
    type: u1
    repeat: expr
    repeat-expr: n
  - id: chunks
    type: chunk(lens[_index], _index)
    repeat: expr
    repeat-expr: n
  - id: named
    type: named(kind::big, [0x61, 0x62])
enums:
  kind:
    1: small
    2: big
types:
  chunk:
    params:
      - id: len
        type: u1
      - id: i
        type: s4
    seq:
      - id: data
        size: len
    instances:
      double_i:
        value: i * 2
      from_root:
        value: _root.n
  named:
    params:
      - id: k
        type: u1
        enum: kind
      - id: tag
        type: bytes
    seq:
      - id: v
        type: u1
    instances:
      is_big:
        value: k == kind::big
      tag_len:
        value: tag.length
