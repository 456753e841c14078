#!/usr/bin/env python3
"""Zebra (Gunnar Andersson's Othello engine) as an engine of arbor's native protocol.

Zebra plays one move per call (`zebra -quiet -b 0 -l D E W D E W -evalone -seq
f5d6c3`): this script keeps the game, answers `arbor match` in the native protocol
(protocol.md) and calls Zebra once per move, choosing the depth from the clock:

    arbor match --engine name=arbor cmd=target/release/arbor \\
        --engine name=zebra cmd="scripts/zebra-native.py ZEBRA-O2 --solver ZEBRA" \\
        --tc 10 --random-openings 8 --rounds 10 --seed 7

How the depth is chosen (`go time T inc I`): every move still to play is first given
the cost of starting Zebra (`START_COST`, measured), the measured time of an exact solve
from 16 empties is kept back, and the rest of the clock (with the increments to come) is shared over the moves still to think about (those until 20
empties, and two more). The deepest midgame depth whose measured time at this stage of
the game (the 90th percentile over sample positions, `--calibrate`) fits the move's
share is searched (the shallowest measured depth at least); from the empties where an
exact solve's measured time fits a third of that spare time, Zebra solves the endgame
exactly; short of that, the midgame depth stays 6 below the empties. Zebra cannot be
stopped with a move in hand, so every call runs under a hard limit (two fifths of the
clock less a margin, half a `movetime`): a call that passes it is killed and the move is
asked again at depth 4 within as long again, then taken as the first legal move if even
that fails; the clock is never overrun. A pass (no legal move) and a single legal move are answered
without calling Zebra. `go movetime T` is a clock of T for one move; `go depth D`
searches D plies (and solves from D empties). `--log FILE` appends the depth chosen and
the time taken per move.

Zebra's own build is slow to start (it unpacks coeffs2.bin at every call, 0.1 to 0.3 s
here): at 10 s a side that start takes most of its clock.

Zebra reads `coeffs2.bin` from its working directory and writes log files there, so
every call runs in a private temporary directory holding a link to the `coeffs2.bin`
beside the binary (or `--coeffs FILE`).

`--calibrate WTHOR_FILE` measures Zebra's time per call on positions of the games in
that file (`<moves> <score>` lines) and prints the table this script keeps in
`TIMES`. Only 8x8 Othello under the normal rule from move sequences is supported
(`setboard` and other games are refused with `?`).
"""

