// The zarrita.js 0.7.5 side of tests/interop/test_zarrita.cpp. The test copies
// this file next to the node_modules that zarrita_setup.sh installed and runs
//
//   node zarrita_peer.mjs read  SPEC.json RESULT.json
//   node zarrita_peer.mjs write SPEC.json RESULT.json
//
// read:  SPEC {"cases": [{name, path, box: {start, count} | null, out, format?}]}.
//        Opens each v3 array (v2 with "format": 2) with zarrita (FileSystemStore), reads it whole and
//        the box, and writes the C-order little-endian bytes of both to
//        OUT.whole.bin and OUT.box.bin. RESULT: [{name, ok, dtype, shape,
//        chunks, fill_value, attributes, dimension_names, error}]. A "string"
//        array (1-D) is written whole as a JSON list to OUT.whole.json instead.
// write: SPEC {"root", "groups": [{path, attributes}], "arrays": [{name, path,
//        dtype, shape, chunk_shape, separator, codecs, fill_value?, attributes?,
//        dimension_names?, writes: [{start, count, file} | {start, count,
//        scalar} | {scalar}], readback}]}. Creates the groups and arrays with
//        zarr.create, applies the writes with zarr.set (values from FILE, raw
//        C-order little-endian bytes) and reads each array back with zarrita
//        into READBACK (C-order little-endian bytes). RESULT: [{name, ok, error}].
//
// Every case is independent: one failing case is reported and the rest run.
// The process exits 0 unless the spec itself cannot be handled.
import * as fs from "node:fs";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";

const ITEM_SIZE = {
  bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4,
  int64: 8, uint64: 8, float16: 2, float32: 4, float64: 8,
};

function typedArrayFor(dtype) {
  const ctors = {
    bool: zarr.BoolArray, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
    uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array,
    uint64: BigUint64Array, float32: Float32Array, float64: Float64Array,
  };
  const ctor = ctors[dtype];
  if (!ctor) throw new Error(`zarrita_peer.mjs: no typed array for data type ${dtype}`);
  return ctor;
}

function product(v) {
  return v.reduce((a, b) => a * b, 1);
}

