# ELF object files: the identification bytes choose the word size and the byte
# order of everything after them; section headers and names are read where the
# header says they are.
meta:
  id: elf
  file-extension: [o, so, elf]
  encoding: ASCII
seq:
  - id: ident
    type: ident
  - id: header
    type: header
types:
  ident:
    seq:
      - id: magic
        contents: [0x7f, "ELF"]
      - id: class
        type: u1
        enum: word_size
      - id: data
        type: u1
        enum: byte_order
      - id: version
        type: u1
      - id: abi
        type: u1
      - id: abi_version
        type: u1
      - id: pad
        size: 7
  header:
    meta:
      endian:
        switch-on: _root.ident.data
        cases:
          byte_order::le: le
          byte_order::be: be
    seq:
      - id: kind
        type: u2
        enum: object_kind
      - id: machine
        type: u2
      - id: version
        type: u4
      - id: entry
        type: word
      - id: ph_offset
        type: word
      - id: sh_offset
        type: word
      - id: flags
        type: u4
      - id: header_size
        type: u2
      - id: ph_entry_size
        type: u2
      - id: ph_count
        type: u2
      - id: sh_entry_size
        type: u2
      - id: sh_count
        type: u2
      - id: names_index
        type: u2
    instances:
      sections:
        pos: sh_offset.value
        size: sh_entry_size
        type: section
        repeat: expr
        repeat-expr: sh_count
      names:
        pos: sections[names_index].offset.value
        size: sections[names_index].size.value
        type: names
        if: names_index < sh_count
    types:
      word:
        seq:
          - id: value
            type:
              switch-on: _root.ident.class
              cases:
                word_size::bits32: u4
                word_size::bits64: u8
      section:
        -webide-representation: '{kind}'
        seq:
          - id: name_offset
            type: u4
          - id: kind
            type: u4
            enum: section_kind
          - id: flags
            type: word
          - id: addr
            type: word
          - id: offset
            type: word
          - id: size
            type: word
          - id: link
            type: u4
          - id: info
            type: u4
          - id: align
            type: word
          - id: entry_size
            type: word
      names:
        seq:
          - id: entries
            type: strz
            repeat: eos
enums:
  word_size:
    1: bits32
    2: bits64
  byte_order:
    1: le
    2: be
  object_kind:
    0: none
    1: relocatable
    2: executable
    3: shared
    4: core
  section_kind:
    0: null_section
    1: progbits
    2: symtab
    3: strtab
    4: rela
    5: hash
    6: dynamic
    7: note
    8: nobits
    9: rel
    11: dynsym
    14: init_array
    15: fini_array
