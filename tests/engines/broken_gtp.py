#!/usr/bin/env python3
"""A GTP engine that relays to `arbor gtp` but breaks the protocol in small ways, for
`arbor match --compliance`: it echoes ids as `= 17` (a space before the id), answers
unknown commands and `boardsize 1` with success, and leaves `komi` out of
list_commands.

Usage: broken_gtp.py ARBOR [ARGS...]
"""
import subprocess
import sys

inner = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


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
            return lines


for line in sys.stdin:
    line = line.rstrip("\r\n")
    words = line.split()
    ident = ""
    if words and words[0].isdigit():
        ident, words = words[0], words[1:]
    command = words[0] if words else ""
    if command == "xyzzy" or line.strip() == "boardsize 1":
        sys.stdout.write("=\n\n")
    else:
        reply = relay(" ".join(words))
        if command == "list_commands":
            reply = [l for l in reply if l.strip() != "komi"]
        if ident:
            reply[0] = reply[0][0] + " " + ident + reply[0][1:]
        sys.stdout.write("".join(reply))
    sys.stdout.flush()
    if command == "quit":
        inner.wait()
        sys.exit(0)
