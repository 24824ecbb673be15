meta:
  id: bad
seq:
  - id: a
    type: no_such_type
