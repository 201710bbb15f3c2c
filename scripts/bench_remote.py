"""The remote workloads of scripts/bench.py --remote (issue 25, docs/performance.md).

The W2, W4 and W6r arrays served by Debian's nginx on 127.0.0.1, read through
tests/bench/delay_proxy.py, which adds a fixed latency per request and caps the
bandwidth of all connections together, and counts requests and bytes. Each is
read whole through libzarr's C API (bench_region_io read URL), libzarr's Python
binding and zarr-python 2.13 over fsspec's HTTP filesystem (aiohttp), beside
the ideal for the proxy's settings: requests in flight x bytes per request /
latency, capped by the bandwidth. With --s3rver PEER_DIR (s3rver installed by
tests/stores/s3rver_setup.sh), the same arrays are also read by the C API over
S3 from s3rver through the same proxy (s3rver's own speed included: it is a
Node.js test server, not S3).
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

from bench_table import print_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROXY = os.path.join(ROOT, "tests", "bench", "delay_proxy.py")
PEER_PY = os.path.join(ROOT, "tests", "bench", "peer_zarr_python.py")
NGINX = "/usr/sbin/nginx"
# name, array kind (bench_region_io create), what, the requests libzarr keeps in
# flight without a max_concurrency option (docs/store-http.md: as many as the
# largest stored chunk fits in 64 MiB, 16 to 64; a shard is fetched whole)
REMOTE_WORKLOADS = [
    ("W2", "v2zstd8", "zstd 1, 8 MiB chunks, v2", 16),
    ("W4", "v2zstd32", "zstd 1, 32^3 chunks, v2", 64),
    ("W6r", "v3shard", "sharded v3, 64x256x256 shards of 32^3 chunks, zstd 1", 16),
]
LATENCIES_MS = "10,50"  # default of --remote-latencies (ms per request; 0: the proxy's own ceiling)
DEFAULT_CONCURRENCY = 0  # --remote-concurrency: 0 leaves libzarr's max_concurrency to its default


def store_options(concurrency, **more):
    """The store options of a run: max_concurrency only when one is asked for."""
    store = dict(more)
    if concurrency:
        store["max_concurrency"] = concurrency
    return json.dumps({"store": store})


def in_flight(name, concurrency):
    """The requests libzarr keeps in flight on workload `name`."""
    return concurrency or next(auto for n, _, _, auto in REMOTE_WORKLOADS if n == name)


def wait_for_port(port, seconds=10.0):
    import socket
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalServer:
    """A server process on self.port of 127.0.0.1 with a folder of its own
    (self.dir), both gone after stop()."""

    def start(self, argv, what, seconds=10.0):
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for_port(self.port, seconds):
            self.stop()
            raise SystemExit(f"bench.py: {what} did not start on port {self.port}")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Nginx(LocalServer):
    """nginx serving `folder` read-only at /, everything it writes in a folder of its own
    (the configuration of tests/stores/local_servers.cpp's Nginx)."""

    def __init__(self, folder):
        self.dir = tempfile.mkdtemp(prefix="libzarr-bench-nginx-")
        self.port = free_port()
        d = self.dir
        os.makedirs(os.path.join(d, "tmp"))
        temps = "".join(f'  {t}_temp_path "{d}/tmp/{t}";\n' for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        conf = (f'daemon off;\nmaster_process off;\nworker_processes 1;\npid "{d}/nginx.pid";\n'
                f'error_log "{d}/error.log" warn;\nevents {{ worker_connections 1024; }}\nhttp {{\n'
                f"  access_log off;\n  default_type application/octet-stream;\n  keepalive_requests 100000;\n"
                f"{temps}  server {{\n    listen 127.0.0.1:{self.port};\n"
                f'    location / {{ alias "{folder}/"; }}\n  }}\n}}\n')
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(conf)
        self.start([NGINX, "-p", d, "-c", d + "/nginx.conf", "-e", d + "/error.log"], "nginx")



class Proxy:
    """tests/bench/delay_proxy.py in front of nginx."""

    def __init__(self, upstream_port, latency_ms, bandwidth_mbs):
        self.process = subprocess.Popen(["python3", PROXY, str(upstream_port), str(latency_ms), str(bandwidth_mbs)],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise SystemExit("bench.py: delay_proxy.py did not start")
        self.port = int(line.split()[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stats(self, reset=False):
        path = "/__proxy_reset" if reset else "/__proxy_stats"
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def stop(self):
        self.process.terminate()
        self.process.wait()


class S3rverServer(LocalServer):
    """s3rver (tests/stores/s3rver_launch.js) serving the arrays of `folder` in the
    bucket "bench": each file is hard-linked where s3rver's filesystem store keeps
    an object ("KEY._S3rver_object"), so nothing is uploaded or copied."""

    LAUNCH = os.path.join(ROOT, "tests", "stores", "s3rver_launch.js")
    KEY = "S3RVER"  # s3rver's fixed access key id and secret

    def __init__(self, peer_dir, folder, kinds):
        self.dir = tempfile.mkdtemp(prefix="libzarr-bench-s3rver-", dir=os.path.dirname(folder.rstrip("/")))
        for kind in kinds:
            for at, _, files in os.walk(os.path.join(folder, kind)):
                into = os.path.join(self.dir, "bench", os.path.relpath(at, folder))
                os.makedirs(into, exist_ok=True)
                for name in files:
                    os.link(os.path.join(at, name), os.path.join(into, name + "._S3rver_object"))
        self.port = free_port()
        self.start(["node", "--openssl-legacy-provider", self.LAUNCH, peer_dir, "--directory", self.dir, "--address",
                    "127.0.0.1", "--port", str(self.port), "--silent"], "s3rver", 20.0)

    def options(self, endpoint, concurrency):
        return store_options(concurrency, endpoint=endpoint, access_key_id=self.KEY, secret_access_key=self.KEY)



def proxied_workloads(args, names, upstream_port, what, log):
    """(proxy, latency, name, kind) for each latency and each workload of `names`: a
    proxy in front of the server on upstream_port, stopped when its latency is done."""
    for latency in args.remote_latencies:
        proxy = Proxy(upstream_port, latency, args.remote_mbs)
        try:
            for name, kind, _, _ in REMOTE_WORKLOADS:
                if name in names:
                    log(f"bench.py: {name} {what}, {latency} ms, {args.remote_mbs} MB/s")
                    yield proxy, latency, name, kind
        finally:
            proxy.stop()


def measure(proxy, runs, run_with_env, cmd, env):
    """One side's runs through `proxy`, with the proxy's counts per run."""
    proxy.stats(reset=True)
    result = run_with_env(cmd, env)
    counted = proxy.stats()
    result["requests_per_run"] = counted["requests"] / runs
    result["bytes_per_run"] = counted["body_bytes"] / runs
    result["ranged_per_run"] = counted["ranged"] / runs
    result["peak_in_flight"] = counted["peak_in_flight"]
    return result


def run_remote_s3(args, lib, d, run_with_env, names, expected, problems, log):
    """The C API over S3 (s3rver behind the proxy) for each workload and latency."""
    kinds = [kind for name, kind, _, _ in REMOTE_WORKLOADS if name in names]
    server = S3rverServer(args.s3rver, d("").rstrip("/"), kinds)
    rows = {}
    try:
        for proxy, latency, name, kind in proxied_workloads(args, names, server.port, "over S3 (s3rver)", log):
            cmd = [lib, "read", f"s3://bench/{kind}", str(args.remote_runs), "16",
                   server.options(proxy.url, args.remote_concurrency)]
            result = measure(proxy, args.remote_runs, run_with_env, cmd, None)
            rows[f"{name} {latency} s3"] = dict(result, name=name, latency_ms=latency, side="s3")
            if result["checksum"] != expected:
                problems.append(f"{name} over S3 {latency} ms: checksum {result['checksum']}, data {expected}")
    finally:
        server.stop()
    return rows


def run_remote(args, lib, d, run, run_with_env, names, expected, problems, log):
    """Every remote workload of `names` at each latency: C API, Python binding,
    zarr-python (not W6r: 2.13 reads no v3), each run counted by the proxy."""
    if not os.access(NGINX, os.X_OK):
        raise SystemExit("bench.py: --remote needs Debian's nginx (scripts/setup.sh installs it)")
    env = dict(os.environ, LIBZARR_PATH=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(lib))),
                                                     "libzarr.so.1"))
    options = store_options(args.remote_concurrency)
    sides = {
        "c": lambda url: ([lib, "read", url, str(args.remote_runs), "16", options], None),
        "python": lambda url: (["/usr/bin/python3", PEER_PY, "read", url, str(args.remote_runs), "-", "libzarr"]
                               + ([str(args.remote_concurrency)] if args.remote_concurrency else []), env),
        "zarr-python": lambda url: (["/usr/bin/python3", PEER_PY, "read", url, str(args.remote_runs), "-", "zarr"],
                                    None),
    }
    nginx = Nginx(d("").rstrip("/"))
    rows = {}
    load_start = time.time(), _loadavg()
    try:
        for proxy, latency, name, kind in proxied_workloads(args, names, nginx.port, "remote", log):
            for side, command in sides.items():
                if side == "zarr-python" and name == "W6r":
                    continue
                cmd, side_env = command(f"{proxy.url}/{kind}")
                result = measure(proxy, args.remote_runs, run_with_env, cmd, side_env)
                rows[f"{name} {latency} {side}"] = dict(result, name=name, latency_ms=latency, side=side)
                if result["checksum"] != expected:
                    problems.append(f"{name} remote {latency} ms ({side}): checksum {result['checksum']}, "
                                    f"data {expected}")
    finally:
        nginx.stop()
    if args.s3rver:
        rows.update(run_remote_s3(args, lib, d, run_with_env, names, expected, problems, log))
    return {"rows": rows, "load_average": [load_start[1], _loadavg()], "runs": args.remote_runs,
            "bandwidth_mbs": args.remote_mbs, "concurrency": args.remote_concurrency,
            "latencies_ms": list(args.remote_latencies)}


def _loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def ideal_seconds(row, concurrency, bandwidth_mbs):
    """The time the proxy's settings allow the bytes of one run with `concurrency`
    requests in flight: requests in flight x bytes per request / latency, capped by
    the bandwidth."""
    n, total = row["requests_per_run"], row["bytes_per_run"]
    rate = bandwidth_mbs * 1e6
    if row["latency_ms"] > 0:
        rate = min(rate, concurrency * (total / n) / (row["latency_ms"] / 1000.0))
    return total / rate


def print_remote(remote, info, array_bytes):
    print()
    print(f"remote stores (issue 25): whole reads over HTTP from nginx through tests/bench/delay_proxy.py "
          f"(latency per request, {remote['bandwidth_mbs']} MB/s for all connections); libzarr max_concurrency "
          f"{remote['concurrency'] or 'automatic'}; {info['cpu']}, {info['nproc']} CPUs; best of {remote['runs']} runs (open + read + "
          f"close); load average {remote['load_average'][0]} at start, {remote['load_average'][1]} at end")
    print()
    header = ("workload", "latency", "requests", "in flight", "MB moved", "ideal s", "C API s", "C / ideal", "Python s",
              "zarr-python s", "zp / C", "zp requests", "S3 C API s", "S3 / ideal")
    rows = remote["rows"]
    table = []
    for name, _, what, _ in REMOTE_WORKLOADS:
        for latency in remote["latencies_ms"]:
            c = rows.get(f"{name} {latency} c")
            if not c:
                continue
            py, zp = rows.get(f"{name} {latency} python"), rows.get(f"{name} {latency} zarr-python")
            s3 = rows.get(f"{name} {latency} s3")
            flight = in_flight(name, remote["concurrency"])
            ideal = ideal_seconds(c, flight, remote["bandwidth_mbs"])
            s3_ideal = ideal_seconds(s3, flight, remote["bandwidth_mbs"]) if s3 else None
            table.append((f"{name} {what}", f"{latency} ms", f"{c['requests_per_run']:.0f}",
                          f"{flight} ({c.get('peak_in_flight', '?')})",
                          f"{c['bytes_per_run'] / 1e6:.1f}", f"{ideal:.2f}", f"{c['best_s']:.2f}",
                          f"{100 * ideal / c['best_s']:.0f}%", f"{py['best_s']:.2f}" if py else "n/a",
                          f"{zp['best_s']:.2f}" if zp else "n/a", f"{zp['best_s'] / c['best_s']:.2f}" if zp else "n/a",
                          f"{zp['requests_per_run']:.0f}" if zp else "n/a",
                          f"{s3['best_s']:.2f}" if s3 else "n/a",
                          f"{100 * s3_ideal / s3['best_s']:.0f}%" if s3 else "n/a"))
    print_table(header, table)
    print()
    print(f"requests and MB moved: counted by the proxy for one C API run (metadata included). in flight: the "
          f"requests libzarr keeps in flight (in brackets the most the proxy saw at once). ideal s: those bytes "
          f"at min(in flight x bytes per request / latency, the bandwidth). "
          f"C / ideal: the share of the ideal's speed reached (aim of issue 25: >= 80%). zp / C: zarr-python's time "
          f"over the C API's (aim on W4: >= 5). S3: the C API over S3 from s3rver (a Node.js test server, whose own "
          f"cost is included) through the same proxy, against the ideal of its own requests and bytes. "
          f"{array_bytes / 1e6:.0f} MB decoded per read.")
