meta:
  id: imp_leaf
seq:
  - id: w
    type: u1