import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# Measured on this machine (2 cores shared with other work, load 5 to 10) by `--calibrate
# .../wthor/WTH_2019.txt --games 12 --budget 3`: seconds per call, the 90th percentile
# over the positions, the process start included (its median, at depth 1, was
# 0.148 s). "mid": {band of 6 empties from its low bound (measured at 2
# more): {depth: seconds}}, with the -O2 build; "exact": {empties: seconds}, with the
# Makefile's own build (`--part exact`), as the -O2 one crashes in the exact solver.
TIMES = {
    "mid": {
        "20": {"2": 0.332, "3": 0.388, "4": 0.284, "5": 0.461, "6": 0.385, "7": 0.269, "8": 0.41, "9": 0.402, "10": 0.337, "11": 0.436, "12": 0.369, "13": 0.416, "14": 0.614, "15": 0.608, "16": 0.625, "17": 0.624, "18": 0.832, "19": 0.864, "20": 1.046, "21": 1.468},
        "26": {"2": 0.305, "3": 0.335, "4": 0.377, "5": 0.374, "6": 0.273, "7": 0.192, "8": 0.266, "9": 0.352, "10": 0.459, "11": 0.531, "12": 0.696, "13": 1.036, "14": 0.795, "15": 1.047, "16": 0.998, "17": 1.571, "18": 2.351, "19": 3.016},
        "32": {"2": 0.256, "3": 0.273, "4": 0.286, "5": 0.223, "6": 0.158, "7": 0.131, "8": 0.432, "9": 0.337, "10": 0.327, "11": 0.593, "12": 0.754, "13": 0.992, "14": 0.899, "15": 1.008, "16": 1.436, "17": 1.468, "18": 2.047, "19": 3.952},
        "38": {"2": 0.156, "3": 0.259, "4": 0.248, "5": 0.245, "6": 0.256, "7": 0.193, "8": 0.361, "9": 0.562, "10": 0.733, "11": 0.935, "12": 0.992, "13": 1.547, "14": 1.417, "15": 1.933, "16": 1.895, "17": 3.318},
        "44": {"2": 0.274, "3": 0.22, "4": 0.334, "5": 0.302, "6": 0.249, "7": 0.279, "8": 0.387, "9": 0.679, "10": 0.747, "11": 0.85, "12": 0.872, "13": 1.154, "14": 1.856, "15": 2.052, "16": 2.045, "17": 2.926, "18": 4.057},
        "50": {"2": 0.177, "3": 0.198, "4": 0.235, "5": 0.162, "6": 0.223, "7": 0.221, "8": 0.271, "9": 0.449, "10": 0.315, "11": 0.44, "12": 0.691, "13": 0.786, "14": 0.781, "15": 1.158, "16": 1.534, "17": 2.461, "18": 6.034},
        "56": {"2": 0.158, "3": 0.169, "4": 0.235, "5": 0.231, "6": 0.208, "7": 0.212, "8": 0.219, "9": 0.211, "10": 0.248, "11": 0.259, "12": 0.3, "13": 0.282, "14": 0.35, "15": 0.462, "16": 0.657, "17": 0.882, "18": 0.976, "19": 1.451, "20": 1.897, "21": 5.302},
    },
    "exact": {"8": 0.573, "9": 0.604, "10": 0.334, "11": 0.48, "12": 0.547, "13": 0.648, "14": 0.618, "15": 0.687, "16": 1.282, "17": 0.709, "18": 1.039, "19": 1.377, "20": 2.932},
}
# What a call costs beyond its search (starting Zebra, loading coeffs2.bin): about the
# 90th percentile of the shallowest calls above under that load.
START_COST = 0.3
# Before this many empties the measured time of an exact solve from there is kept back.
ENDGAME_RESERVE = 16
# Seconds of the clock kept back for pipes.
MARGIN = 0.15
MID_DEPTHS = list(range(1, 31))
MAX_EXACT = 30

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
MOVE_NAME = re.compile(r"^[a-h][1-8]$")


class Board:
    """An 8x8 Othello position: cells[row][col] in {0 empty, 1 black, 2 white}."""

    def __init__(self):
        self.cells = [[0] * 8 for _ in range(8)]
        self.cells[3][3] = self.cells[4][4] = 2
        self.cells[3][4] = self.cells[4][3] = 1
        self.to_move = 1
        self.moves = []  # played moves, passes left out (as Zebra's -seq takes them)

    def flips(self, row, col, side):
        if self.cells[row][col]:
            return []
        other = 3 - side
        turned = []
        for dr, dc in DIRS:
            r, c, line = row + dr, col + dc, []
            while 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == other:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == side:
                turned.extend(line)
        return turned

    def legal(self, side=None):
        side = side or self.to_move
        return [name(r, c) for r in range(8) for c in range(8) if self.flips(r, c, side)]

    def empties(self):
        return sum(row.count(0) for row in self.cells)

    def play(self, text):
        """Plays `text` (`d3` or `pass`) for the side to move; raises ValueError if illegal."""
        text = text.strip().lower()
        if text in ("pass", "pa", "@@"):
            if self.legal():
                raise ValueError("pass is illegal: there is a legal move")
            if not self.legal(3 - self.to_move):
                raise ValueError("pass is illegal: the game is over")
            self.to_move = 3 - self.to_move
            return
        if not MOVE_NAME.match(text):
            raise ValueError(f"'{text}' is not a move on the 8x8 board")
        row, col = int(text[1]) - 1, ord(text[0]) - ord("a")
        turned = self.flips(row, col, self.to_move)
        if not turned:
            raise ValueError(f"{text} is illegal here")
        self.cells[row][col] = self.to_move
        for r, c in turned:
            self.cells[r][c] = self.to_move
        self.moves.append(text)
        self.to_move = 3 - self.to_move


