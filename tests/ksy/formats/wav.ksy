# RIFF WAVE audio: a RIFF chunk holding 'fmt ' and 'data' chunks, each padded to an even size.
meta:
  id: wav
  file-extension: wav
  endian: le
  encoding: ASCII
seq:
  - id: riff
    contents: RIFF
  - id: size
    type: u4
  - id: form
    contents: WAVE
  - id: chunks
    type: chunk
    repeat: eos
types:
  chunk:
    -webide-representation: '{id}'
    seq:
      - id: id
        type: str
        size: 4
      - id: len
        type: u4
      - id: body
        size: len
        type:
          switch-on: id
          cases:
            '"fmt "': format
      - id: pad
        size: len % 2
        if: not _io.eof
  format:
    seq:
      - id: codec
        type: u2
        enum: codec
      - id: channels
        type: u2
      - id: sample_rate
        type: u4
      - id: byte_rate
        type: u4
      - id: block_align
        type: u2
      - id: bits_per_sample
        type: u2
    instances:
      bytes_per_frame:
        value: channels * bits_per_sample / 8
enums:
  codec:
    1: pcm
    3: ieee_float
    0xfffe: extensible
