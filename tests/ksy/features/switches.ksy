meta:
  id: switches
  endian: le
  encoding: ASCII
seq:
  - id: records
    type: record
    repeat: expr
    repeat-expr: 5
types:
  record:
    seq:
      - id: kind
        type: u1
        enum: kind
      - id: name
        type: str
        size: 2
      - id: by_enum
        type:
          switch-on: kind
          cases:
            kind::number: u2
            kind::text: text
            kind::pair: pair_of(kind.to_i)
      - id: by_name
        type:
          switch-on: name
          cases:
            '"aa"': u1
            '"bb"': u2be
            _: u4
      - id: sized
        size: 2
        type:
          switch-on: kind
          cases:
            kind::number: u2be
  text:
    seq:
      - id: len
        type: u1
      - id: value
        type: str
        size: len
  pair_of:
    params:
      - id: tag
        type: u1
    seq:
      - id: a
        type: u1
      - id: b
        type: u1
    instances:
      tagged:
        value: tag * 100 + a
enums:
  kind:
    1: number
    2: text
    3: pair