// Raw bytes of a zarrita data buffer (typed array or BoolArray).
function rawBytes(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

// A zarrita chunk {data, shape, stride} (strides in elements, any order) as
// C-order bytes, copied item by item so no value passes through a JS number.
function cOrderBytes(chunk, itemSize) {
  const { shape, stride } = chunk;
  const src = rawBytes(chunk.data);
  const n = product(shape);
  const out = new Uint8Array(n * itemSize);
  const idx = new Array(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < shape.length; d++) off += idx[d] * stride[d];
    out.set(src.subarray(off * itemSize, (off + 1) * itemSize), i * itemSize);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// The bytes of one scalar as zarrita returns it for a 0-d array.
function scalarBytes(dtype, value) {
  const Ctor = typedArrayFor(dtype);
  const a = new Ctor(1);
  if (a instanceof zarr.BoolArray) a.set(0, value);
  else a[0] = value;
  return rawBytes(a).slice();
}

function jsonSafe(v) {
  return typeof v === "bigint" ? v.toString() : v;
}

function errorText(e) {
  let text = `${e?.name ?? "Error"}: ${e?.message ?? String(e)}`;
  if (e?.cause) text += ` (cause: ${e.cause?.message ?? String(e.cause)})`;
  return text;
}

async function readCase(c) {
  const store = new FileSystemStore(c.path);
  const open = c.format === 2 ? zarr.open.v2 : zarr.open.v3;
  const arr = await open(zarr.root(store), { kind: "array" });
  const result = {
    name: c.name, ok: false, dtype: arr.dtype, shape: arr.shape, chunks: arr.chunks,
    fill_value: jsonSafe(arr.fillValue), attributes: arr.attrs,
    dimension_names: arr.dimensionNames ?? null,
  };
  if (arr.dtype === "string") {
    // Variable-length strings have no bytes to compare: their values, whole.
    fs.writeFileSync(`${c.out}.whole.json`, JSON.stringify(Array.from((await zarr.get(arr)).data)));
    result.ok = true;
    return result;
  }
  const itemSize = ITEM_SIZE[arr.dtype];
  if (!itemSize) throw new Error(`no item size for ${arr.dtype}`);
  if (arr.shape.length === 0) {
    fs.writeFileSync(`${c.out}.whole.bin`, scalarBytes(arr.dtype, await zarr.get(arr)));
  } else {
    fs.writeFileSync(`${c.out}.whole.bin`, cOrderBytes(await zarr.get(arr), itemSize));
    if (c.box) {
      const sel = c.box.start.map((s, d) => zarr.slice(s, s + c.box.count[d]));
      fs.writeFileSync(`${c.out}.box.bin`, cOrderBytes(await zarr.get(arr, sel), itemSize));
    }
  }
  result.ok = true;
  return result;
}

// Values for zarr.set from a file of C-order little-endian bytes.
function chunkFromFile(dtype, file, count) {
  const bytes = fs.readFileSync(file);
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  const Ctor = typedArrayFor(dtype);
  const n = product(count);
  if (n * ITEM_SIZE[dtype] !== bytes.byteLength) {
    throw new Error(`${file}: ${bytes.byteLength} bytes for ${n} elements of ${dtype}`);
  }
  const stride = new Array(count.length).fill(1);
  for (let d = count.length - 2; d >= 0; d--) stride[d] = stride[d + 1] * count[d + 1];
  return { data: new Ctor(buffer, 0, n), shape: count, stride };
}

function scalarValue(dtype, v) {
  if (dtype === "int64" || dtype === "uint64") return BigInt(v);
  if (dtype === "bool") return Boolean(v);
  if (v === "NaN") return NaN;
  if (v === "Infinity") return Infinity;
  if (v === "-Infinity") return -Infinity;
  return v;
}

async function writeCase(rootDir, a) {
  const store = new FileSystemStore(rootDir);
  const options = {
    shape: a.shape, chunkShape: a.chunk_shape, dtype: a.dtype, codecs: a.codecs,
    chunkSeparator: a.separator,
  };
  // As JSON gives it: zarr.create stores it as is (a BigInt would not
  // serialise) and the array converts it (BigInt for 64-bit integers, NaN and
  // the infinities from their strings).
  if ("fill_value" in a) options.fillValue = a.fill_value;
  if (a.attributes) options.attributes = a.attributes;
  if (a.dimension_names) options.dimensionNames = a.dimension_names;
  if (a.codecs === null) delete options.codecs;  // zarrita's default: []
  const arr = await zarr.create(zarr.root(store).resolve(a.path), options);
  for (const w of a.writes) {
    const sel = w.start ? w.start.map((s, d) => zarr.slice(s, s + w.count[d])) : null;
    const value = "scalar" in w ? scalarValue(a.dtype, w.scalar) : chunkFromFile(a.dtype, w.file, w.count);
    await zarr.set(arr, sel, value);
  }
  if (a.readback) {
    const back = await zarr.open.v3(zarr.root(store).resolve(a.path), { kind: "array" });
    const itemSize = ITEM_SIZE[a.dtype];
    const bytes = back.shape.length === 0
      ? scalarBytes(a.dtype, await zarr.get(back))
      : cOrderBytes(await zarr.get(back), itemSize);
    fs.writeFileSync(a.readback, bytes);
  }
}

async function main() {
  const [mode, specPath, resultPath] = process.argv.slice(2);
  const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
  const results = [];
  if (mode === "read") {
    for (const c of spec.cases) {
      try {
        results.push(await readCase(c));
      } catch (e) {
        results.push({ name: c.name, ok: false, error: errorText(e) });
      }
    }
  } else if (mode === "write") {
    const store = new FileSystemStore(spec.root);
    for (const g of spec.groups) {
      try {
        await zarr.create(zarr.root(store).resolve(g.path), { attributes: g.attributes });
        results.push({ name: `group:${g.path}`, ok: true });
      } catch (e) {
        results.push({ name: `group:${g.path}`, ok: false, error: errorText(e) });
      }
    }
    for (const a of spec.arrays) {
      try {
        await writeCase(spec.root, a);
        results.push({ name: a.name, ok: true });
      } catch (e) {
        results.push({ name: a.name, ok: false, error: errorText(e) });
      }
    }
  } else {
    throw new Error(`unknown mode ${mode}: expected read or write`);
  }
  fs.writeFileSync(resultPath, JSON.stringify(results, null, 1));
}

await main();
