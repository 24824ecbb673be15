// Files the browser tests open that are not bundled samples: built here, byte by
// byte, so the tests say exactly what they contain.

/**
 * A DXBC container holding `parts` ([fourcc, Uint8Array]); the digest is left zero.
 * `gap` bytes (0xEE) that no field describes sit between the header and the parts.
 */
export function dxbc(parts, { gap = 0 } = {}) {
  const headerSize = 32 + 4 * parts.length;
  let size = headerSize + gap;
  const offsets = parts.map(([, data]) => {
    const at = size;
    size += 8 + data.length;
    return at;
  });
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode('DXBC'), 0);
  dv.setUint16(20, 1, true); // version 1.0
  dv.setUint16(22, 0, true);
  dv.setUint32(24, size, true);
  dv.setUint32(28, parts.length, true);
  out.fill(0xee, headerSize, headerSize + gap);
  parts.forEach(([cc, data], i) => {
    dv.setUint32(32 + 4 * i, offsets[i], true);
    out.set(new TextEncoder().encode(cc), offsets[i]);
    dv.setUint32(offsets[i] + 4, data.length, true);
    out.set(data, offsets[i] + 8);
  });
  return out;
}

/** An SM4 input signature (ISGN) with one element whose semantic name is `name`. */
export function isgn(name) {
  const str = new TextEncoder().encode(name + '\0');
  const len = 8 + 24 + str.length;
  const data = new Uint8Array((len + 3) & ~3);
  const dv = new DataView(data.buffer);
  dv.setUint32(0, 1, true); // ParamCount
  dv.setUint32(4, 8, true); // ParamOffset
  dv.setUint32(8, 32, true); // Name: offset of the string from the part data
  dv.setUint32(12, 0, true); // SemanticIndex
  dv.setUint32(16, 0, true); // SystemValue
  dv.setUint32(20, 3, true); // ComponentType: float32
  dv.setUint32(24, 0, true); // Register
  data[28] = 0x0f; // Mask
  data[29] = 0x0f; // ReadWriteMask
  data.set(str, 32);
  return data;
}

/** The XSS probe: a string-table entry that would run script if inserted as HTML. */
export const XSS = '<img src=x onerror=alert(1)>';

export function xssContainer() {
  return dxbc([['ISGN', isgn(XSS)]]);
}

/**
 * A dense container: `n` input signatures, each naming one element `E<i>`, one
 * after another (a part table and a list of parts long enough to come in pages).
 */
export function denseContainer(n) {
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(['ISGN', isgn(`E${i}`)]);
  return dxbc(parts);
}
