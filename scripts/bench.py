#!/usr/bin/env python3
"""Region I/O benchmark driver: libzarr against zarr-python and zarrita.js.

Run through scripts/bench.sh, which builds build-bench (release) and installs
zarrita first; docs/performance.md explains the workloads and the figures.
Standard library only. A benchmark: it prints figures and never fails on speed
(it exits non-zero only when a program fails or a library reads wrong values).

    python3 scripts/bench.py [--build build-bench] [--zarrita DIR] [--runs 5]
                             [--peer-runs 5] [--zarrita-runs 3] [--only W1,W5]
                             [--data-dir /dev/shm/libzarr-bench] [--keep-data]
                             [--sel-runs 3] [--align] [--scaling [--threads 1,2]] [--all]
                             [--remote [--remote-runs 2] [--remote-mbs 200]
                                       [--remote-latencies 10,50]
                                       [--remote-concurrency 0] [--s3rver DIR]]

--only S runs the selection workloads alone (issue 22: oindex, vindex, masks and
steps on a float64 array, read and written through the C API, libzarr's Python
binding and zarr-python); they run after the region workloads by default.

--align (issue 25) also reads W1, W2, W4 and W6r (those of --only) into buffers
placed 16, 64 and 4096 bytes past a page boundary: malloc'd through the C API,
NumPy arrays through libzarr's Python binding and zarr-python (not W6r: v3).

--scaling (issue 25) also reads W1, W2, W4 and W6r (those of --only) through the C
API at each thread count of --threads (ZARR_NUM_THREADS; default 1, 2 and the
machine's CPUs when it has more) and prints the speed-up over one thread, then runs
tests/bench/bench_pool (the thread pool's cost per task, the chunk lock table's per
lock and a chunk buffer's allocation, at 1 to 64 threads: docs/scaling.md).

--all runs everything issue 25 asks for in one run: the region workloads with their
peers, ceilings and floors, --align, --scaling, the selections, then --remote.

--remote (issue 25) runs the remote workloads alone: W2, W4 and W6r (those of
--only) read whole over HTTP from Debian's nginx through a proxy that adds 10 ms,
then 50 ms, per request and caps the bandwidth (scripts/bench_remote.py), through
the C API, libzarr's Python binding and zarr-python + fsspec, beside the ideal;
with --s3rver (scripts/bench.sh passes it), also over S3 from s3rver, C API only.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

import bench_remote
from bench_table import print_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER_PYTHON = "/usr/bin/python3"  # Debian's zarr 2.13.6 + numcodecs 0.11; not the python3 first on PATH
MIB = 1 << 20
ARRAY_BYTES = 64 * 1024 * 2048 * 2  # 256 MiB of uint16
CHUNK_BYTES = 16 * 512 * 512 * 2  # 8 MiB
N_WINDOWS = 2000
WINDOW_SEED = 20251123

# name, what, peer, target ratio (peer s / libzarr s)
WORKLOADS = [
    ("W1", "read raw, 8 MiB chunks, v2 (into out=)", "zarr-python", 2.0),
    ("W2", "read zstd 1, 8 MiB chunks, v2", "zarr-python", 2.1),
    ("W2b", "read blosc lz4+shuffle, 8 MiB chunks, v2", "zarr-python", 1.6),
    ("W3", "write zstd 1, 8 MiB chunks, v2", "zarr-python", 1.7),
    ("W4", "read zstd 1, 32^3 chunks, v2", "zarr-python", 4.0),
    ("W5", "2000 random 16^3 windows, 32^3 zstd, v2", "zarr-python", 2.5),
    ("W6r", "read sharded v3 (64x256x256 / 32^3, zstd 1)", "zarrita.js", 12.0),
    ("W6w", "write v3, 8 MiB chunks, zstd 1", "zarrita.js", 12.0),
]

# Selection workloads (issue 22) on float64 [5120, 5120], [512, 512] chunks, blosc lz4:
# name, what (zarr-python's spelling), workload of bench_region_io / peer_selections.py.
SELECTION_SIDE = 5120
SELECTION_SEED = 20251126
SELECTIONS = [
    ("S1", "a.oindex[rows, cols], 200 sorted random indices each", "oindex"),
    ("S2", "a.vindex[r, c], 10 000 random points", "vindex"),
    ("S3", "a.get/set_mask_selection(mask), 2-D mask of every 3rd row (a[mask] = 5)", "mask"),
    ("S3o", "a.oindex[row_mask, :], 1-D mask of every 3rd row (= 5)", "maskrows"),
    ("S4", "a[::3, ::3]", "step"),
]


# Buffer offsets past a page boundary of --align: where malloc and NumPy put a
# large buffer, a cache line, a page.
ALIGN_OFFSETS = (16, 64, 4096)
ALIGN_WORKLOADS = ("W1", "W2", "W4", "W6r")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, timeout=1800):
    """Run a benchmark program; return the JSON of its RESULT line and its stderr."""
    log("  $ " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise SystemExit(f"bench.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):]), p.stderr
    raise SystemExit(f"bench.py: no RESULT line from {' '.join(cmd)}:\n{p.stdout}\n{p.stderr}")


def merged(results):
    """Several RESULTs of one program: the best time of all, every run, the first's other figures."""
    if not results or results[0] is None:
        return None
    out = dict(results[0])
    out["runs_s"] = [t for r in results for t in r["runs_s"]]
    out["best_s"] = min(r["best_s"] for r in results)
    if any(r.get("checksum") != out.get("checksum") for r in results):
        out["checksum"] = "rounds disagree: " + json.dumps([r.get("checksum") for r in results])
    return out


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def build_options(build):
    try:
        with open(os.path.join(build, "meson-info", "intro-buildoptions.json")) as f:
            return {o["name"]: o["value"] for o in json.load(f)}
    except (OSError, ValueError):
        return {}


