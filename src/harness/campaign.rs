//! Matches spread over machines: `--shard I/N` plays a fixed slice of the game pairs,
//! `--jsonl` appends one JSON line per finished pair, `--resume` continues such a file,
//! and `arbor match merge` tallies files into the table one unsharded run prints.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::engine::Setup;
use super::referee::{Ending, GameRecord, TimeControl};
use super::stats::Sprt;
use super::swap2::Swap2Log;
use super::{PairDone, Played, Tally, margin_label, result_text, summary};
use crate::bounds;
use crate::game::Side;
use crate::game::variant::Variant;
use crate::text::quote;

/// Most shards a match is split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// The `index`-th (from 0) of `count` slices of a match's pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// The whole match.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `I/N`: the I-th of N shards, 1 <= I <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("expected I/N such as 1/4, got {}", quote(text)))?;
        let count = bounds::number_in(count, 1, MAX_SHARDS, "")?;
        let index = bounds::number_in(index, 1, count, "")?;
        Ok(Shard {
            index: index as usize - 1,
            count: count as usize,
        })
    }

    /// Pairs are dealt in turn, so every shard gets a share of every pairing and of the
    /// openings from first to last (an early stop sees a fair sample).
    pub fn owns(self, pair: usize) -> bool {
        pair % self.count == self.index
    }

    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// This shard's block of `total` items numbered in order (`arbor selfplay`'s games):
    /// contiguous, so that the shards' outputs concatenated in shard order are the
    /// whole run's. Blocks differ in size by one at most; with more shards than items
    /// some are empty.
    pub fn block(self, total: usize) -> std::ops::Range<usize> {
        let at = |index: usize| (total as u128 * index as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// What makes pairs from different runs parts of one match: lines that differ in any of
/// these are refused by `--resume` and by `merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchInfo {
    /// The game with its options (`othello size=6 rule=normal`).
    pub game: String,
    /// Engine names in `--engine` order.
    pub engines: Vec<String>,
    pub control: String,
    /// FNV-1a of the scheduled openings: runs with another seed or file differ here.
    pub openings: String,
    /// Pairs in the whole match, over all shards.
    pub pairs: usize,
    /// `swap2` when the engines open every game by Swap2 (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
}

impl MatchInfo {
    pub fn new(
        variant: Variant,
        engines: Vec<String>,
        control: TimeControl,
        openings: &[Setup],
        pairs: usize,
        swap2: bool,
    ) -> MatchInfo {
        // FNV-1a: the same on every machine and Rust version, unlike the std hashers.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for opening in openings {
            let text = match opening {
                Setup::Moves(moves) => moves.join(","),
                Setup::Board(board) => board.clone(),
            };
            for byte in text.bytes().chain([b'\n']) {
                hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
        let control = match control {
            TimeControl::Clock { base, inc } => {
                format!("tc {}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(time) => format!("movetime {}", time.as_millis()),
            TimeControl::Depth(depth) => format!("depth {depth}"),
            TimeControl::Nodes(nodes) => format!("nodes {nodes}"),
        };
        MatchInfo {
            game: variant.to_string(),
            engines,
            control,
            openings: format!("{hash:016x}"),
            pairs,
            opening: swap2.then(|| "swap2".to_string()),
        }
    }

    fn variant(&self) -> Result<Variant, String> {
        let mut words = self.game.split_whitespace();
        let name = words.next().unwrap_or("");
        let options: Vec<(&str, &str)> = words.filter_map(|w| w.split_once('=')).collect();
        Variant::parse(name, options).map_err(|e| e.to_string())
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PairLine {
    #[serde(rename = "match")]
    info: MatchInfo,
    pair: usize,
    /// The pairing's first engine's points over both games, doubled (0..=4).
    pentanomial: usize,
    games: [GameLine; 2],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameLine {
    number: usize,
    black: String,
    white: String,
    setup: SetupLine,
    result: String,
    /// Black's score as the game scores it (Othello: the disc score).
    score: i32,
    ending: EndingLine,
    status: String,
    moves: Vec<String>,
    used_ms: [u64; 2],
    /// A Swap2 opening: who proposed and the decisions (its stones are the setup).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    swap2: Option<Swap2Line>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Swap2Line {
    /// The engine that proposed the first three stones.
    proposer: String,
    /// Stones by name, or `swap`, in order (proposer, other, proposer).
    decisions: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SetupLine {
    Moves(Vec<String>),
    Board(String),
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum EndingLine {
    Rules,
    Time { side: SideName },
    Illegal { side: SideName, text: String },
    Failure { side: SideName, text: String },
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SideName {
    Black,
    White,
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::Black => SideName::Black,
            Side::White => SideName::White,
        }
    }
}

impl From<SideName> for Side {
    fn from(side: SideName) -> Side {
        match side {
            SideName::Black => Side::Black,
            SideName::White => Side::White,
        }
    }
}

fn game_line(played: &Played, names: &[String]) -> GameLine {
    let record = &played.record;
    GameLine {
        number: played.number,
        black: names[played.black].clone(),
        white: names[played.white].clone(),
        setup: match &played.setup {
            Setup::Moves(moves) => SetupLine::Moves(moves.clone()),
            Setup::Board(board) => SetupLine::Board(board.clone()),
        },
        result: result_text(record.winner).to_string(),
        score: record.black_score,
        ending: match &record.ending {
            Ending::Rules => EndingLine::Rules,
            Ending::TimeForfeit(side) => EndingLine::Time {
                side: (*side).into(),
            },
            Ending::Illegal(side, text) => EndingLine::Illegal {
                side: (*side).into(),
                text: text.clone(),
            },
            Ending::Failure(side, text) => EndingLine::Failure {
                side: (*side).into(),
                text: text.clone(),
            },
        },
        status: record.status.clone(),
        moves: record.moves.clone(),
        used_ms: record.used.map(|used| used.as_millis() as u64),
        swap2: record.swap2.as_ref().map(|log| Swap2Line {
            proposer: names[match log.proposer {
                Side::Black => played.black,
                Side::White => played.white,
            }]
            .clone(),
            decisions: log.decisions.clone(),
        }),
    }
}

/// The JSON line of a finished pair.
pub fn pair_line(info: &MatchInfo, done: &PairDone) -> String {
    let line = PairLine {
        info: info.clone(),
        pair: done.games[0].pair,
        pentanomial: done.points,
        games: [
            game_line(&done.games[0], &info.engines),
            game_line(&done.games[1], &info.engines),
        ],
    };
    serde_json::to_string(&line).expect("plain data serializes")
}

fn played_from(line: GameLine, pair: usize, names: &[String]) -> Result<Played, String> {
    let index = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("engine {} is not in the match", quote(name)))
    };
    let (black, white) = (index(&line.black)?, index(&line.white)?);
    if black == white {
        return Err(format!("{} plays both colours", quote(&line.black)));
    }
    let winner = match line.result.as_str() {
        "1-0" => Some(Side::Black),
        "0-1" => Some(Side::White),
        "1/2-1/2" => None,
        other => {
            return Err(format!(
                "result {}: expected 1-0, 0-1 or 1/2-1/2",
                quote(other)
            ));
        }
    };
    let swap2 = match line.swap2 {
        None => None,
        Some(swap2) => Some(Swap2Log {
            proposer: if swap2.proposer == line.black {
                Side::Black
            } else if swap2.proposer == line.white {
                Side::White
            } else {
                return Err(format!(
                    "Swap2 proposer {} plays neither colour",
                    quote(&swap2.proposer)
                ));
            },
            decisions: swap2.decisions,
        }),
    };
    let ending = match line.ending {
        EndingLine::Rules => Ending::Rules,
        EndingLine::Time { side } => Ending::TimeForfeit(side.into()),
        EndingLine::Illegal { side, text } => Ending::Illegal(side.into(), text),
        EndingLine::Failure { side, text } => Ending::Failure(side.into(), text),
    };
    Ok(Played {
        number: line.number,
        pair,
        black,
        white,
        setup: match line.setup {
            SetupLine::Moves(moves) => Setup::Moves(moves),
            SetupLine::Board(board) => Setup::Board(board),
        },
        record: GameRecord {
            winner,
            ending,
            moves: line.moves,
            black_score: line.score,
            status: line.status,
            used: line.used_ms.map(Duration::from_millis),
            swap2,
        },
    })
}

/// One finished pair read back from a file.
pub struct ReadPair {
    pub info: MatchInfo,
    pub line: usize,
    pub games: [Played; 2],
}

/// A JSON-lines file of pairs. A last line without its newline was cut short by a kill
/// (lines are written whole, newline included): it is not counted, and `complete` is
/// the length of the file without it.
pub struct PairFile {
    pub pairs: Vec<ReadPair>,
    pub complete: u64,
    pub unfinished: bool,
}

pub fn read_pairs(path: &Path) -> Result<PairFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let complete = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |end| end + 1);
    let mut pairs = Vec::new();
    for (number, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        let line = if number == 0 {
            crate::files::strip_bom_bytes(line)
        } else {
            line
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let read =
            parse_pair(line).map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
        pairs.push(ReadPair {
            line: number + 1,
            ..read
        });
    }
    Ok(PairFile {
        pairs,
        complete: complete as u64,
        unfinished: complete < bytes.len(),
    })
}

fn parse_pair(line: &[u8]) -> Result<ReadPair, String> {
    let line: PairLine = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let info = line.info;
    if line.pair >= info.pairs {
        return Err(format!(
            "pair {} is beyond the match's {} pairs",
            line.pair, info.pairs
        ));
    }
    let [first, second] = line.games;
    let games = [
        played_from(first, line.pair, &info.engines)?,
        played_from(second, line.pair, &info.engines)?,
    ];
    let (first, second) = (games[0].seats(), games[1].seats());
    if first.0 != second.1 || first.1 != second.0 {
        return Err(
            "the pair's games are not the same engines with colours (or Swap2 proposers) swapped"
                .into(),
        );
    }
    // Pairs are scheduled in order, two games each.
    if [games[0].number, games[1].number] != [2 * line.pair + 1, 2 * line.pair + 2] {
        return Err(format!(
            "pair {} must be games {} and {}, not {} and {}",
            line.pair,
            2 * line.pair + 1,
            2 * line.pair + 2,
            games[0].number,
            games[1].number
        ));
    }
    if line.pentanomial != pair_points(&games) {
        return Err(format!(
            "pentanomial {} does not match the pair's results",
            line.pentanomial
        ));
    }
    Ok(ReadPair {
        info,
        line: 0,
        games,
    })
}

/// The pairing's first engine's points over a pair's two games, doubled.
pub fn pair_points(games: &[Played; 2]) -> usize {
    let first = games[0].black.min(games[0].white);
    games
        .iter()
        .map(|game| match game.record.winner {
            None => 1,
            Some(Side::Black) if game.black == first => 2,
            Some(Side::White) if game.white == first => 2,
            Some(_) => 0,
        })
        .sum()
}

/// `arbor match merge`: the pairs of every file tallied as one match; the table, pair
/// counts and SPRT lines are those the unsharded run prints.
pub fn merge(paths: &[PathBuf], sprt: Option<Sprt>, out: &mut dyn Write) -> Result<(), String> {
    if paths.is_empty() {
        return Err("merge needs at least one JSON-lines file".into());
    }
    let mut first: Option<(MatchInfo, String)> = None;
    let mut seen: HashMap<usize, String> = HashMap::new();
    let mut pairs = Vec::new();
    for path in paths {
        let file = read_pairs(path)?;
        if file.unfinished {
            eprintln!(
                "arbor: {}: the last line is unfinished (a run cut short): not counted",
                path.display()
            );
        }
        for read in file.pairs {
            let place = format!("{}:{}", path.display(), read.line);
            match &first {
                None => first = Some((read.info.clone(), place.clone())),
                Some((info, origin)) if *info != read.info => {
                    return Err(format!(
                        "{place}: the pair is from another match than {origin} ({})",
                        difference(info, &read.info)
                    ));
                }
                Some(_) => {}
            }
            let pair = read.games[0].pair;
            if let Some(before) = seen.insert(pair, place.clone()) {
                return Err(format!(
                    "pair {pair} is in {before} and again in {place} (shards overlap or a file was given twice)"
                ));
            }
            pairs.push(read.games);
        }
    }
    let Some((info, _)) = first else {
        return Err("the files hold no finished pair".into());
    };
    if sprt.is_some() && info.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let variant = info.variant()?;
    pairs.sort_by_key(|games| games[0].pair);
    let mut tally = Tally::new(info.engines.len());
    for [first, second] in pairs {
        tally.add(first);
        tally.add(second);
    }
    let names: Vec<&str> = info.engines.iter().map(String::as_str).collect();
    let missing = info.pairs.saturating_sub(tally.pairs);
    let mut text = format!(
        "merged {} of {} pairs ({} games) from {} file{}{}\n",
        tally.pairs,
        info.pairs,
        tally.games,
        paths.len(),
        if paths.len() == 1 { "" } else { "s" },
        if missing > 0 {
            format!("; {missing} pairs not played yet")
        } else {
            String::new()
        }
    );
    text.push_str(&summary(&names, &tally, sprt, margin_label(variant)));
    write!(out, "{text}").map_err(|e| e.to_string())
}

fn difference(a: &MatchInfo, b: &MatchInfo) -> String {
    let mut fields = Vec::new();
    if a.game != b.game {
        fields.push(format!("game {} vs {}", quote(&a.game), quote(&b.game)));
    }
    if a.engines != b.engines {
        fields.push(format!(
            "engines {} vs {}",
            quote(&a.engines.join(",")),
            quote(&b.engines.join(","))
        ));
    }
    if a.control != b.control {
        fields.push(format!(
            "control {} vs {}",
            quote(&a.control),
            quote(&b.control)
        ));
    }
    if a.opening != b.opening {
        fields.push(format!(
            "opening {} vs {}",
            a.opening.as_deref().unwrap_or("as scheduled"),
            b.opening.as_deref().unwrap_or("as scheduled")
        ));
    }
    if a.openings != b.openings {
        fields.push("other openings: another seed, --rounds or openings file".into());
    }
    if a.pairs != b.pairs {
        fields.push(format!("{} vs {} pairs", a.pairs, b.pairs));
    }
    fields.join("; ")
}

/// For `--resume`: the finished pairs of a JSON-lines file of this match and shard, and
/// whether an unfinished last line was cut off (so that new lines follow whole ones).
pub fn resume(
    path: &Path,
    info: &MatchInfo,
    shard: Shard,
) -> Result<(Vec<[Played; 2]>, bool), String> {
    let file = read_pairs(path)?;
    let mut pairs: Vec<[Played; 2]> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for read in file.pairs {
        let place = format!("{}:{}:", path.display(), read.line);
        if read.info != *info {
            return Err(format!(
                "{place} the pair is from another match ({})",
                difference(&read.info, info)
            ));
        }
        let pair = read.games[0].pair;
        if !shard.owns(pair) {
            return Err(format!("{place} pair {pair} is not in shard {shard}"));
        }
        if !seen.insert(pair) {
            return Err(format!("{place} pair {pair} is in the file twice"));
        }
        pairs.push(read.games);
    }
    if file.unfinished {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|handle| handle.set_len(file.complete))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((pairs, file.unfinished))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_parsed_with_clear_errors() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(Shard::parse("4/4").unwrap().to_string(), "4/4");
        for (bad, expected) in [
            ("0/4", "outside 1..=4"),
            ("5/4", "outside 1..=4"),
            ("1/0", "outside 1..=1000000"),
            ("1", "expected I/N"),
            ("a/4", "non-negative integer"),
            ("1/4/2", "non-negative integer"),
            ("-1/4", "non-negative integer"),
        ] {
            let error = Shard::parse(bad).unwrap_err();
            assert!(error.contains(expected), "{bad}: {error}");
        }
    }

    #[test]
    fn blocks_cover_the_items_in_order() {
        for (total, count) in [(10, 3), (3, 4), (0, 2), (7, 1)] {
            let blocks: Vec<_> = (1..=count)
                .map(|i| Shard::parse(&format!("{i}/{count}")).unwrap().block(total))
                .collect();
            assert_eq!(blocks[0].start, 0);
            assert_eq!(blocks[count - 1].end, total);
            for pair in blocks.windows(2) {
                assert_eq!(pair[0].end, pair[1].start, "{total} in {count}");
            }
            assert!(blocks.iter().all(|b| b.len() <= total.div_ceil(count)));
        }
        assert_eq!(Shard::parse("2/3").unwrap().block(10), 3..6);
    }
}
