meta:
  id: instances
  endian: be
seq:
  - id: table_at
    type: u2
  - id: count
    type: u1
  - id: blob
    size: 8
    type: blob
instances:
  table:
    pos: table_at
    type: u2
    repeat: expr
    repeat-expr: count
  first:
    value: table[0]
  last_plus:
    value: table.last + first
  maybe:
    pos: 0
    type: u1
    if: count > 100
  sized:
    pos: table_at
    size: 4
  in_blob:
    io: blob._io
    pos: 2
    type: u4
  chained:
    value: in_blob + sized.length
types:
  blob:
    seq:
      - id: head
        type: u2
    instances:
      tail:
        pos: 6
        type: u2
      whole:
        value: _io.size
      parent_count:
        value: _parent.count
      root_at:
        value: _root.table_at
