meta:
  id: imp_abs
  imports:
    - imp_leaf
seq:
  - id: y
    type: imp_leaf
  - id: z
    type: u1
