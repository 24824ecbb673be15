meta:
  id: xored
  endian: be
seq:
  - id: hdr            # 0
    type: u1
  - id: payload        # 1..7, xor 0x5a
    size: 6
    process: xor(0x5a)
    type: payload
  - id: trailer        # 7..9
    type: u2
  - id: padded         # 9..15: a terminated copy of the raw bytes (not decoded)
    size: 6
    terminator: 0
    type: payload_short
types:
  payload:
    seq:
      - id: a          # payload 0..2
        type: u2
      - id: b          # payload 2..6
        type: u4
  payload_short:
    seq:
      - id: c
        type: u2
      - id: d
        type: u1
