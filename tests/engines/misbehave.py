#!/usr/bin/env python3
"""A protocol engine that relays to a real arbor process and misbehaves at its Nth `go`.

Usage: misbehave.py MODE N ARBOR [ARGS...]
MODE: crash (exits), illegal (answers a1 or an occupied square), sleep (answers
after 5 s), garbage (prints unframed text), silent (never answers), flood (info lines
without end), endless (a reply line that never ends), longline (a 1 MiB reply line).
"""
import subprocess
import sys
import time

mode, n, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
inner = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
gos = 0


def relay(line):
    inner.stdin.write(line + "\n")
    inner.stdin.flush()
    lines = []
    while True:
        text = inner.stdout.readline()
        if text == "":
            sys.exit(3)
        lines.append(text)
        if text == "\n":
            return "".join(lines)


for line in sys.stdin:
    line = line.rstrip("\r\n")
    if line.startswith("go"):
        gos += 1
        if gos >= n:
            if mode == "crash":
                inner.kill()
                sys.exit(1)
            if mode == "illegal":
                sys.stdout.write("= a1\n\n")
                sys.stdout.flush()
                continue
            if mode == "sleep":
                time.sleep(5)
            if mode == "garbage":
                sys.stdout.write("hello there\nthis is not a reply\n\n")
                sys.stdout.flush()
                continue
            if mode == "silent":
                time.sleep(3600)
            if mode == "flood":
                chunk = "info depth 1 score 0 nodes 1 pv a1\n" * 1000
                while True:
                    sys.stdout.write(chunk)
            if mode == "endless":
                sys.stdout.write("= ")
                chunk = "x" * 65536
                while True:
                    sys.stdout.write(chunk)
            if mode == "longline":
                sys.stdout.write("= " + "d" * (1 << 20) + "\n\n")
                sys.stdout.flush()
                continue
    if line == "quit":
        inner.kill()
        sys.stdout.write("=\n\n")
        sys.stdout.flush()
        sys.exit(0)
    sys.stdout.write(relay(line))
    sys.stdout.flush()
