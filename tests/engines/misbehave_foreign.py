#!/usr/bin/env python3
"""An NBoard, GTP or Gomocup engine that relays to a real arbor front end and misbehaves
at its Nth request for a move.

Usage: misbehave_foreign.py PROTO MODE N ARBOR [ARGS...]
PROTO: nboard, gtp or gomocup (the request for a move: `go`; `genmove`; `BEGIN`, `TURN`
or a `BOARD` block's `DONE`). MODE: crash (exits), illegal (answers a1, or an occupied
point for Gomocup), silent (never answers), flood (lines the protocol allows, without
end: NBoard `status`, GTP empty lines, Gomocup `MESSAGE`), garbage (a line that is not
an answer), error (Gomocup: answers with `ERROR`), refuse_info (Gomocup: answers every `INFO time_left N` with two `ERROR`
lines, as Rapfi does while thinking, and plays on). The NBoard relay asks its engine for depth 1, as NBoard has no clock.
"""
import subprocess
import sys
import threading
import time

proto, mode, n, command = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
inner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lock = threading.Lock()


def out(text):
    with lock:
        sys.stdout.write(text)
        sys.stdout.flush()


def forward():
    for line in inner.stdout:
        out(line)


threading.Thread(target=forward, daemon=True).start()

requests = 0
last_turn = None
for line in sys.stdin:
    line = line.rstrip("\r\n")
    word = line.split(" ")[0] if line else ""
    if proto == "gomocup" and word == "TURN":
        last_turn = line.split(" ", 1)[1].strip()
    if mode == "refuse_info" and line.startswith("INFO time_left"):
        out("ERROR Unknown command: TIME_LEFT\nERROR Unknown command: %s\n" % line.split()[-1])
        continue
    is_request = (
        (proto == "nboard" and word == "go")
        or (proto == "gtp" and word == "genmove")
        or (proto == "gomocup" and word in ("BEGIN", "TURN", "DONE"))
    )
    if is_request:
        requests += 1
    if is_request and requests >= n:
        if mode == "crash":
            inner.kill()
            sys.exit(1)
        if mode == "illegal":
            answer = {"nboard": "=== A1/0.00/0.0\n", "gtp": "= a1\n\n", "gomocup": (last_turn or "0,0") + "\n"}
            out(answer[proto])
            continue
        if mode == "silent":
            time.sleep(3600)
        if mode == "flood":
            noise = {"nboard": "status thinking\n", "gtp": "\n", "gomocup": "MESSAGE thinking\n"}[proto]
            while True:
                out(noise * 1000)
        if mode == "garbage":
            out("hello there\n\n")
            continue
        if mode == "error":
            out("ERROR I do not like this move\n")
            continue
    inner.stdin.write(line + "\n")
    inner.stdin.flush()
    if proto == "nboard" and word == "nboard":
        inner.stdin.write("set depth 1\n")
        inner.stdin.flush()
    if word in ("quit", "END"):
        time.sleep(0.2)
        inner.kill()
        sys.exit(0)
inner.stdin.close()
inner.wait()