def machine():
    info = {}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"^Model name:\s*(.+)$", out, re.M)
        info["cpu"] = m.group(1).strip() if m else "?"
    except OSError:
        info["cpu"] = "?"
    info["nproc"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s*(\d+)", f.read()).group(1))
        info["ram_gib"] = round(kb / (1 << 20), 1)
    except (OSError, AttributeError):
        info["ram_gib"] = "?"
    try:
        with open("/etc/os-release") as f:
            m = re.search(r'^PRETTY_NAME="?([^"\n]+)', f.read(), re.M)
        info["os"] = m.group(1) if m else "?"
    except OSError:
        info["os"] = "?"
    try:
        info["compiler"] = subprocess.run(["c++", "--version"], capture_output=True,
                                          text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        info["compiler"] = "?"
    try:
        info["node"] = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        info["node"] = "absent"
    return info


def dir_bytes(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(dirpath, f))
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--zarrita", default=None, help="folder with node_modules/zarrita and peer_zarrita.mjs")
    ap.add_argument("--runs", type=int, default=5, help="libzarr runs per workload (best is kept)")
    ap.add_argument("--peer-runs", type=int, default=5, help="zarr-python runs per workload")
    ap.add_argument("--zarrita-runs", type=int, default=3, help="zarrita.js runs per workload")
    ap.add_argument("--rounds", type=int, default=2,
                    help="each workload runs libzarr then its peer this many times, best of all kept")
    ap.add_argument("--only", default="", help="comma-separated workloads (default: all)")
    ap.add_argument("--data-dir", default=None, help="default /dev/shm/libzarr-bench (or /tmp/... without /dev/shm)")
    ap.add_argument("--keep-data", action="store_true", help="leave the generated arrays in place")
    ap.add_argument("--sel-runs", type=int, default=3, help="runs per selection workload and library")
    ap.add_argument("--align", action="store_true",
                    help="also read W1/W2/W4/W6r into buffers at page offsets 16, 64 and 4096")
    ap.add_argument("--scaling", action="store_true",
                    help="also read W1/W2/W4/W6r at each thread count of --threads, and run bench_pool")
    ap.add_argument("--threads", default=None,
                    help="thread counts of --scaling (default 1,2 and the machine's CPUs)")
    ap.add_argument("--all", action="store_true",
                    help="everything in one run: the workloads, --align, --scaling, the selections, then --remote")
    ap.add_argument("--remote", action="store_true",
                    help="only the remote workloads: W2/W4/W6r over HTTP with 10 and 50 ms per request")
    ap.add_argument("--remote-runs", type=int, default=2, help="runs per remote workload, side and latency")
    ap.add_argument("--remote-mbs", type=float, default=200, help="the remote link's bandwidth, MB/s")
    ap.add_argument("--remote-latencies", default=bench_remote.LATENCIES_MS,
                    help="latencies per request of the remote workloads, ms (0: the proxy's own ceiling)")
    ap.add_argument("--s3rver", default=None,
                    help="s3rver's folder (tests/stores/s3rver_setup.sh): --remote also reads over S3 from it")
    ap.add_argument("--remote-concurrency", type=int, default=bench_remote.DEFAULT_CONCURRENCY,
                    help="libzarr's max_concurrency for the remote workloads (0, the default: none given, libzarr chooses)")
    ap.add_argument("--json", default=None, help="where to write every figure (default BUILD/bench-results.json)")
    args = ap.parse_args()
    args.remote_latencies = [int(v) for v in args.remote_latencies.split(",") if v.strip()]
    if args.all:
        args.align = args.scaling = True

    build = os.path.abspath(args.build)
    lib = os.path.join(build, "tests", "bench", "bench_region_io")
    ceil = os.path.join(build, "tests", "bench", "bench_ceilings")
    for exe in (lib, ceil):
        if not os.path.exists(exe):
            raise SystemExit(f"bench.py: {exe} is missing: run scripts/bench.sh (it builds {build})")
    opts = build_options(build)
    if opts.get("buildtype") != "release" or opts.get("b_ndebug") not in ("true", True):
        log(f"bench.py: WARNING: {build} is buildtype={opts.get('buildtype')} b_ndebug={opts.get('b_ndebug')}, "
            "not a release build")
    peer_py = os.path.join(ROOT, "tests", "bench", "peer_zarr_python.py")
    zarrita_js = os.path.join(args.zarrita, "peer_zarrita.mjs") if args.zarrita else None
    if zarrita_js and not os.path.exists(zarrita_js):
        log(f"bench.py: {zarrita_js} is missing: the zarrita.js rows are skipped")
        zarrita_js = None
    only = {w.strip() for w in args.only.split(",") if w.strip()}
    wanted = [w for w in WORKLOADS if not only or w[0] in only or (w[0].startswith("W6") and "W6" in only)]
    selections_wanted = not only or "S" in only

    data_dir = args.data_dir or ("/dev/shm/libzarr-bench" if os.path.isdir("/dev/shm") else "/tmp/libzarr-bench")
    os.makedirs(data_dir, exist_ok=True)
    d = lambda name: os.path.join(data_dir, name)  # noqa: E731
    info = machine()
    load_start = loadavg()
    t_start = time.time()
    log(f"bench.py: data in {data_dir}; load average {load_start} on {info['nproc']} CPUs")

    if args.remote:
        return main_remote(args, lib, d, data_dir, info, [w[0] for w in wanted], build)
    if not wanted:  # --only S
        selections = run_selections(args, lib, d)
        print_selections(selections, info, args)
        out = args.json or os.path.join(build, "bench-results.json")
        with open(out, "w") as f:
            json.dump({"machine": info, "selections": selections}, f, indent=1)
        print(f"\n(all figures: {out})")
        if not args.keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)
        return 1 if selections["problems"] else 0
    # --- data: the raw values and the arrays the read workloads read (written by libzarr, untimed) ---
    gen, _ = run([lib, "gen", d("data.u16")])
    expected = gen["checksum"]
    kinds = {"v2raw8", "v2zstd8", "v2lz48", "v2zstd32", "v3shard"}
    for kind in sorted(kinds):
        run([lib, "create", kind, d(kind), d("data.u16")])
    rng = random.Random(WINDOW_SEED)
    with open(d("windows.txt"), "w") as f:
        for _ in range(N_WINDOWS):
            f.write(f"{rng.randint(0, 64 - 16)} {rng.randint(0, 1024 - 16)} {rng.randint(0, 2048 - 16)}\n")

    # --- ceilings ---
    ceilings, _ = run([ceil, d("v2zstd8"), d("v2lz48"), d("v2zstd32"), d("v2raw8"), d("v3shard"), str(args.runs)])

    # --- workloads ---
    rows = {}
    problems = []

    def lib_cmd(name):
        return {
            "W1": ["read", d("v2raw8")], "W2": ["read", d("v2zstd8")], "W2b": ["read", d("v2lz48")],
            "W3": ["write", "v2zstd8", d("w3-libzarr"), d("data.u16")], "W4": ["read", d("v2zstd32")],
            "W5": ["windows", d("v2zstd32"), d("windows.txt")], "W6r": ["read", d("v3shard")],
            "W6w": ["write", "v3zstd8", d("w6-libzarr"), d("data.u16")],
        }[name]

    def peer_cmd(name):
        if name.startswith("W6"):
            if not zarrita_js:
                return None, 0
            sub = ["read", d("v3shard")] if name == "W6r" else ["write", d("w6-zarrita"), d("data.u16")]
            return ["node", "--max-old-space-size=4096", zarrita_js] + sub, args.zarrita_runs
        sub = {
            "W1": ["read", d("v2raw8")], "W2": ["read", d("v2zstd8")], "W2b": ["read", d("v2lz48")],
            "W3": ["write", "v2zstd8", d("w3-zarr-python"), d("data.u16")], "W4": ["read", d("v2zstd32")],
            "W5": ["windows", d("v2zstd32"), d("windows.txt")],
        }[name]
        return [PEER_PYTHON, peer_py] + sub, args.peer_runs

    for name, what, peer, target in wanted:
        log(f"bench.py: {name}: {what}")
        # Rounds alternate the two libraries, so that a disturbance of the
        # machine (other virtual machines on the host) spoils one round of
        # each rather than all the runs of one side.
        cmd, peer_runs = peer_cmd(name)
        mine_rounds, their_rounds = [], []
        for _ in range(max(1, args.rounds)):
            mine_rounds.append(run([lib] + lib_cmd(name) + [str(args.runs)])[0])
            their_rounds.append(run(cmd + [str(peer_runs)])[0] if cmd else None)
        mine, theirs = merged(mine_rounds), merged(their_rounds)
        row = {"what": what, "peer": peer, "target": target, "libzarr": mine, "peer_result": theirs,
               "runs": args.runs, "peer_runs": peer_runs}
        # Honesty: both libraries read (or wrote and read back) the same values.
        if name == "W5":
            same = theirs is None or mine["checksum"] == theirs["checksum"]
        else:
            same = mine["checksum"] == expected and (theirs is None or theirs["checksum"] == expected)
        row["same_values"] = same
        if not same:
            problems.append(f"{name}: checksums differ: libzarr {mine['checksum']}, peer "
                            f"{theirs and theirs['checksum']}, data {expected}")
        rows[name] = row

    aligned = run_alignments(args, lib, d, [w[0] for w in wanted], expected, problems) if args.align else None
    scaling = run_scaling(args, lib, d, [w[0] for w in wanted], expected, problems, info) if args.scaling else None

    # Stored sizes of what each library wrote (same codec, so they should be close).
    written = {}
    for name in ("w3-libzarr", "w3-zarr-python", "w6-libzarr", "w6-zarrita"):
        if os.path.isdir(d(name)):
            written[name] = dir_bytes(d(name))

    # --- peak RSS of a 1 GiB write + read, one call each ---
    rss = None
    if os.path.exists("/usr/bin/time") and (not only or "RSS" in only):
        log("bench.py: peak RSS of a 1 GiB write + read")
        p = subprocess.run(["/usr/bin/time", "-v", lib, "rss", d("rss1g")], capture_output=True, text=True)
        m = re.search(r"Maximum resident set size \(kbytes\):\s*(\d+)", p.stderr)
        res = next((json.loads(l[7:]) for l in p.stdout.splitlines() if l.startswith("RESULT ")), None)
        if p.returncode != 0 or not m or not res:
            problems.append(f"rss run failed: {p.stdout}\n{p.stderr[-2000:]}")
        else:
            threads = info["nproc"]
            bound = res["region_bytes"] + 2 * threads * CHUNK_BYTES + 16 * MIB
            rss = {"max_rss_bytes": int(m.group(1)) * 1024, "bound_bytes": bound, "threads": threads, **res}

    selections = run_selections(args, lib, d) if selections_wanted else None
    if selections:
        problems += selections["problems"]

    load_end = loadavg()
    elapsed = time.time() - t_start

    # --- report ---
    def fmt_s(r):
        return f"{r['best_s']:.3f}" if r else "n/a"

    print()
    print(f"libzarr region I/O benchmark: {info['cpu']}, {info['nproc']} CPUs, {info['ram_gib']} GiB RAM, "
          f"{info['os']}, {info['compiler']}, node {info['node']}")
    print(f"data: uint16 [64, 1024, 2048] (256 MiB) in {data_dir}, warm page cache; best of {args.rounds} "
          f"rounds of {args.runs} (libzarr), {args.peer_runs} (zarr-python), {args.zarrita_runs} (zarrita.js) runs; "
          f"load average {load_start} at start, {load_end} at end; {elapsed:.0f} s")
    print()
    header = ("workload", "libzarr s", "peer s", "ratio", "target", "libzarr MB/s", "peer", "values")
    table = []
    for name, row in rows.items():
        mine, theirs = row["libzarr"], row["peer_result"]
        nbytes = N_WINDOWS * 16 ** 3 * 2 if name == "W5" else ARRAY_BYTES
        ratio = f"{theirs['best_s'] / mine['best_s']:.2f}" if theirs else "n/a"
        table.append((f"{name} {row['what']}", fmt_s(mine), fmt_s(theirs), ratio, f">= {row['target']:g}",
                      f"{nbytes / mine['best_s'] / 1e6:.0f}", row["peer"],
                      "same" if row["same_values"] else "DIFFER"))
    if "W6r" in rows and "W6w" in rows and rows["W6r"]["peer_result"] and rows["W6w"]["peer_result"]:
        lib_s = rows["W6r"]["libzarr"]["best_s"] + rows["W6w"]["libzarr"]["best_s"]
        peer_s = rows["W6r"]["peer_result"]["best_s"] + rows["W6w"]["peer_result"]["best_s"]
        table.append(("W6 = W6r + W6w", f"{lib_s:.3f}", f"{peer_s:.3f}", f"{peer_s / lib_s:.2f}", ">= 12",
                      f"{2 * ARRAY_BYTES / lib_s / 1e6:.0f}", "zarrita.js", ""))
    print_table(header, table, left=[0] + list(range(6, len(header))))
    print()
    print("ratio = peer s / libzarr s (higher is better for libzarr); targets are printed, never asserted.")

    n = ceilings["nproc"]
    memcpy = max(ceilings["memcpy_1t_gbs"], ceilings["memcpy_nt_gbs"])
    print()
    print("ceilings (same run, best of %d):" % args.runs)
    print(f"  memcpy 256 MiB: {ceilings['memcpy_1t_gbs']:.2f} GB/s on 1 thread, "
          f"{ceilings['memcpy_nt_gbs']:.2f} GB/s on {n} threads")
    print(f"  zstd decode of the W2 chunks ({ceilings['zstd_chunks']} chunks, "
          f"{ceilings['zstd_stored_bytes'] / MIB:.1f} MiB stored): {ceilings['zstd_1t_gbs']:.2f} GB/s on 1 thread, "
          f"x {n} = {ceilings['zstd_1t_gbs'] * n:.2f} GB/s")
    print(f"  blosc lz4+shuffle decode of the W2b chunks ({ceilings['blosc_chunks']} chunks, "
          f"{ceilings['blosc_stored_bytes'] / MIB:.1f} MiB stored): {ceilings['blosc_1t_gbs']:.2f} GB/s on 1 thread, "
          f"x {n} = {ceilings['blosc_1t_gbs'] * n:.2f} GB/s")
    print(f"  zstd decode of the W4 chunks ({ceilings['small_zstd_chunks']} chunks of 64 KiB): "
          f"{ceilings['small_zstd_1t_gbs']:.2f} GB/s on 1 thread ({ceilings['small_zstd_decode_us']:.1f} us a chunk), "
          f"and {ceilings['w4_floor']['files_1t_s'] / ceilings['small_zstd_chunks'] * 1e6:.1f} us to open, read "
          f"and close a chunk file")
    print(f"  zstd level 1 encode of the 8 MiB chunks: {ceilings['zstd1_encode_1t_gbs']:.2f} GB/s on 1 thread, "
          f"x {n} = {ceilings['zstd1_encode_1t_gbs'] * n:.2f} GB/s")
    if "W1" in rows:
        gbs = ARRAY_BYTES / rows["W1"]["libzarr"]["best_s"] / 1e9
        print(f"  libzarr W1: {gbs:.2f} GB/s = {100 * gbs / memcpy:.0f}% of the memcpy ceiling ({memcpy:.2f} GB/s)")
    if "W2" in rows:
        gbs = ARRAY_BYTES / rows["W2"]["libzarr"]["best_s"] / 1e9
        zc = ceilings["zstd_1t_gbs"] * n
        print(f"  libzarr W2: {gbs:.2f} GB/s = {100 * gbs / zc:.0f}% of the zstd ceiling ({zc:.2f} GB/s; aim >= 75%), "
              f"{100 * gbs / ceilings['zstd_1t_gbs']:.0f}% of one thread's zstd decode")
    if "W2b" in rows:
        gbs = ARRAY_BYTES / rows["W2b"]["libzarr"]["best_s"] / 1e9
        bc = ceilings["blosc_1t_gbs"] * n
        print(f"  libzarr W2b: {gbs:.2f} GB/s = {100 * gbs / bc:.0f}% of the blosc ceiling ({bc:.2f} GB/s)")
    # The floors: every chunk (or shard) file read and decoded, or encoded and
    # written, nothing copied from or to a caller's buffer. One thread's time
    # shared perfectly by the threads is what no engine beats; both threads
    # measured at once show what sharing the machine costs. With them, the
    # highest ratios these peer runs allow (docs/performance.md).
    floors = {"W2": ("w2", "the 8 MiB zstd chunk files opened and read", "decoded"),
              "W2b": ("w2b", "the 8 MiB blosc chunk files opened and read", "decoded"),
              "W3": ("write", "the 8 MiB chunks encoded with zstd 1", "written to files"),
              "W4": ("w4", "the 64 KiB zstd chunk files opened and read", "decoded"),
              "W6r": ("w6r", "the shard files opened and read", "their 64 KiB zstd chunks decoded"),
              "W6w": ("write", "the 8 MiB chunks encoded with zstd 1", "written to files")}

    def floor_s(name):
        f = ceilings[floors[name][0] + "_floor"]
        return (f["files_1t_s"] + f["codec_1t_s"]) / n

    def ratio_text(name, seconds):
        peer = rows[name]["peer_result"]
        return f" (a ratio of {peer['best_s'] / seconds:.2f})" if peer else ""

    for name, (key, first, then) in floors.items():
        if name not in rows:
            continue
        f = ceilings[key + "_floor"]
        files_s, codec_s = (f["codec_1t_s"], f["files_1t_s"]) if key == "write" else (f["files_1t_s"], f["codec_1t_s"])
        print(f"  {name} floor: {first} ({files_s:.3f} s) and {then} ({codec_s:.3f} s) on one thread, / {n} threads "
              f"= {floor_s(name):.3f} s{ratio_text(name, floor_s(name))}; on {n} threads at once "
              f"{f['together_s']:.3f} s{ratio_text(name, f['together_s'])}; libzarr "
              f"{rows[name]['libzarr']['best_s']:.3f} s")
    encode_gbs = ceilings["zstd1_encode_1t_gbs"] * n
    for name in ("W3", "W6w"):
        if name in rows:
            gbs = ARRAY_BYTES / rows[name]["libzarr"]["best_s"] / 1e9
            print(f"  libzarr {name}: {gbs:.2f} GB/s = {100 * gbs / encode_gbs:.0f}% of the zstd level 1 encode "
                  f"ceiling ({encode_gbs:.2f} GB/s)")
    if "W6r" in rows and "W6w" in rows and rows["W6r"]["peer_result"] and rows["W6w"]["peer_result"]:
        w6_floor = floor_s("W6r") + floor_s("W6w")
        zarrita_s = rows["W6r"]["peer_result"]["best_s"] + rows["W6w"]["peer_result"]["best_s"]
        print(f"  W6 floor: the W6r floor + the W6w floor = {w6_floor:.3f} s, so a W6 ratio of at most "
              f"{zarrita_s / w6_floor:.2f} against this zarrita.js run")
    if written:
        print()
        print("stored bytes written: " + ", ".join(f"{k} {v / MIB:.1f} MiB" for k, v in written.items()))
    if rss:
        print()
        print(f"peak RSS, libzarr 1 GiB write + read in one call each (uint16 [256, 1024, 2048], zstd 1, 8 MiB chunks; "
              f"write {rss['write_s']:.2f} s, read {rss['read_s']:.2f} s):")
        print(f"  Maximum resident set size {rss['max_rss_bytes'] / MIB:.0f} MiB; bound region bytes + 2 x "
              f"{rss['threads']} threads x 8 MiB + 16 MiB = {rss['bound_bytes'] / MIB:.0f} MiB "
              f"({'within' if rss['max_rss_bytes'] <= rss['bound_bytes'] else 'ABOVE'} the bound)")
    if aligned:
        print_alignments(aligned, info)
    if scaling:
        print_scaling(scaling, info)
    if selections:
        print_selections(selections, info, args)
    for p in problems:
        print("PROBLEM: " + p)

    out = args.json or os.path.join(build, "bench-results.json")
    with open(out, "w") as f:
        json.dump({"machine": info, "load_average": [load_start, load_end], "elapsed_s": elapsed,
                   "ceilings": ceilings, "workloads": rows, "written_bytes": written, "rss": rss, "alignments": aligned,
                   "scaling": scaling, "selections": selections, "problems": problems}, f, indent=1)
    print(f"\n(all figures: {out})")
    status = 1 if problems else 0
    if args.all:
        args.json = os.path.join(build, "bench-results-remote.json") if not args.json else args.json + ".remote"
        status = max(status, main_remote(args, lib, d, data_dir, info, [w[0] for w in wanted], build))
    if not args.keep_data:
        shutil.rmtree(data_dir, ignore_errors=True)
    return status


def main_remote(args, lib, d, data_dir, info, names, build):
    """--remote: the arrays the remote workloads read, then those workloads."""
    gen, _ = run([lib, "gen", d("data.u16")])
    kinds = {kind for name, kind, _, _ in bench_remote.REMOTE_WORKLOADS if name in names}
    for kind in sorted(kinds):
        run([lib, "create", kind, d(kind), d("data.u16")])
    problems = []
    remote = bench_remote.run_remote(args, lib, d, run, run_with_env, names, gen["checksum"], problems, log)
    bench_remote.print_remote(remote, info, ARRAY_BYTES)
    for p in problems:
        print("PROBLEM: " + p)
    out = args.json or os.path.join(build, "bench-results.json")
    with open(out, "w") as f:
        json.dump({"machine": info, "remote": remote, "problems": problems}, f, indent=1)
    print(f"\n(all figures: {out})")
    if not args.keep_data:
        shutil.rmtree(data_dir, ignore_errors=True)
    return 1 if problems else 0


def run_alignments(args, lib, d, names, expected, problems):
    """Whole reads of W1/W2/W4/W6r into buffers at each of ALIGN_OFFSETS past a page:
    the C API (bench_region_io read DIR RUNS OFFSET) and, into NumPy arrays, libzarr's
    Python binding and zarr-python (peer_zarr_python.py read DIR RUNS OFFSET LIBRARY).
    Rounds alternate the offsets, so that a disturbance spoils a round of each."""
    load_start = loadavg()
    dirs = {"W1": "v2raw8", "W2": "v2zstd8", "W4": "v2zstd32", "W6r": "v3shard"}
    peer_py = os.path.join(ROOT, "tests", "bench", "peer_zarr_python.py")
    env = dict(os.environ, LIBZARR_PATH=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(lib))),
                                                     "libzarr.so.1"))
    sides = {"c": lambda where, offset: ([lib, "read", where, str(args.runs), str(offset)], None),
             "python": lambda where, offset: ([PEER_PYTHON, peer_py, "read", where, str(args.runs), str(offset),
                                               "libzarr"], env),
             "zarr-python": lambda where, offset: ([PEER_PYTHON, peer_py, "read", where, str(args.peer_runs),
                                                    str(offset), "zarr"], None)}
    rows = {}
    for name in (n for n in ALIGN_WORKLOADS if n in names):
        log(f"bench.py: {name} at buffer offsets {ALIGN_OFFSETS}")
        results = {(side, offset): [] for side in sides for offset in ALIGN_OFFSETS}
        for _ in range(max(1, args.rounds)):
            for offset in ALIGN_OFFSETS:
                for side, command in sides.items():
                    if side == "zarr-python" and name == "W6r":
                        continue  # zarr-python 2.13 reads no v3
                    cmd, side_env = command(d(dirs[name]), offset)
                    results[(side, offset)].append(run_with_env(cmd, side_env) if side_env else run(cmd)[0])
        for (side, offset), found in results.items():
            if not found:
                continue
            best = merged(found)
            rows[f"{name} {side} {offset}"] = dict(best, name=name, side=side, offset=offset)
            if best["checksum"] != expected:
                problems.append(f"{name} at offset {offset} ({side}): checksum {best['checksum']}, data {expected}")
    return {"rows": rows, "load_average": [load_start, loadavg()], "runs": args.runs, "rounds": args.rounds}


