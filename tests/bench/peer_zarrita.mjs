// The zarrita.js 0.7.5 side of scripts/bench.sh (docs/performance.md).
// scripts/bench.py copies this file next to the node_modules it installed and runs
//
//   node peer_zarrita.mjs read  DIR RUNS          open + read the whole v3 array (zarr.get)
//   node peer_zarrita.mjs write DIR DATA RUNS     create the v3 array of 8 MiB chunks
//                                                 ([16, 512, 512], bytes + zstd 1) + write it whole (zarr.set)
//
// Each prints one line "RESULT {json}" as tests/bench/bench_region_io.cpp does:
// best_s, runs_s and the checksum [sum v, sum v * (i % 251 + 1)] of the values
// read (after the timed runs; for write, of the array read back).
import * as fs from "node:fs";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";

const SHAPE = [64, 1024, 2048];

function checksum(values) {
  let s1 = 0, s2 = 0, w = 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    s1 += v;
    s2 += v * w;
    if (++w === 252) w = 1;
  }
  return [s1, s2];
}

function cOrder(chunk) {
  const { shape, stride } = chunk;
  let expect = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] > 1 && stride[d] !== expect) throw new Error(`zarrita returned strides ${stride}, not C order`);
    expect *= shape[d];
  }
  return chunk.data;
}

function result(runs, extra) {
  console.log("RESULT " + JSON.stringify({ best_s: Math.min(...runs), runs_s: runs, ...extra }));
}

async function readWhole(dir) {
  const arr = await zarr.open.v3(zarr.root(new FileSystemStore(dir)), { kind: "array" });
  return zarr.get(arr);
}

async function cmdRead(dir, runs) {
  const times = [];
  let chunk = null;
  for (let r = 0; r < runs; r++) {
    chunk = null;  // let the previous result go before timing the next read
    const t0 = performance.now();
    chunk = await readWhole(dir);
    times.push((performance.now() - t0) / 1000);
  }
  result(times, { checksum: checksum(cOrder(chunk)) });
}

async function cmdWrite(dir, dataPath, runs) {
  const bytes = fs.readFileSync(dataPath);
  const data = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  const value = { data, shape: SHAPE, stride: [SHAPE[1] * SHAPE[2], SHAPE[2], 1] };
  const times = [];
  for (let r = 0; r < runs; r++) {
    fs.rmSync(dir, { recursive: true, force: true });  // untimed: every run writes a new array
    const t0 = performance.now();
    const arr = await zarr.create(zarr.root(new FileSystemStore(dir)), {
      shape: SHAPE, chunkShape: [16, 512, 512], dtype: "uint16", fillValue: 0,
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "zstd", configuration: { level: 1, checksum: false } },
      ],
    });
    await zarr.set(arr, null, value);
    times.push((performance.now() - t0) / 1000);
  }
  const back = cOrder(await readWhole(dir));
  const sum = checksum(back);
  const want = checksum(data);
  if (sum[0] !== want[0] || sum[1] !== want[1]) throw new Error(`${dir} does not read back as the data`);
  result(times, { checksum: sum });
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "read") await cmdRead(args[0], Number(args[1]));
else if (cmd === "write") await cmdWrite(args[0], args[1], Number(args[2]));
else throw new Error(`peer_zarrita.mjs: unknown command ${cmd}`);
