#!/usr/bin/env python3
"""An NBoard engine with NTest's habits, relaying to a real `arbor nboard` for its moves.

Usage: ntest_like.py ARBOR [ARGS...]
As NTest does: a banner and other lines no NBoard command asked for on stdout; `go`
refused with a warning (and never answered) until a `set depth N` has come; a `ping`
during a search prints `>> Abort round!!!` and a summary line before the move and the
`pong`. Writes `pinged mid-search N` on stderr at the end.
"""
import subprocess
import sys
import threading

inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lock = threading.Lock()
searching = False
aborted = 0


def out(text):
    with lock:
        sys.stdout.write(text)
        sys.stdout.flush()


def forward():
    global searching
    for line in inner.stdout:
        if line.startswith("==="):
            with lock:
                searching = False
        out(line)


out("Ntest-like version as of today\n\n---- Heights ----\nmidgame : 12\n\n")
threading.Thread(target=forward, daemon=True).start()
depth = False
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "set" and line.split()[1:2] == ["depth"]:
        depth = True
        out("\n---- Heights ----\nstatus\n")
    if word == "go":
        if not depth:
            out('warning Must pick a depth with "set depth <n>" first\n')
            continue
        with lock:
            searching = True
    if word == "ping":
        with lock:
            if searching:
                aborted += 1
                sys.stdout.write(">> Abort round!!!\n 12 (50 empty)\tC4/-1.45\t\t0.992s elapsed\n")
                sys.stdout.flush()
    inner.stdin.write(line)
    inner.stdin.flush()
    if word == "quit":
        break
inner.stdin.close()
inner.wait()
sys.stderr.write("pinged mid-search %d\n" % aborted)