SCALING_DIRS = {"W1": "v2raw8", "W2": "v2zstd8", "W4": "v2zstd32", "W6r": "v3shard"}


def thread_counts(args, info):
    if args.threads:
        return [int(v) for v in args.threads.split(",") if v.strip()]
    return sorted({1, 2, int(info["nproc"])})


def run_scaling(args, lib, d, names, expected, problems, info):
    """Whole reads of W1/W2/W4/W6r through the C API with ZARR_NUM_THREADS at each
    thread count (rounds alternate the counts), then bench_pool's costs per task."""
    load_start = loadavg()
    counts = thread_counts(args, info)
    rows = {}
    for name in (n for n in SCALING_DIRS if n in names):
        log(f"bench.py: {name} at ZARR_NUM_THREADS {counts}")
        found = {t: [] for t in counts}
        for _ in range(max(1, args.rounds)):
            for t in counts:
                env = dict(os.environ, ZARR_NUM_THREADS=str(t))
                log(f"  $ ZARR_NUM_THREADS={t} {lib} read {d(SCALING_DIRS[name])} {args.runs}")
                p = subprocess.run([lib, "read", d(SCALING_DIRS[name]), str(args.runs)], capture_output=True,
                                   text=True, timeout=1800, env=env)
                res = next((json.loads(l[7:]) for l in p.stdout.splitlines() if l.startswith("RESULT ")), None)
                if p.returncode != 0 or res is None:
                    raise SystemExit(f"bench.py: {name} at {t} threads failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
                found[t].append(res)
        for t, results in found.items():
            best = merged(results)
            rows[f"{name} {t}"] = dict(best, name=name, threads=t)
            if best["checksum"] != expected:
                problems.append(f"{name} at {t} threads: checksum {best['checksum']}, data {expected}")
    pool = os.path.join(os.path.dirname(lib), "bench_pool")
    pool_threads = ",".join(str(t) for t in sorted(set(counts) | {8, 64}))
    log(f"  $ {pool} 3 {pool_threads}")
    p = subprocess.run([pool, "3", pool_threads], capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        problems.append(f"bench_pool failed ({p.returncode}): {p.stderr[-2000:]}")
    return {"rows": rows, "counts": counts, "pool": p.stdout, "load_average": [load_start, loadavg()],
            "runs": args.runs, "rounds": args.rounds}


def print_scaling(scaling, info):
    print()
    print(f"scaling (issue 25): whole reads through the C API at ZARR_NUM_THREADS = "
          f"{', '.join(map(str, scaling['counts']))}; {info['cpu']}, {info['nproc']} CPUs; best of "
          f"{scaling['rounds']} rounds of {scaling['runs']}; load average {scaling['load_average'][0]} at start, "
          f"{scaling['load_average'][1]} at end")
    print()
    header = ("workload", "threads", "best s", "MB/s", "speed-up over 1 thread", "per thread")
    rows = scaling["rows"]
    table = []
    for name in SCALING_DIRS:
        one = rows.get(f"{name} 1")
        for t in scaling["counts"]:
            r = rows.get(f"{name} {t}")
            if not r:
                continue
            speedup = one["best_s"] / r["best_s"] if one else None
            table.append((name, str(t), f"{r['best_s']:.3f}", f"{ARRAY_BYTES / r['best_s'] / 1e6:.0f}",
                          f"{speedup:.2f}" if speedup else "n/a",
                          f"{speedup / min(t, info['nproc']):.2f}" if speedup else "n/a"))
    print_table(header, table)
    print()
    print("per thread: the speed-up over the threads that can run at once (at most the CPUs).")
    print()
    print("tests/bench/bench_pool (docs/scaling.md): " + scaling["pool"].rstrip())


def print_alignments(aligned, info):
    print()
    print(f"buffer alignment (issue 25): whole reads into a buffer placed OFFSET bytes past a page boundary "
          f"(C API: malloc'd; Python: NumPy arrays); {info['cpu']}, {info['nproc']} CPUs; best and median of "
          f"every run ({aligned['rounds']} rounds of {aligned['runs']}); load average {aligned['load_average'][0]} at start, "
          f"{aligned['load_average'][1]} at end")
    print()
    header = ("workload", "offset", "C best s", "C median s", "C / best offset", "Python best s", "zarr-python best s")
    rows = aligned["rows"]
    table = []
    for name in ALIGN_WORKLOADS:
        c = [rows.get(f"{name} c {o}") for o in ALIGN_OFFSETS]
        if not any(c):
            continue
        best_c = min(r["best_s"] for r in c if r)
        for offset, r in zip(ALIGN_OFFSETS, c):
            py, zp = rows.get(f"{name} python {offset}"), rows.get(f"{name} zarr-python {offset}")
            runs = sorted(r["runs_s"])
            table.append((name, str(offset), f"{r['best_s']:.3f}", f"{runs[len(runs) // 2]:.3f}",
                          f"{r['best_s'] / best_c:.2f}", f"{py['best_s']:.3f}" if py else "n/a",
                          f"{zp['best_s']:.3f}" if zp else "n/a"))
    print_table(header, table)
    print()
    print("C / best offset: this offset's best time over the best offset's (aim of issue 25: <= 1.10).")


def run_selections(args, lib, d):
    """The selection workloads: each read and written through the C API (bench_region_io
    select), libzarr's Python binding and zarr-python 2.13 (peer_selections.py, the same
    code under both imports), and the touched chunks read whole (and written back) through
    the C API, the reference of "within 2x". Every side writes into a copy of its own; the
    copies must end alike, and every read must read the same values."""
    load_start = loadavg()
    rng = random.Random(SELECTION_SEED)
    with open(d("sel-indices.txt"), "w") as f:
        for _ in range(2):
            axis = sorted(rng.sample(range(SELECTION_SIDE), 200))
            f.write(f"{len(axis)} " + " ".join(map(str, axis)) + "\n")
        flat = rng.sample(range(SELECTION_SIDE * SELECTION_SIDE), 10000)  # distinct points
        f.write(f"{len(flat)}\n" + "".join(f"{p // SELECTION_SIDE} {p % SELECTION_SIDE}\n" for p in flat))
    run([lib, "selcreate", d("sel")])
    peer_py = os.path.join(ROOT, "tests", "bench", "peer_selections.py")
    binding_env = dict(os.environ, LIBZARR_PATH=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(lib))),
                                                            "libzarr.so.1"))
    sides = {
        "c": lambda w, mode, where: [lib, "select", where, w, mode, d("sel-indices.txt"), str(args.sel_runs)],
        "touched": lambda w, mode, where: [lib, "select", where, w, "touched-" + mode, d("sel-indices.txt"),
                                           str(args.sel_runs)],
        "python": lambda w, mode, where: [PEER_PYTHON, peer_py, "libzarr", where, w, mode, d("sel-indices.txt"),
                                          str(args.sel_runs)],
        "zarr-python": lambda w, mode, where: [PEER_PYTHON, peer_py, "zarr", where, w, mode, d("sel-indices.txt"),
                                               str(args.sel_runs)],
    }
    rows, problems = {}, []
    for name, what, workload in SELECTIONS:
        for mode in ("read", "write"):
            log(f"bench.py: {name} {mode}: {what}")
            row = {"what": what, "mode": mode}
            for side, command in sides.items():
                where = d("sel")
                if mode == "write":  # a fresh copy per side (untimed), so the copies can be compared
                    where = d(f"sel-{side}")
                    shutil.rmtree(where, ignore_errors=True)
                    shutil.copytree(d("sel"), where)
                env = binding_env if side == "python" else None
                row[side] = run_with_env(command(workload, mode, where), env)
                if mode == "write" and side != "touched":
                    row[side]["checksum"] = run([lib, "selsum", where])[0]["checksum"]
            sums = {side: row[side].get("checksum") for side in ("c", "python", "zarr-python")}
            row["same_values"] = len({json.dumps(v) for v in sums.values()}) == 1
            if not row["same_values"]:
                problems.append(f"{name} {mode}: the sides differ: {sums}")
            rows[f"{name}{mode[0]}"] = row
    for side in ("c", "touched", "python", "zarr-python"):
        shutil.rmtree(d(f"sel-{side}"), ignore_errors=True)
    return {"rows": rows, "problems": problems, "load_average": [load_start, loadavg()], "runs": args.sel_runs}


