# Windows PE executables: the MZ header, the PE header where it points, the COFF
# header, the optional header and the section table; each section's bytes where
# its header says.
meta:
  id: pe
  file-extension: [exe, dll]
  endian: le
  encoding: UTF-8
seq:
  - id: mz
    type: mz_header
instances:
  pe:
    pos: mz.pe_at
    type: pe_header
types:
  mz_header:
    seq:
      - id: magic
        contents: MZ
      - id: last_page_bytes
        type: u2
      - id: pages
        type: u2
      - id: relocations
        type: u2
      - id: header_paragraphs
        type: u2
      - id: min_alloc
        type: u2
      - id: max_alloc
        type: u2
      - id: ss
        type: u2
      - id: sp
        type: u2
      - id: checksum
        type: u2
      - id: ip
        type: u2
      - id: cs
        type: u2
      - id: relocations_at
        type: u2
      - id: overlay
        type: u2
      - id: reserved
        size: 32
      - id: pe_at
        type: u4
  pe_header:
    seq:
      - id: magic
        contents: [0x50, 0x45, 0, 0]
      - id: coff
        type: coff
      - id: optional
        size: coff.optional_size
        type: optional
      - id: sections
        type: section
        repeat: expr
        repeat-expr: coff.section_count
  coff:
    seq:
      - id: machine
        type: u2
        enum: machine
      - id: section_count
        type: u2
      - id: timestamp
        type: u4
      - id: symbols_at
        type: u4
      - id: symbol_count
        type: u4
      - id: optional_size
        type: u2
      - id: characteristics
        type: u2
  optional:
    seq:
      - id: magic
        type: u2
        enum: pe_kind
      - id: linker_major
        type: u1
      - id: linker_minor
        type: u1
      - id: code_size
        type: u4
      - id: data_size
        type: u4
      - id: bss_size
        type: u4
      - id: entry
        type: u4
      - id: code_base
        type: u4
      - id: data_base
        type: u4
        if: magic == pe_kind::pe32
      - id: image_base
        type:
          switch-on: magic
          cases:
            pe_kind::pe32: u4
            pe_kind::pe32_plus: u8
      - id: section_align
        type: u4
      - id: file_align
        type: u4
      - id: rest
        size-eos: true
  section:
    -webide-representation: '{name}'
    seq:
      - id: name
        type: str
        size: 8
        pad-right: 0
      - id: virtual_size
        type: u4
      - id: virtual_address
        type: u4
      - id: raw_size
        type: u4
      - id: raw_at
        type: u4
      - id: relocations_at
        type: u4
      - id: lines_at
        type: u4
      - id: relocation_count
        type: u2
      - id: line_count
        type: u2
      - id: characteristics
        type: u4
    instances:
      body:
        io: _root._io
        pos: raw_at
        size: raw_size
enums:
  machine:
    0x14c: i386
    0x8664: amd64
    0xaa64: arm64
  pe_kind:
    0x10b: pe32
    0x20b: pe32_plus
