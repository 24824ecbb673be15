meta:
  id: repeats
  endian: le
seq:
  - id: count
    type: u1
  - id: words
    type: u2
    repeat: expr
    repeat-expr: count
  - id: items
    type: item
    repeat: until
    repeat-until: _.tag == 0
  - id: sized
    size: _index + 2
    repeat: expr
    repeat-expr: 2
  - id: rest
    type: pair
    repeat: eos
types:
  item:
    seq:
      - id: tag
        type: u1
      - id: body
        size: tag
  pair:
    seq:
      - id: x
        type: u1
      - id: y
        type: u1
