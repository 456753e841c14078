#!/usr/bin/env python3
"""Runs a Gomocup brain told 1/FACTOR of the time the referee gives it (time odds).

`arbor match` gives both engines one clock; to give one side more time, put this
wrapper around the other and raise `--tc` by FACTOR: the wrapped brain sees
`timeout_turn`, `timeout_match` and `time_left` divided by FACTOR and plays as at the
lower control, while its real clock keeps the margin. Lines sent to the brain within
50 ms of its move wait out the rest: Rapfi drops a command that arrives while it is
still leaving its search.

    arbor match --game gomoku --opening free --tc 12+0.2 \\
        --engine name=arbor cmd="target/release/arbor gomocup" proto=gomocup \\
        --engine name=rapfi cmd="scripts/gomocup-time-odds.py 4 /path/to/pbrain-rapfi" proto=gomocup \\
        --openings FILE --rounds N
"""

import re
import subprocess
import sys
import threading
import time

TIMES = re.compile(r"^(INFO (?:timeout_turn|timeout_match|time_left)) (\d+)\s*$", re.I)
MOVE = re.compile(r"^-?\d+,-?\d+\s*$")
SETTLE = 0.05


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: gomocup-time-odds.py FACTOR COMMAND [ARG...]")
    factor = float(sys.argv[1])
    if factor <= 0:
        sys.exit("FACTOR must be positive")
    brain = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    last_move = [0.0]

    def relay_output():
        for line in brain.stdout:
            if MOVE.match(line):
                last_move[0] = time.monotonic()
            sys.stdout.write(line)
            sys.stdout.flush()

    relay = threading.Thread(target=relay_output, daemon=True)
    relay.start()
    for line in sys.stdin:
        wait = last_move[0] + SETTLE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        found = TIMES.match(line.strip())
        # 0 means "no limit" in the protocol and stays as it is.
        if found and int(found.group(2)) > 0:
            line = f"{found.group(1)} {max(1, int(int(found.group(2)) / factor))}\n"
        brain.stdin.write(line)
        brain.stdin.flush()
    brain.stdin.close()
    brain.wait()
    relay.join(timeout=1)


if __name__ == "__main__":
    main()