def name(row, col):
    return "abcdefgh"[col] + str(row + 1)


class Zebra:
    """Runs Zebra calls in a private directory."""

    def __init__(self, binary, coeffs, solver=None):
        self.binary = os.path.abspath(binary)
        self.solver = os.path.abspath(solver or binary)
        self.dir = tempfile.mkdtemp(prefix="zebra-native-")
        os.symlink(os.path.abspath(coeffs), os.path.join(self.dir, "coeffs2.bin"))

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def call(self, moves, depth, exact, limit):
        """The move Zebra chooses after `moves` at midgame `depth`, solving exactly from
        `exact` empties; None if it takes longer than `limit` seconds or gives no move."""
        levels = [str(depth), str(exact), str(exact)] * 2
        binary = self.solver if exact else self.binary
        args = [binary, "-quiet", "-b", "0", "-r", "0", "-l", *levels, "-evalone"]
        if moves:
            args += ["-seq", "".join(moves)]
        try:
            done = subprocess.run(args, cwd=self.dir, capture_output=True, text=True,
                                  timeout=None if limit is None else max(limit, 0.01))
        except subprocess.TimeoutExpired:
            return None
        # The last status line names the move played after depth, score and nodes
        # (`-->  12  -18  18282  h2`, `-->   forced  d3`); the PV line that follows an
        # exact solve can be stale, so it is only the fallback.
        lines = done.stdout.splitlines()
        for prefix in ("-->", "PV:"):
            for line in reversed([line for line in lines if line.startswith(prefix)]):
                for word in line.split()[1:]:
                    if MOVE_NAME.match(word.lower()):
                        return word.lower()
        log(f"no move in Zebra's output: {done.stdout!r} {done.stderr!r}")
        return None


LOG = [sys.stderr]


def log(text):
    for stream in LOG:
        print(f"zebra-native: {text}", file=stream, flush=True)


