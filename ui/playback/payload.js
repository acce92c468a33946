// The run's arrays: one binary blob and a JSON header (see app_logic/payload/pack.py).

const TYPED = {
  uint8: Uint8Array,
  int8: Int8Array,
  uint16: Uint16Array,
  int16: Int16Array,
  uint32: Uint32Array,
  int32: Int32Array,
  float32: Float32Array,
  float64: Float64Array,
};

/**
 * Views on `bytes` (a Uint8Array) for every array the header lists: `{name: TypedArray}`.
 * The blob is copied once into its own buffer, so every view starts at an
 * aligned offset; the arrays are flat (row-major), their shapes in `shapes`.
 */
export function decode(header, bytes) {
  const buffer = bytes.slice().buffer; // aligned copy: bytes may sit at any offset
  const arrays = {};
  const shapes = {};
  for (const [name, spec] of Object.entries(header)) {
    const Typed = TYPED[spec.dtype];
    if (!Typed) throw new Error(`unknown dtype ${spec.dtype} for ${name}`);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (!littleEndian()) throw new Error("this browser is big-endian; the data are little-endian");
    arrays[name] = new Typed(buffer, spec.offset, count);
    shapes[name] = spec.shape;
  }
  return { arrays, shapes, nbytes: bytes.byteLength };
}

function littleEndian() {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}
