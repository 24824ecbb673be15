meta:
  id: checks
  endian: le
seq:
  - id: magic
    contents: "HX"
  - id: magic2
    contents: [1, 2, "ab", 0xff]
  - id: version
    type: u1
    valid: 3
  - id: level
    type: u1
    valid:
      min: 1
      max: 9
  - id: mode
    type: u1
    valid:
      any-of: [2, 4, 8]
  - id: even
    type: u2
    valid:
      expr: _ % 2 == 0
  - id: color
    type: u1
    enum: color
  - id: unnamed_color
    type: u1
    enum: color
  - id: known
    type: u1
    enum: color
    valid:
      in-enum: true
instances:
  is_red:
    value: color == color::red
  color_num:
    value: color.to_i
  unnamed_num:
    value: unnamed_color.to_i + 1
enums:
  color:
    1: red
    2: green
    0x10: blue
