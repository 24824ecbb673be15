meta:
  id: spin
seq:
  - id: nothing        # a billion empty structs: never ends in time
    type: empty
    repeat: expr
    repeat-expr: 1000000000
types:
  empty:
    seq: []
