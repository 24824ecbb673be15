meta:
  id: imp_main
  imports:
    - imp_rel
    - /common/imp_abs
seq:
  - id: r              # 0..2
    type: imp_rel
  - id: a              # 2..4
    type: imp_abs