def band(empties):
    """The calibration band of a midgame position: 6 empties wide, from 20 empties."""
    return 20 + 6 * ((max(20, min(61, empties)) - 20) // 6)


def measured_depths(times, empties):
    """(depth, seconds) measured for the band of `empties`, shallowest first."""
    table = times["mid"].get(str(band(empties)), {})
    return sorted((int(depth), seconds) for depth, seconds in table.items())


def choose(times, empties, left, inc):
    """(midgame depth, exact empties, hard limit) for a move with `left` seconds on the
    clock and `inc` per move: see the module's header."""
    usable = max(0.0, left - MARGIN)
    # A call past this is killed; the retry gets as long again (see go).
    limit = max(0.05, usable * 0.4)
    # Every move still to play costs a call, the search aside.
    calls = (empties + 1) // 2
    spare = usable + calls * (inc - START_COST)
    # And the exact solve from ENDGAME_RESERVE empties is kept for.
    if empties > ENDGAME_RESERVE:
        spare -= times["exact"].get(str(ENDGAME_RESERVE), 0.0)
    exact = 0
    solve = times["exact"].get(str(empties))
    if solve is not None and solve - START_COST <= spare / 3:
        exact = empties
    to_think = max(0, (empties - 20) // 2) + 2
    share = START_COST + max(0.0, spare) / to_think
    depth, worst = 1, 0.0
    for candidate, cost in measured_depths(times, empties):
        # Measured times are noisy: a depth costs at least what a shallower one did.
        worst = max(worst, cost)
        if depth > 1 and worst > min(share, limit):
            break
        depth = candidate
    if not exact:
        # Near the end a midgame search as deep as the empties costs what a solve does,
        # and more than the table says: keep it shallower.
        depth = max(1, min(depth, empties - 6))
    return depth, exact, limit


def fallback_depth(empties):
    return 4 if empties > 12 else empties


def serve(zebra, times):
    board = Board()
    # The positions before each move played (passes included) and the move, for undo.
    history = []
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        ident = ""
        found = re.match(r"^(\d+)\s+(.*)$", line)
        if found:
            ident, line = found.group(1), found.group(2)
        words = line.split()
        command, args = words[0].lower(), words[1:]

        def reply(text="", ok=True):
            mark = "=" if ok else "?"
            out = mark + ident + (" " + text if text else "")
            sys.stdout.write(out + "\n\n")
            sys.stdout.flush()

        if command == "quit":
            reply()
            return
        if command == "ping":
            reply(" ".join(["pong", *args]))
        elif command == "newgame":
            spec = " ".join(args)
            if args and not (args[0] == "othello" and all(a in ("size=8", "rule=normal")
                                                          for a in args[1:])):
                reply(f"only 8x8 Othello under the normal rule, not '{spec}'", ok=False)
            else:
                board, history = Board(), []
                reply()
        elif command == "move":
            if len(args) != 1:
                reply("move takes one move", ok=False)
                continue
            before = copy.deepcopy(board)
            try:
                board.play(args[0])
                history.append((before, args[0].lower()))
                reply()
            except ValueError as error:
                reply(str(error), ok=False)
        elif command == "moves":
            reply(" ".join(board.legal()) or "pass")
        elif command == "go":
            before = copy.deepcopy(board)
            try:
                move = go(zebra, times, board, args)
                history.append((before, move))
                reply(move)
            except ValueError as error:
                reply(str(error), ok=False)
        elif command == "undo":
            if history:
                board, move = history.pop()
                reply(move)
            else:
                reply("no move to undo", ok=False)
        elif command == "setboard":
            reply("setboard is not supported: Zebra takes a move sequence", ok=False)
        else:
            reply(f"unknown command '{command}'", ok=False)


def go(zebra, times, board, args):
    started = time.monotonic()
    options = {}
    for key, value in zip(args[::2], args[1::2]):
        try:
            options[key] = int(value)
        except ValueError:
            raise ValueError(f"go {key} takes a number, not '{value}'") from None
    if len(args) % 2:
        raise ValueError(f"go: '{args[-1]}' has no value")
    legal = board.legal()
    if not legal:
        if not board.legal(3 - board.to_move):
            raise ValueError("the game is over")
        board.play("pass")
        return "pass"
    if len(legal) == 1:
        board.play(legal[0])
        return legal[0]
    empties = board.empties()
    if "depth" in options:
        depth = options["depth"]
        exact = empties if empties <= depth else 0
        limit = None
        if "movetime" in options:
            limit = max(0.05, options["movetime"] / 1000 - MARGIN)
    elif "movetime" in options:
        depth, exact, limit = choose(times, empties, 2 * options["movetime"] / 1000, 0)
        limit = max(0.05, 0.5 * (options["movetime"] / 1000 - MARGIN))
    elif "time" in options:
        depth, exact, limit = choose(times, empties, options["time"] / 1000,
                                     options.get("inc", 0) / 1000)
    else:
        depth, exact, limit = choose(times, empties, 2.0, 0)
    log(f"{empties} empties: depth {depth}, exact from {exact}, limit {limit} s")
    move = zebra.call(board.moves, depth, exact, limit)
    log(f"  {move} after {time.monotonic() - started:.2f} s")
    if move is None or move not in legal:
        left = None if limit is None else 2 * limit - (time.monotonic() - started)
        log(f"depth {depth} gave {move!r}; asking depth {fallback_depth(empties)} "
            f"within {left} s")
        move = zebra.call(board.moves, fallback_depth(empties), 0, left)
    if move is None or move not in legal:
        log(f"no move from Zebra in time; playing {legal[0]}")
        move = legal[0]
    board.play(move)
    return move


def calibrate(zebra, games_file, games, budget, part):
    """Times Zebra's calls on positions of `games` games: prints the TIMES table."""
    sequences = []
    with open(games_file) as handle:
        for text in handle:
            words = text.split()
            if words and len(words[0]) >= 100:
                sequences.append([words[0][k:k + 2] for k in range(0, len(words[0]), 2)])
            if len(sequences) >= games:
                break

    def position(moves, empties):
        board = Board()
        for move in moves:
            if board.empties() == empties:
                break
            if not board.legal():
                board.play("pass")
            board.play(move)
        if board.empties() != empties or len(board.legal()) < 2:
            return None
        return board

    def timed(board, depth, exact):
        started = time.monotonic()
        move = zebra.call(board.moves, depth, exact, budget * 3)
        seconds = time.monotonic() - started
        if move not in board.legal():
            return None
        return seconds

    def p90(values):
        values = sorted(values)
        return values[min(len(values) - 1, int(0.9 * len(values)))]

    table = {"mid": {}, "exact": {}}
    start_costs = []
    for low in range(20, 57, 6) if part in ("all", "mid") else []:
        row = {}
        boards = [b for b in (position(s, low + 2) for s in sequences) if b]
        for depth in MID_DEPTHS:
            seconds = [timed(b, depth, 0) for b in boards]
            if not seconds or None in seconds:
                break
            if depth == 1:
                start_costs += seconds
                continue
            row[str(depth)] = round(p90(seconds), 3)
            print(f"mid {low}-{low + 5} depth {depth}: p90 {row[str(depth)]} s "
                  f"over {len(seconds)}", file=sys.stderr, flush=True)
            if row[str(depth)] > budget:
                break
        table["mid"][str(low)] = row
    if start_costs:
        table["start"] = round(sorted(start_costs)[len(start_costs) // 2], 3)
    for empties in range(8, MAX_EXACT + 1) if part in ("all", "exact") else []:
        boards = [b for b in (position(s, empties) for s in sequences) if b]
        seconds = [timed(b, 1, empties) for b in boards]
        if not seconds or None in seconds:
            break
        table["exact"][str(empties)] = round(p90(seconds), 3)
        print(f"exact {empties}: p90 {table['exact'][str(empties)]} s over {len(seconds)}",
              file=sys.stderr, flush=True)
        if table["exact"][str(empties)] > budget:
            break
    print(json.dumps(table, indent=1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("zebra", help="the zebra binary (coeffs2.bin beside it)")
    parser.add_argument("--coeffs", help="coeffs2.bin (default: beside the binary)")
    parser.add_argument("--solver", help="the zebra binary for calls that solve exactly "
                        "(default: the same); an -O2 build of lk16/zebra crashes in its "
                        "exact solver, the Makefile's unoptimised build does not")
    parser.add_argument("--times", help="a JSON table from --calibrate instead of TIMES")
    parser.add_argument("--calibrate", metavar="WTHOR_FILE",
                        help="time Zebra on positions of these games and print the table")
    parser.add_argument("--games", type=int, default=20, help="games --calibrate samples")
    parser.add_argument("--part", choices=["all", "mid", "exact"], default="all",
                        help="what --calibrate measures: midgame depths, exact solves or both")
    parser.add_argument("--budget", type=float, default=3.0,
                        help="--calibrate stops deepening past this p90 time (s)")
    parser.add_argument("--log", help="also append the log (depth chosen per move) to FILE")
    options = parser.parse_args()
    if options.log:
        LOG.append(open(options.log, "a"))
    coeffs = options.coeffs or os.path.join(os.path.dirname(os.path.abspath(options.zebra)),
                                            "coeffs2.bin")
    for path in (options.zebra, coeffs):
        if not os.path.isfile(path):
            sys.exit(f"zebra-native: {path} does not exist")
    times = TIMES
    if options.times:
        with open(options.times) as handle:
            times = json.load(handle)
    if options.solver and not os.path.isfile(options.solver):
        sys.exit(f"zebra-native: {options.solver} does not exist")
    zebra = Zebra(options.zebra, coeffs, options.solver)
    try:
        if options.calibrate:
            calibrate(zebra, options.calibrate, options.games, options.budget, options.part)
        else:
            serve(zebra, times)
    finally:
        zebra.close()


if __name__ == "__main__":
    main()
