#!/usr/bin/env python3
"""A delaying HTTP/1.1 proxy for the remote workloads of scripts/bench.py (issue 25).

    delay_proxy.py UPSTREAM_PORT LATENCY_MS BANDWIDTH_MBS

Listens on a free port of 127.0.0.1 (printed as "PORT n" on stdout once it
listens) and forwards every request to the server on 127.0.0.1:UPSTREAM_PORT
(nginx), as a remote store would be reached: each request waits LATENCY_MS
before it is forwarded (the round trip), and the response bodies of all
connections together pass at most BANDWIDTH_MBS megabytes (10^6) a second (the
link). It counts the requests, the response bytes and the most requests in
flight at once; GET /__proxy_stats answers them as JSON ({"requests",
"body_bytes", "ranged", "peak_in_flight"}) and
GET /__proxy_reset sets them to zero (neither is counted nor delayed).

Each client connection has its own upstream connection, kept alive as long as
the client's. Standard library only; responses must carry a Content-Length
(nginx's static files and error pages do), requests no body.
"""
import asyncio
import json
import socket
import sys

PIECE = 1 << 20  # bytes forwarded at a time


class Link:
    """Latency, the shared bandwidth cap and the counters."""

    def __init__(self, upstream_port, latency_s, bytes_per_s):
        self.upstream_port = upstream_port
        self.latency_s = latency_s
        self.bytes_per_s = bytes_per_s
        self.free_at = 0.0  # when the link has sent everything it was given
        self.reset()

    def reset(self):
        self.requests = 0
        self.body_bytes = 0
        self.ranged = 0
        self.in_flight = 0  # requests received and not yet answered in full
        self.peak_in_flight = 0

    async def send(self, n):
        """Wait until n more bytes have passed the link (all connections share it)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.free_at = max(self.free_at, now) + n / self.bytes_per_s
        if self.free_at > now:
            await asyncio.sleep(self.free_at - now)


def header_value(head, name):
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name:
            return value.strip()
    return None


async def answer_locally(writer, link, path):
    if path == b"/__proxy_reset":
        link.reset()
    body = json.dumps({"requests": link.requests, "body_bytes": link.body_bytes, "ranged": link.ranged,
                       "peak_in_flight": link.peak_in_flight}).encode()
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    await writer.drain()


async def forward_response(method, up_reader, writer, link):
    head = await up_reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = header_value(head, b"content-length")
    if length is None and method != b"HEAD" and status not in (204, 304):
        raise ConnectionError("delay_proxy: a response without Content-Length")
    left = 0 if method == b"HEAD" or status in (204, 304) else int(length)
    writer.write(head)
    while left:
        piece = await up_reader.read(min(left, PIECE))
        if not piece:
            raise ConnectionError("delay_proxy: the upstream closed mid-body")
        left -= len(piece)
        link.body_bytes += len(piece)
        await link.send(len(piece))
        writer.write(piece)
        await writer.drain()
    await writer.drain()


def no_delay(writer):
    """Every write leaves at once: with Nagle's algorithm the last small piece
    of a body waits for the client's delayed ACK (40 ms on Linux) from the
    third request of a connection on, which no real link adds."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def serve_client(reader, writer, link):
    upstream = None
    no_delay(writer)
    try:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            method, path = head.split(b" ", 2)[:2]
            if path in (b"/__proxy_stats", b"/__proxy_reset"):
                await answer_locally(writer, link, path)
                continue
            link.requests += 1
            if header_value(head, b"range") is not None:
                link.ranged += 1
            link.in_flight += 1
            link.peak_in_flight = max(link.peak_in_flight, link.in_flight)
            try:
                await asyncio.sleep(link.latency_s)
                if upstream is None:
                    upstream = await asyncio.open_connection("127.0.0.1", link.upstream_port)
                    no_delay(upstream[1])
                upstream[1].write(head)
                await forward_response(method, upstream[0], writer, link)
            finally:
                link.in_flight -= 1
    except (ConnectionError, asyncio.IncompleteReadError) as e:
        print(f"delay_proxy: {e}", file=sys.stderr, flush=True)
    finally:
        writer.close()
        if upstream is not None:
            upstream[1].close()


async def main(argv):
    link = Link(int(argv[1]), float(argv[2]) / 1000.0, float(argv[3]) * 1e6)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = await asyncio.start_server(lambda r, w: serve_client(r, w, link), sock=sock, backlog=512,
                                        limit=1 << 16)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    try:
        asyncio.run(main(sys.argv))
    except KeyboardInterrupt:
        pass
