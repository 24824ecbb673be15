# Lists of plain integers (read a run at a time): signed bytes, an enum,
# little-endian words in a big-endian format, a list in a substream read to
# its end, elements read by expressions, 64-bit values.
meta:
  id: int_lists
  endian: be
seq:
  - id: n
    type: u1
  - id: signed_bytes
    type: s1
    repeat: expr
    repeat-expr: n
  - id: kinds
    type: u4le
    enum: kind
    repeat: expr
    repeat-expr: 3
  - id: block
    size: 6
    type: shorts
  - id: none
    type: u2
    repeat: expr
    repeat-expr: 0
  - id: tail
    type: u8
    repeat: eos
instances:
  last_kind:
    value: kinds.last
  ends:
    value: signed_bytes[0] + signed_bytes[n - 1]
  shorts_sum:
    value: block.items[0] + block.items[1] + block.items[2]
types:
  shorts:
    seq:
      - id: items
        type: s2
        repeat: eos
enums:
  kind:
    1: one
    7: seven
