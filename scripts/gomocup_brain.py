"""Asking a Gomocup brain about one position, shared by the scripts that judge games."""

import os
import re
import select
import signal
import subprocess
import time

MOVE = re.compile(r"^(-?\d+),(-?\d+)$")


def ask(brain, size, movetime, stones, to_move):
    """The brain's move for `to_move` (None if it gave none) and the lines it printed
    before it; `stones` as (x, y, side). A fresh process each time, BOARD."""
    proc = subprocess.Popen(brain, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    lines = [f"START {size}", f"INFO timeout_turn {movetime}",
             "INFO timeout_match 600000", "BOARD"]
    lines += [f"{x},{y},{1 if side == to_move else 2}" for x, y, side in stones]
    lines += ["DONE"]
    proc.stdin.write(("\n".join(lines) + "\n").encode())
    proc.stdin.flush()
    pending, printed, move = b"", [], None
    deadline = time.monotonic() + movetime / 1000 + 30
    while move is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if not ready:
            break
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending and move is None:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode(errors="replace").strip()
            found = MOVE.match(line)
            if found:
                move = (int(found.group(1)), int(found.group(2)))
            else:
                printed.append(line)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return move, printed


def name(x, y):
    return f"{chr(ord('a') + x)}{y + 1}"


def parse(move):
    """`x,y` (match records) or a letter and a row number."""
    if "," in move:
        x, y = move.split(",")
        return int(x), int(y)
    return ord(move[0]) - ord("a"), int(move[1:]) - 1
