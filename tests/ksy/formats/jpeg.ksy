# JPEG (JFIF) images: marker segments; after the start of scan, the entropy-coded
# data up to the end-of-image marker at the end of the file.
meta:
  id: jpeg
  file-extension: [jpg, jpeg]
  endian: be
  encoding: ASCII
seq:
  - id: segments
    type: segment
    repeat: until
    repeat-until: _.marker == marker::eoi or _io.eof
types:
  segment:
    -webide-representation: '{marker}'
    seq:
      - id: magic
        contents: [0xff]
      - id: marker
        type: u1
        enum: marker
      - id: len
        type: u2
        if: has_body
      - id: body
        size: len - 2
        if: has_body
        type:
          switch-on: marker
          cases:
            marker::sof0: frame
            marker::sof2: frame
            marker::app0: jfif
            marker::sos: scan
            marker::dqt: quant_tables
      - id: image
        size: _io.size - _io.pos - 2
        if: marker == marker::sos
    instances:
      has_body:
        value: marker != marker::soi and marker != marker::eoi
  frame:
    seq:
      - id: precision
        type: u1
      - id: height
        type: u2
      - id: width
        type: u2
      - id: count
        type: u1
      - id: components
        type: component
        repeat: expr
        repeat-expr: count
  component:
    seq:
      - id: id
        type: u1
      - id: sampling_h
        type: b4
      - id: sampling_v
        type: b4
      - id: table
        type: u1
  jfif:
    seq:
      - id: magic
        type: strz
      - id: major
        type: u1
      - id: minor
        type: u1
      - id: units
        type: u1
      - id: x_density
        type: u2
      - id: y_density
        type: u2
      - id: thumb_width
        type: u1
      - id: thumb_height
        type: u1
      - id: thumb
        size: 3 * thumb_width * thumb_height
  scan:
    seq:
      - id: count
        type: u1
      - id: components
        type: scan_component
        repeat: expr
        repeat-expr: count
      - id: start
        type: u1
      - id: end
        type: u1
      - id: approx
        type: u1
  scan_component:
    seq:
      - id: id
        type: u1
      - id: dc_table
        type: b4
      - id: ac_table
        type: b4
  quant_tables:
    seq:
      - id: tables
        type: quant_table
        repeat: eos
  quant_table:
    seq:
      - id: precision
        type: b4
      - id: index
        type: b4
      - id: values
        size: '64 * (precision + 1)'
enums:
  marker:
    0xc0: sof0
    0xc2: sof2
    0xc4: dht
    0xd8: soi
    0xd9: eoi
    0xda: sos
    0xdb: dqt
    0xdd: dri
    0xe0: app0
    0xe1: app1
    0xfe: com