def run_with_env(cmd, env):
    """run() with another environment (the binding's LIBZARR_PATH)."""
    if env is None:
        return run(cmd)[0]
    log("  $ LIBZARR_PATH=" + env["LIBZARR_PATH"] + " " + " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    if p.returncode != 0:
        raise SystemExit(f"bench.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise SystemExit(f"bench.py: no RESULT line from {' '.join(cmd)}:\n{p.stdout}\n{p.stderr}")


def print_selections(selections, info, args):
    print()
    print(f"selections (issue 22): float64 [5120, 5120] (200 MiB), [512, 512] chunks, blosc lz4 + shuffle, v2; "
          f"{info['cpu']}, {info['nproc']} CPUs; best of {selections['runs']} runs (open + selection + close); "
          f"load average {selections['load_average'][0]} at start, {selections['load_average'][1]} at end")
    print()
    header = ("workload", "C API s", "Python s", "zarr-python s", "zp / Python", "touched s", "C / touched",
              "CPU s: C / Python / zp / touched", "values")
    table = []
    for key, row in selections["rows"].items():
        sides = ("c", "python", "zarr-python", "touched")
        c, py, zp, touched = (row[side]["best_s"] for side in sides)
        cpu = " / ".join(f"{row[side]['best_cpu_s']:.2f}" for side in sides)
        table.append((f"{key} {row['what']}", f"{c:.3f}", f"{py:.3f}", f"{zp:.3f}", f"{zp / py:.2f}",
                      f"{touched:.3f}", f"{c / touched:.2f}", cpu, "same" if row["same_values"] else "DIFFER"))
    print_table(header, table, left=(0, 8))
    print()
    print("C API: tests/bench/bench_region_io select (zarr_read/write_orthogonal, _points, _region_step); "
          "Python: `import libzarr as zarr`, the same code as zarr-python's (tests/bench/peer_selections.py); "
          "touched: the chunks the selection touches read whole through zarr_read_region (writes: read and "
          "written back whole). zp / Python >= 1 is the aim of issues 22 and 23, C / touched <= 2 that of issue 22. "
          "CPU s: CPU seconds (user + system, every thread) of the best run, which a shared machine disturbs less.")


if __name__ == "__main__":
    sys.exit(main())
