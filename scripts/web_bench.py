#!/usr/bin/env python3
"""Measures `arbor serve` on loopback: the page's weight, move requests per second and
their latency (a bounded load: CLIENTS threads, each with its own session, REQUESTS
move/undo requests each), and memory per session (the server's RSS over 16 sessions,
new, after an engine move, and after a long live analysis in 4 of them).

usage: web_bench.py [ARBOR] [--clients 4] [--requests 500] [--analysis 25]
"""

import argparse
import http.client
import json
import subprocess
import threading
import time


def start(arbor, *args):
    server = subprocess.Popen(
        [arbor, "serve", "--port", "0", *args], stdout=subprocess.PIPE, text=True
    )
    line = server.stdout.readline().strip()
    host, port = line.rsplit("http://", 1)[1].rstrip("/").split(":")
    return server, host, int(port)


def call(conn, method, path, body=None):
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    reply = conn.getresponse()
    data = reply.read()
    assert reply.status == 200, (method, path, reply.status, data)
    return data


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("arbor", nargs="?", default="target/release/arbor")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--analysis", type=int, default=25, help="seconds of live analysis")
    args = parser.parse_args()

    server, host, port = start(args.arbor, "--hash", "16", "--max-sessions", "32")
    try:
        conn = http.client.HTTPConnection(host, port)
        page = call(conn, "GET", "/")
        print(f"page: {len(page)} bytes, one request, no other assets")

        latencies = []
        lock = threading.Lock()

        def client():
            conn = http.client.HTTPConnection(host, port)
            sid = json.loads(call(conn, "POST", "/api/sessions", {"game": "othello"}))["id"]
            mine = []
            for n in range(args.requests):
                path, body = (f"/api/sessions/{sid}/move", {"move": "f5"}) if n % 2 == 0 \
                    else (f"/api/sessions/{sid}/undo", {})
                began = time.perf_counter()
                call(conn, "POST", path, body)
                mine.append(time.perf_counter() - began)
            call(conn, "DELETE", f"/api/sessions/{sid}")
            with lock:
                latencies.extend(mine)

        began = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        latencies.sort()
        count = len(latencies)
        print(f"move/undo: {count} requests by {args.clients} clients in {elapsed:.2f} s: "
              f"{count / elapsed:.0f}/s, p50 {1000 * latencies[count // 2]:.2f} ms, "
              f"p99 {1000 * latencies[int(count * 0.99)]:.2f} ms")

        before = rss_kib(server.pid)
        ids = [json.loads(call(conn, "POST", "/api/sessions", {"game": "gomoku"}))["id"]
               for _ in range(16)]
        after = rss_kib(server.pid)
        print(f"memory: {before} KiB RSS with no session, {after} KiB with 16 new Gomoku "
              f"sessions (--hash 16): {(after - before) / 16 / 1024:.1f} MiB each")
        # Tables are the system's zeroed pages: they become resident as a search fills them.
        for sid in ids:
            call(conn, "POST", f"/api/sessions/{sid}/go", {"time_ms": 1000})
        time.sleep(9)
        searched = rss_kib(server.pid)
        print(f"memory: {searched} KiB after each session's engine moved once (1 s, 2 cores): "
              f"{(searched - before) / 16 / 1024:.1f} MiB each")
        # A long live analysis fills a session's tables as far as --hash lets it.
        for sid in ids[:4]:
            call(conn, "POST", f"/api/sessions/{sid}/analyze", {"on": True, "multipv": 3})
        time.sleep(args.analysis)
        analysed = rss_kib(server.pid)
        print(f"memory: {analysed} KiB after 4 of them analysed for {args.analysis} s: "
              f"{(analysed - searched) / 4 / 1024:.1f} MiB more each")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
