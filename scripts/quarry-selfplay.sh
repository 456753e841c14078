#!/usr/bin/env bash
# Quarry (the GTP GUI for Othello, Go and Amazons in Debian's packages) plays one game of
# 8x8 Othello with `arbor gtp` on both sides under a virtual X server, saves a
# screenshot of the finished board, and replays Quarry's GTP log through arbor's own
# rules to check that the game was legal and reached its end.
#
#   scripts/quarry-selfplay.sh [OUT.png]     (ARBOR=path/to/arbor to choose the binary)
#
# Needs quarry, xvfb-run, xdotool and ImageMagick's import (Debian: apt-get install
# quarry xvfb xauth xdotool imagemagick). Exits 0 when the game ended legally, 1 when
# it did not, 2 when a tool is missing.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/target/quarry-selfplay.png}
arbor=${ARBOR:-}
if [[ -z $arbor ]]; then
    for candidate in "$here/target/release/arbor" "$here/target/debug/arbor"; do
        if [[ -x $candidate ]]; then
            arbor=$candidate
            break
        fi
    done
fi
quarry=$(command -v quarry || echo /usr/games/quarry)
for tool in "$quarry" xvfb-run xdotool import "$arbor"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "quarry-selfplay: $tool not found" >&2
        exit 2
    fi
done
arbor=$(cd "$(dirname "$arbor")" && pwd)/$(basename "$arbor")
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Quarry reads its engines and the new game's settings from ~/.quarry: arbor plays both
# colours at one second a move ("Limited time per move").
cat >"$work/.quarry" <<EOF
# This is Quarry configuration file.

[GTP Engine "arbor "]
Screen name format	= "%n %v"
Name			= "arbor"
Command line		= "$arbor gtp --hash 32"
Supported games		= "Reversi"

[New Game Parameters]
Game			= "Reversi"
White player name	= "arbor"
White is computer	= true
Engine playing white	= "arbor "
Black player name	= "arbor"
Black is computer	= true
Engine playing black	= "arbor "

[New Reversi Game Parameters]
Board size		= 8
Time control type	= 2
Keep track of total time = 0
Time limit for game	= 10:00
Time limit for move	= 00:01
Main time		= 00:00
Overtime period length	= 05:00
Moves per overtime	= 10
EOF

# Runs inside the virtual display: starts Quarry, clicks through the New Game dialog
# (Game & Players, then Forward to the time settings, then Forward to play), waits until
# the GTP log stops growing (the game is over) and takes the screenshot.
cat >"$work/session.sh" <<'EOF'
#!/usr/bin/env bash
set -u
work=$1 out=$2 quarry=$3
log=$work/gtp.log
HOME=$work stdbuf -oL "$quarry" --gtp-log=- >"$log" 2>"$work/quarry.err" &
pid=$!
# The window with the given title, once it is shown (30 s at most).
window() {
    local id
    for _ in $(seq 60); do
        id=$(xdotool search --onlyvisible --name "^$1\$" 2>/dev/null | head -1)
        if [[ -n $id ]]; then echo "$id"; return 0; fi
        sleep 0.5
    done
    return 1
}
# Clicks `dx,dy` from a window's bottom-right corner (the dialog's Forward button).
click_from_corner() {
    eval "$(xdotool getwindowgeometry --shell "$1")"
    xdotool mousemove $((X + WIDTH + $2)) $((Y + HEIGHT + $3)) click 1
}
center=$(window "Quarry Control Center") || { echo "no Quarry window" >&2; exit 1; }
eval "$(xdotool getwindowgeometry --shell "$center")"
# "New Game" is the first button at the top of the control center.
xdotool mousemove $((X + WIDTH / 2)) $((Y + 26)) click 1
dialog=$(window "New Game") || { echo "no New Game dialog" >&2; exit 1; }
sleep 1
click_from_corner "$dialog" -62 -29
sleep 1
click_from_corner "$dialog" -62 -29
# One second a move, 60 moves: the log goes quiet for 8 s once the game is over.
last=-1 quiet=0
for _ in $(seq 300); do
    sleep 1
    size=$(stat -c %s "$log")
    if [[ $size -eq $last && $size -gt 0 ]]; then
        quiet=$((quiet + 1))
        [[ $quiet -ge 8 ]] && break
    else
        quiet=0
    fi
    last=$size
done
import -window root "$out"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exit 0
EOF
chmod +x "$work/session.sh"
xvfb-run -a -s "-screen 0 1024x768x24" "$work/session.sh" "$work" "$out" "$quarry"

# The moves Quarry's engines answered to `genmove`, in order, replayed through arbor's
# native protocol (a colour moving twice means the other side passed).
moves=$(awk '/^> genmove /{colour=$3; next} colour && /^  = /{print colour, $2; colour=""}' "$work/gtp.log")
count=$(printf '%s\n' "$moves" | grep -c . || true)
if [[ $count -eq 0 ]]; then
    echo "quarry-selfplay: no move was played (Quarry's log: $(head -c 300 "$work/gtp.log"))" >&2
    exit 1
fi
script=$(printf '%s\n' "$moves" | awk '
    BEGIN { side = "black" }
    {
        if ($1 != side) print "move pass"
        print "move " $2
        side = ($1 == "black") ? "white" : "black"
    }
    END { print "status" }')
replies=$(printf '%s\n' "$script" | "$arbor" --hash 16)
errors=$(printf '%s\n' "$replies" | grep '^?' || true)
status=$(printf '%s\n' "$replies" | grep -v '^$' | tail -1)
echo "quarry-selfplay: $count moves played by arbor gtp in Quarry; arbor's replay: ${status#= }"
echo "quarry-selfplay: screenshot $out"
if [[ -n $errors || $status != "= over "* ]]; then
    echo "quarry-selfplay: the game did not end legally: ${errors:-$status}" >&2
    exit 1
fi
