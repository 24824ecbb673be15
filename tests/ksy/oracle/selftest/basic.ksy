meta:
  id: basic
  endian: le
seq:
  - id: magic          # 0..2
    contents: "HX"
  - id: a_u1           # 2
    type: u1
  - id: b_u2le         # 3..5
    type: u2
  - id: c_u4be         # 5..9
    type: u4be
  - id: d_s2           # 9..11
    type: s2
  - id: e_f4           # 11..15
    type: f4
  - id: hi_bits        # 15: b3 then b5, big-endian bit order
    type: b3
  - id: lo_bits
    type: b5
  - id: len_body       # 16
    type: u1
  - id: body           # 17..27: a sized substream
    size: len_body
    type: body
  - id: num_recs       # 27
    type: u1
  - id: recs           # 28..37: 3 x (u1 + u2be)
    type: rec
    repeat: expr
    repeat-expr: num_recs
  - id: kind           # 37
    type: u1
    enum: kind
  - id: name           # 38..46: "hexlens\0"
    type: strz
    encoding: ASCII
  - id: big            # 46..54: above 2^53
    type: u8
  - id: tail           # 54..end: repeat eos in a size-eos substream
    size-eos: true
    type: tail
instances:
  at_ofs:              # a pos instance: the u2le at 3
    pos: 3
    type: u2
  sum:                 # a value instance
    value: a_u1 + b_u2le
  deep:                # a pos instance through the body's stream
    io: body._io
    pos: 6
    type: point
  bad_pos:             # a failing instance: past the end
    pos: 100000
    type: u4
types:
  body:
    seq:
      - id: tag        # body 0..2
        type: u2
      - id: inner      # body 2..6: a nested user type
        type: point
      - id: pad        # body 6..10
        size: 4
  point:
    seq:
      - id: x
        type: u2
      - id: y
        type: s2
  rec:
    seq:
      - id: tag
        type: u1
      - id: val
        type: u2be
  tail:
    seq:
      - id: words
        type: u2
        repeat: eos
enums:
  kind:
    1: one
    2: two
