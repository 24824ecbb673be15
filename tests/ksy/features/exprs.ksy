meta:
  id: exprs
  endian: le
  encoding: UTF-8
seq:
  - id: a
    type: u2
  - id: b
    type: s2
  - id: name
    type: str
    size: 6
  - id: blob
    size: 4
  - id: nums
    type: u1
    repeat: expr
    repeat-expr: 4
  - id: rec
    type: rec
  - id: rest
    size-eos: true
types:
  rec:
    seq:
      - id: x
        type: u1
      - id: y
        type: u1
instances:
  sum:
    value: a + b
  mixed:
    value: a * 3 - b / 2 + (a % 7) - (b % 5)
  floor_div:
    value: b / 4
  shifts:
    value: (a << 3) | (a >> 2) & 0xff ^ 0x0f
  cmp:
    value: 'a > b and not (a == 0) or b < -100'
  tern:
    value: 'a > 100 ? a - 100 : a + 100'
  float_mix:
    value: a / 2.0 + 0.25
  float_to_i:
    value: (a / 3.0).to_i
  name_len:
    value: name.length
  name_rev:
    value: name.reverse
  name_sub:
    value: name.substring(1, 4)
  name_cat:
    value: name + "!"
  name_num:
    value: '"123".to_i + "ff".to_i(16)'
  num_str:
    value: a.to_s
  blob_len:
    value: blob.length
  blob_first:
    value: blob.first
  blob_last:
    value: blob.last
  blob_min:
    value: blob.min
  blob_max:
    value: blob.max
  blob_text:
    value: blob.to_s("ASCII")
  blob_is:
    value: blob == [0x41, 0x42, 0x43, 0x44]
  nums_max:
    value: nums.max
  nums_min:
    value: nums.min
  nums_size:
    value: nums.size
  nums_second:
    value: nums[1]
  cast:
    value: (a + 300).as<u1>
  signed_cast:
    value: a.as<s1>
  size_rec:
    value: sizeof<rec>
  bits_rec:
    value: bitsizeof<rec>
  size_u4:
    value: sizeof<u4>
  rec_size:
    value: rec._sizeof
  io_size:
    value: _io.size
  io_pos:
    value: _io.pos
  at_end:
    value: _io.eof
  rest_len:
    value: rest.size
  bool_int:
    value: (a > 0).to_i
