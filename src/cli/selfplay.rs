//! `arbor selfplay`: arbor's own Gomoku self-play as training data, in the scored-position
//! format of `game::gomoku::dataset` (Rapfi's text format), so that training never needs
//! another engine.
//!
//! Game `i` of a campaign starts from 4 to 8 random stones within 4 points of the centre
//! (ChaCha8 stream `i` of the seed), drawn again while a search scores them more than 150
//! from even (as Rapfi's self-play balances its openings), then arbor plays both sides,
//! every move a search of `--nodes` nodes with tables cleared at the start of the game and
//! one search thread.
//! Every position after the opening stones is a line: the moves so far, the game's result
//! for the side to move, and the move played with its search score in Rapfi's units. So
//! game `i` is the same whatever the thread count, the shard that plays it or the
//! machine, and the shards' files (`--shard I/N`: contiguous blocks of the games)
//! concatenated in order are the one-process file byte for byte.
//!
//! The file is appended a whole game at a time. A record of the arguments sits beside it
//! (`FILE.selfplay.json`); the same command again continues after the last complete
//! game, dropping an unfinished one (a run killed while writing), and other arguments
//! are refused.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::bounds;
use crate::files::{self, Output};
use crate::game::gomoku::dataset::{self, MATE_SCORE, Result3, Rule, SCORE_SCALE, Sample};
use crate::game::gomoku::{EVAL_SCALE, Gomoku};
use crate::game::roles::{Score, WIN, WIN_BOUND};
use crate::game::{Game, Move};
use crate::harness::campaign::Shard;
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

/// Nodes a move's search visits unless `--nodes` says otherwise.
pub const DEFAULT_NODES: u64 = 10_000;
/// Memory for a game's tables, MiB, unless `--hash` says otherwise.
pub const DEFAULT_HASH_MB: usize = 8;
/// Rapfi's mate: a win `n` plies ahead scores `RAPFI_MATE - n`.
pub const RAPFI_MATE: i32 = 30_000;
/// Evaluations (not mates) are kept within this, well below the mates.
pub const EVAL_LIMIT: i32 = 20_000;
/// Random stones of a game's opening, within `OPENING_REACH` points of the centre.
const OPENING_STONES: RangeInclusive<usize> = 4..=8;
const OPENING_REACH: usize = 4;
/// An opening is drawn again while its search scores it beyond this for either side (a
/// chance to win outside 46% to 54% at `EVAL_SCALE`), at most `OPENING_TRIES` times.
const OPENING_BALANCE: Score = 150;
const OPENING_TRIES: usize = 20;
/// Most games in a campaign.
const MAX_GAMES: u64 = 1_000_000_000;
/// Most nodes a move.
const MAX_NODES: u64 = 1_000_000_000;
/// Longest line read back (a full 26x26 board's moves take under 2,100 bytes).
const MAX_LINE: usize = 8192;
/// Time between progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// `arbor selfplay`'s options.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game: gomoku (the one the dataset format holds).
    #[arg(long, default_value = "gomoku")]
    pub game: String,
    /// Board size, 5 to 26 (the format names columns by one letter).
    #[arg(long, default_value_t = 15, value_parser = board_size)]
    pub size: usize,
    /// freestyle, exact (exactly five wins) or renju.
    #[arg(long, default_value = "freestyle", value_parser = parse_rule)]
    pub rule: Rule,
    /// Games in the whole campaign (over all shards).
    #[arg(long, value_parser = game_count)]
    pub games: usize,
    /// Seed of the openings: game I of seed S is the same game everywhere.
    #[arg(long, default_value_t = 1, value_parser = bounds::number)]
    pub seed: u64,
    /// Nodes each move's search visits.
    #[arg(long, default_value_t = DEFAULT_NODES, value_parser = node_count)]
    pub nodes: u64,
    /// Memory for each game's tables, MiB (it shapes the searches: a campaign keeps its
    /// value).
    #[arg(long, default_value_t = DEFAULT_HASH_MB, value_parser = bounds::hash_mb)]
    pub hash: usize,
    /// Plays only the I-th of N contiguous blocks of the games (1 <= I <= N).
    #[arg(long, value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Games played at once, one search thread each (the file is the same for any
    /// count); default: the machine's cores.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    pub threads: usize,
    /// The dataset file, appended a game at a time; the same command again continues
    /// it. `FILE.selfplay.json` beside it records the arguments.
    #[arg(long)]
    pub out: PathBuf,
}

fn board_size(text: &str) -> Result<usize, String> {
    bounds::number_in(text, 5, dataset::MAX_SIZE as u64, "").map(|size| size as usize)
}

fn game_count(text: &str) -> Result<usize, String> {
    bounds::number_in(text, 1, MAX_GAMES, " games").map(|games| games as usize)
}

fn node_count(text: &str) -> Result<u64, String> {
    bounds::number_in(text, 1, MAX_NODES, " nodes")
}

/// The rule by arbor's names (`newgame gomoku rule=...`), or the format's `standard`.
fn parse_rule(text: &str) -> Result<Rule, String> {
    match text.to_ascii_lowercase().as_str() {
        "freestyle" => Ok(Rule::Freestyle),
        "exact" | "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        _ => Err(format!(
            "unknown rule {}: expected freestyle, exact or renju",
            crate::text::quote(text)
        )),
    }
}

/// arbor's name of a rule.
fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "exact",
        Rule::Renju => "renju",
    }
}

impl SelfplayArgs {
    /// Plays the campaign's games (or what is missing of them), progress on stderr and
    /// a summary on stdout.
    pub fn run(&self) -> Result<(), String> {
        if !self.game.eq_ignore_ascii_case("gomoku") {
            return Err(format!(
                "selfplay writes Gomoku data only (--game gomoku), not {}",
                crate::text::quote(&self.game)
            ));
        }
        let campaign = Campaign {
            size: self.size,
            rule: self.rule,
            games: self.games,
            seed: self.seed,
            nodes: self.nodes,
            hash: self.hash,
            shard: self.shard.unwrap_or(Shard::WHOLE),
        };
        let summary = run(&campaign, &self.out, self.threads, &mut std::io::stderr())?;
        println!("{}", summary.line(&self.out, self.threads));
        Ok(())
    }
}

/// What makes the games of a file: everything but the thread count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Campaign {
    pub size: usize,
    pub rule: Rule,
    /// Games of the whole campaign, over all shards.
    pub games: usize,
    pub seed: u64,
    pub nodes: u64,
    /// MiB of a game's tables.
    pub hash: usize,
    pub shard: Shard,
}

/// The record beside a file: the arguments it was written with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Identity {
    command: String,
    version: String,
    game: String,
    size: usize,
    rule: String,
    games: usize,
    seed: u64,
    nodes: u64,
    hash: usize,
    shard: String,
}

impl Campaign {
    fn identity(&self) -> Identity {
        Identity {
            command: "arbor selfplay".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            game: "gomoku".into(),
            size: self.size,
            rule: rule_name(self.rule).into(),
            games: self.games,
            seed: self.seed,
            nodes: self.nodes,
            hash: self.hash,
            shard: self.shard.to_string(),
        }
    }

    /// The games this shard plays, by their numbers in the campaign.
    pub fn block(&self) -> Range<usize> {
        self.shard.block(self.games)
    }

    fn start(&self) -> Result<Gomoku, String> {
        Gomoku::new(self.rule.config(self.size)).map_err(|e| e.to_string())
    }
}

/// A search score of arbor's in Rapfi's units: a win `n` plies ahead `30000 - n` (`n`
/// kept below 500, so that every mate is within 500 of 30,000 as the format has it), a
/// loss its negative, any other score scaled from arbor's chance to Rapfi's
/// (`score * 200 / EVAL_SCALE`: the same chance to win) and kept within ±20,000.
pub fn rapfi_score(score: Score) -> i32 {
    let mate = |plies: Score| RAPFI_MATE - plies.clamp(0, RAPFI_MATE - MATE_SCORE - 1);
    if score >= WIN_BOUND {
        mate(WIN - score)
    } else if score <= -WIN_BOUND {
        -mate(WIN + score)
    } else {
        let scaled = (score as f64 * SCORE_SCALE / EVAL_SCALE).round();
        scaled.clamp(-EVAL_LIMIT as f64, EVAL_LIMIT as f64) as i32
    }
}

/// Game `index` of the campaign (see the module's header): its positions after the
/// opening, in order.
pub fn play_game(
    campaign: &Campaign,
    searcher: &mut Searcher<Gomoku>,
    index: usize,
) -> Result<Vec<Sample>, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(campaign.seed);
    rng.set_stream(index as u64);
    let limits = Limits {
        nodes: Some(campaign.nodes),
        ..Limits::default()
    };
    let stop = Stop::never().with_node_limit(campaign.nodes);
    let (mut game, mut moves) = balanced_opening(campaign, searcher, &mut rng, &limits, &stop)?;
    searcher.clear();
    let mut chosen = Vec::new();
    while game.outcome().is_none() {
        let side = game.side_to_move();
        let result = searcher.search_to(&game, &limits, &stop, &mut |_| {});
        if !game.is_legal(result.best) {
            return Err(format!(
                "game {index}: the search chose an illegal move {}",
                game.format_move(result.best)
            ));
        }
        chosen.push((side, result.best.to_bits(), rapfi_score(result.score)));
        game.make(result.best);
    }
    // A search stopped because the output went away played on blindly: not a game.
    if crate::stop::abandoned() {
        return Err("stopped: standard output was closed".into());
    }
    let winner = game.outcome().and_then(|outcome| outcome.winner);
    let mut samples = Vec::with_capacity(chosen.len());
    for (side, best, score) in chosen {
        let result = match winner {
            None => Result3::Draw,
            Some(winner) if winner == side => Result3::Win,
            Some(_) => Result3::Loss,
        };
        samples.push(Sample {
            size: campaign.size,
            rule: campaign.rule,
            moves: moves.clone(),
            result,
            best,
            score: Some(score),
            others: Vec::new(),
        });
        moves.push(best);
    }
    Ok(samples)
}

/// Random stones near the centre, drawn again while a search of the position (as a
/// move's) scores it beyond `OPENING_BALANCE` for either side, `OPENING_TRIES` times at
/// most: the stones and the moves that placed them.
fn balanced_opening(
    campaign: &Campaign,
    searcher: &mut Searcher<Gomoku>,
    rng: &mut ChaCha8Rng,
    limits: &Limits,
    stop: &Stop,
) -> Result<(Gomoku, Vec<u16>), String> {
    let size = campaign.size;
    let reach = OPENING_REACH.min((size - 1) / 2);
    let centre = size / 2;
    for attempt in 1..=OPENING_TRIES {
        let mut game = campaign.start()?;
        let mut moves = Vec::new();
        let stones = rng.random_range(OPENING_STONES);
        while moves.len() < stones {
            let row = centre + rng.random_range(0..=2 * reach) - reach;
            let col = centre + rng.random_range(0..=2 * reach) - reach;
            let mv = Move::new((row * size + col) as u16);
            if game.is_legal(mv) {
                game.make(mv);
                moves.push(mv.to_bits());
            }
        }
        if attempt < OPENING_TRIES {
            searcher.clear();
            let score = searcher.search_to(&game, limits, stop, &mut |_| {}).score;
            if score.abs() > OPENING_BALANCE {
                continue;
            }
        }
        return Ok((game, moves));
    }
    unreachable!("the last attempt is taken as it is")
}

/// Plays `games` on `threads` threads and hands each game's samples to `write` in game
/// order, as soon as the games before it are written. The first error stops it (the
/// games being played are finished and dropped).
fn play_games(
    campaign: &Campaign,
    games: Range<usize>,
    threads: usize,
    mut write: impl FnMut(usize, Vec<Sample>) -> Result<(), String>,
) -> Result<(), String> {
    if games.is_empty() {
        return Ok(());
    }
    let start = campaign.start()?;
    let next = AtomicUsize::new(games.start);
    let failed = AtomicBool::new(false);
    let workers = threads.clamp(1, games.len());
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Result<(usize, Vec<Sample>), String>>();
        for _ in 0..workers {
            let sender = sender.clone();
            let (start, next, failed, end) = (&start, &next, &failed, games.end);
            scope.spawn(move || {
                let mut searcher = match Searcher::new(start, campaign.hash) {
                    Ok(searcher) => searcher,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                };
                while !failed.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= end {
                        break;
                    }
                    let played = play_game(campaign, &mut searcher, index);
                    let stop = played.is_err();
                    if sender.send(played.map(|samples| (index, samples))).is_err() || stop {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut due = games.start;
        let mut outcome = Ok(());
        for message in receiver {
            let written = message.and_then(|(index, samples)| {
                waiting.insert(index, samples);
                while let Some(samples) = waiting.remove(&due) {
                    write(due, samples)?;
                    due += 1;
                }
                Ok(())
            });
            if let Err(error) = written {
                failed.store(true, Ordering::Relaxed);
                outcome = Err(error);
                break;
            }
        }
        outcome
    })
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games of the shard found complete in the file.
    pub resumed: usize,
    /// Games played by this run.
    pub played: usize,
    /// Positions those games wrote.
    pub positions: u64,
    /// Games of the shard in all.
    pub games: usize,
    pub elapsed: Duration,
}

impl Summary {
    /// The closing line: what the file holds and how fast this run played.
    pub fn line(&self, out: &Path, threads: usize) -> String {
        let hours = self.elapsed.as_secs_f64().max(1e-9) / 3600.0;
        let mut line = format!(
            "selfplay: {} games in {}: {} played in {:.1} s",
            self.resumed + self.played,
            out.display(),
            self.played,
            self.elapsed.as_secs_f64()
        );
        if self.played > 0 {
            line += &format!(
                " ({} positions; {:.0} games and {:.0} positions an hour, --threads {threads})",
                self.positions,
                self.played as f64 / hours,
                self.positions as f64 / hours
            );
        }
        if self.resumed > 0 {
            line += &format!(", {} were there already", self.resumed);
        }
        line
    }
}

/// `FILE.selfplay.json`: the arguments of the games in FILE.
pub fn record_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".selfplay.json");
    PathBuf::from(name)
}

/// Plays the shard's games that `out` does not hold yet and appends them to it.
pub fn run(
    campaign: &Campaign,
    out: &Path,
    threads: usize,
    progress: &mut dyn Write,
) -> Result<Summary, String> {
    if out.extension().is_some_and(|ext| ext == "gz") {
        return Err(format!(
            "{}: selfplay writes plain text, a game at a time (compress the finished file \
             with gzip; read_samples reads .gz)",
            out.display()
        ));
    }
    let block = campaign.block();
    let resumed = prepare(campaign, out, progress)?;
    if resumed > block.len() {
        return Err(format!(
            "{}: holds {resumed} games, more than the {} of shard {} of this campaign",
            out.display(),
            block.len(),
            campaign.shard
        ));
    }
    let todo = block.start + resumed..block.end;
    let mut file = files::open_append(out)?;
    let started = Instant::now();
    let mut summary = Summary {
        resumed,
        played: 0,
        positions: 0,
        games: block.len(),
        elapsed: Duration::ZERO,
    };
    let mut reported = Instant::now();
    let io = |e: std::io::Error| format!("{}: {e}", out.display());
    if resumed > 0 {
        let _ = writeln!(
            progress,
            "selfplay: {resumed} of {} games already in {}; playing the rest",
            block.len(),
            out.display()
        );
    }
    play_games(campaign, todo, threads, |_, samples| {
        let mut text = String::new();
        for sample in &samples {
            text += &sample.line();
            text.push('\n');
        }
        // One write a game: a run killed meanwhile leaves at most one unfinished game.
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        summary.played += 1;
        summary.positions += samples.len() as u64;
        if reported.elapsed() >= PROGRESS_EVERY {
            reported = Instant::now();
            let hours = started.elapsed().as_secs_f64() / 3600.0;
            let _ = writeln!(
                progress,
                "selfplay: {} of {} games, {} positions, {:.0} s, {:.0} games an hour",
                summary.resumed + summary.played,
                summary.games,
                summary.positions,
                started.elapsed().as_secs_f64(),
                summary.played as f64 / hours
            );
        }
        Ok(())
    })?;
    file.sync_all().map_err(io)?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Checks `out` and its record against the campaign: a new (or empty) file gets the
/// record; one written with the same arguments is cut back to its last complete game,
/// whose count is returned; anything else is refused.
fn prepare(campaign: &Campaign, out: &Path, progress: &mut dyn Write) -> Result<usize, String> {
    files::check_append(out)?;
    let record = record_path(out);
    let has_data = std::fs::metadata(out).is_ok_and(|metadata| metadata.len() > 0);
    let ours = campaign.identity();
    let theirs = match std::fs::read(&record) {
        Ok(bytes) => Some(serde_json::from_slice::<Identity>(&bytes).map_err(|e| {
            format!(
                "{}: not a record of arbor selfplay's arguments ({e})",
                record.display()
            )
        })?),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(format!("{}: {error}", record.display())),
    };
    match theirs {
        None if has_data => Err(format!(
            "{}: the file has data but no {} beside it, so it was not written by arbor \
             selfplay: choose another --out",
            out.display(),
            record.display()
        )),
        Some(theirs) if has_data && theirs != ours => Err(format!(
            "{}: written by arbor selfplay with other arguments ({}): give the same ones \
             to continue it, or another --out",
            out.display(),
            differences(&theirs, &ours)
        )),
        Some(_) if has_data => complete_games(campaign, out, progress),
        _ => {
            let mut text = serde_json::to_string(&ours).expect("plain fields");
            text.push('\n');
            Output::check(&record, true)?.write(text.as_bytes())?;
            Ok(0)
        }
    }
}

/// The fields in which two records differ, as `seed 1 (now 2)`.
fn differences(theirs: &Identity, ours: &Identity) -> String {
    let (a, b) = (
        serde_json::to_value(theirs).expect("plain fields"),
        serde_json::to_value(ours).expect("plain fields"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        unreachable!("records are objects");
    };
    a.iter()
        .filter(|(key, value)| b.get(*key) != Some(value))
        .map(|(key, value)| format!("{key} {value} (now {})", b[key]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a file of this campaign: every line a sample that replays, games one after
/// another each ended by its last move. Returns the complete games' count after cutting
/// off an unfinished last game (and a cut last line).
fn complete_games(
    campaign: &Campaign,
    out: &Path,
    progress: &mut dyn Write,
) -> Result<usize, String> {
    let file = std::fs::File::open(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut reader = BufReader::new(file);
    let (mut offset, mut complete, mut complete_end) = (0u64, 0usize, 0u64);
    // The last sample read and its position (before its move).
    let mut current: Option<(Sample, Gomoku)> = None;
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        let fail = |message: String| format!("{}: line {number}: {message}", out.display());
        if read == MAX_LINE && line.last() != Some(&b'\n') {
            return Err(fail(format!("longer than {MAX_LINE} bytes")));
        }
        if read == 0 || line.last() != Some(&b'\n') {
            break; // the end, or a last line cut short
        }
        let text = std::str::from_utf8(&line).map_err(|_| fail("not UTF-8".into()))?;
        let sample = Sample::parse(text).map_err(fail)?;
        if sample.size != campaign.size || sample.rule != campaign.rule {
            return Err(fail(format!(
                "a {}x{} {} game, not this campaign's",
                sample.size,
                sample.size,
                sample.rule.name()
            )));
        }
        let board = match current.take() {
            Some((last, mut board)) => {
                board.make(Move::new(last.best));
                if board.outcome().is_some() {
                    complete += 1;
                    complete_end = offset;
                    sample.position().map_err(fail)?
                } else if last.continues_into(&sample) && sample.moves.last() == Some(&last.best) {
                    if !board.is_legal(Move::new(sample.best)) {
                        return Err(fail("the move is not legal".into()));
                    }
                    board
                } else {
                    return Err(fail(
                        "the game before this line breaks off unfinished".into(),
                    ));
                }
            }
            None => sample.position().map_err(fail)?,
        };
        current = Some((sample, board));
        offset += read as u64;
    }
    if let Some((last, mut board)) = current {
        board.make(Move::new(last.best));
        if board.outcome().is_some() {
            complete += 1;
            complete_end = offset;
        }
    }
    let length = std::fs::metadata(out)
        .map_err(|e| format!("{}: {e}", out.display()))?
        .len();
    if complete_end < length {
        std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .and_then(|file| file.set_len(complete_end))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        let _ = writeln!(
            progress,
            "selfplay: {}: cut off an unfinished game at the end ({} bytes)",
            out.display(),
            length - complete_end
        );
    }
    Ok(complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;

    /// A small campaign: few nodes a move.
    fn campaign(games: usize, shard: &str) -> Campaign {
        Campaign {
            size: 15,
            rule: Rule::Freestyle,
            games,
            seed: 7,
            nodes: 300,
            hash: 1,
            shard: Shard::parse(shard).unwrap(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("arbor-selfplay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn quiet() -> std::io::Sink {
        std::io::sink()
    }

    #[test]
    fn scores_convert_to_rapfis_units() {
        assert_eq!(rapfi_score(0), 0);
        assert_eq!(rapfi_score(948), 200);
        assert_eq!(rapfi_score(-474), -100);
        // The same chance to win on both scales.
        let chance = |score: f64, scale: f64| 1.0 / (1.0 + (-score / scale).exp());
        let (arbor, rapfi) = (1500, rapfi_score(1500));
        assert!((chance(arbor as f64, EVAL_SCALE) - chance(rapfi as f64, 200.0)).abs() < 1e-3);
        assert_eq!(rapfi_score(WIN - 3), 29_997);
        assert_eq!(rapfi_score(-(WIN - 8)), -29_992);
        // Far mates stay mates; sure wins (100,000) stay evaluations below them.
        assert_eq!(rapfi_score(WIN_BOUND), 29_501);
        assert_eq!(rapfi_score(100_000), EVAL_LIMIT);
        assert_eq!(rapfi_score(-100_000), -EVAL_LIMIT);
        for score in [WIN - 1, WIN_BOUND, -WIN_BOUND, -(WIN - 1)] {
            assert!(rapfi_score(score).abs() > MATE_SCORE, "{score}");
        }
    }

    /// The file reads back, every sample replays, results alternate within a game and
    /// match how it ended, and the moves are the searches' choices.
    #[test]
    fn writes_games_that_read_back_and_replay() {
        let dir = scratch("read");
        let out = dir.join("data.txt");
        let c = campaign(4, "1/1");
        let summary = run(&c, &out, 2, &mut quiet()).unwrap();
        assert_eq!((summary.resumed, summary.played, summary.games), (0, 4, 4));
        let samples = dataset::read_samples(&out).unwrap();
        assert_eq!(samples.len() as u64, summary.positions);
        let games = dataset::games(&samples);
        assert_eq!(games.len(), 4);
        for range in games {
            let game = &samples[range];
            let first = &game[0];
            assert!(
                OPENING_STONES.contains(&first.moves.len()),
                "{} opening stones",
                first.moves.len()
            );
            for sample in game {
                let position = sample.position().unwrap();
                assert_eq!((sample.size, sample.rule), (15, Rule::Freestyle));
                assert!(sample.score.is_some() && sample.others.is_empty());
                let teacher = sample.teacher_chance().unwrap();
                assert!((0.0..=1.0).contains(&teacher));
                assert!(position.outcome().is_none());
            }
            for pair in game.windows(2) {
                assert!(pair[0].continues_into(&pair[1]));
                assert_eq!(pair[1].moves.last(), Some(&pair[0].best));
            }
            // The last move ends the game, won by the side that played it.
            let last = game.last().unwrap();
            let mut end = last.position().unwrap();
            let mover = end.side_to_move();
            end.make(Move::new(last.best));
            let outcome = end.outcome().expect("the last move ends the game");
            match outcome.winner {
                Some(winner) => {
                    assert_eq!(winner, mover);
                    assert_eq!(last.result, Result3::Win);
                    // The winner's last score says so.
                    assert!(last.score.unwrap() > 0, "{last:?}");
                }
                None => assert_eq!(last.result, Result3::Draw),
            }
            let black_won = outcome.winner == Some(Side::Black);
            for sample in game {
                let black_to_move = sample.moves.len() % 2 == 0;
                let expected = if outcome.winner.is_none() {
                    Result3::Draw
                } else if black_to_move == black_won {
                    Result3::Win
                } else {
                    Result3::Loss
                };
                assert_eq!(sample.result, expected);
            }
        }
        // The record beside it says what made it.
        let record = std::fs::read_to_string(record_path(&out)).unwrap();
        assert!(
            record.contains("\"seed\":7") && record.contains("\"nodes\":300"),
            "{record}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Shards in order are the whole, whatever the thread count; a finished file is not
    /// played again.
    #[test]
    fn shards_concatenated_are_the_whole_run() {
        let dir = scratch("shards");
        let whole = dir.join("whole.txt");
        run(&campaign(5, "1/1"), &whole, 1, &mut quiet()).unwrap();
        let (first, second) = (dir.join("a.txt"), dir.join("b.txt"));
        let a = run(&campaign(5, "1/2"), &first, 3, &mut quiet()).unwrap();
        let b = run(&campaign(5, "2/2"), &second, 2, &mut quiet()).unwrap();
        assert_eq!((a.played, b.played), (2, 3));
        let mut joined = std::fs::read(&first).unwrap();
        joined.extend(std::fs::read(&second).unwrap());
        let whole_bytes = std::fs::read(&whole).unwrap();
        assert!(!whole_bytes.is_empty());
        assert_eq!(joined, whole_bytes);
        let before = std::fs::read(&second).unwrap();
        let again = run(&campaign(5, "2/2"), &second, 2, &mut quiet()).unwrap();
        assert_eq!((again.resumed, again.played), (3, 0));
        assert_eq!(std::fs::read(&second).unwrap(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file cut anywhere (a killed run) continues to the same bytes as a run never
    /// interrupted.
    #[test]
    fn resumes_after_a_cut_file() {
        let dir = scratch("resume");
        let whole = dir.join("whole.txt");
        let c = campaign(4, "1/1");
        run(&c, &whole, 2, &mut quiet()).unwrap();
        let bytes = std::fs::read(&whole).unwrap();
        let lines: Vec<usize> = (bytes.iter().enumerate())
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        // In the middle of a line, at a line's end inside a game, at a game's end.
        let games = dataset::games(&dataset::read_samples(&whole).unwrap());
        let second_game_end = lines[games[1].end - 1];
        for cut in [lines[3] + 5, lines[games[1].start + 1], second_game_end, 0] {
            let out = dir.join(format!("cut-{cut}.txt"));
            std::fs::write(&out, &bytes[..cut]).unwrap();
            std::fs::copy(record_path(&whole), record_path(&out)).unwrap();
            let mut log = Vec::new();
            let summary = run(&c, &out, 2, &mut log).unwrap();
            assert_eq!(std::fs::read(&out).unwrap(), bytes, "cut at {cut}");
            let finished = games.iter().filter(|g| lines[g.end - 1] <= cut).count();
            assert_eq!((summary.resumed, summary.played), (finished, 4 - finished));
            let at_a_game_end = cut == 0 || games.iter().any(|g| lines[g.end - 1] == cut);
            let log = String::from_utf8(log).unwrap();
            assert_eq!(
                log.contains("cut off an unfinished game"),
                !at_a_game_end,
                "{log}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Files of other arguments or of something else, and bad options, are refused with
    /// what is wrong.
    #[test]
    fn refuses_other_files_and_bad_options() {
        let dir = scratch("refuse");
        let out = dir.join("data.txt");
        run(&campaign(1, "1/1"), &out, 1, &mut quiet()).unwrap();
        let other = Campaign {
            seed: 8,
            ..campaign(1, "1/1")
        };
        let error = run(&other, &out, 1, &mut quiet()).unwrap_err();
        assert!(
            error.contains("other arguments (seed 7 (now 8))"),
            "{error}"
        );
        let foreign = dir.join("foreign.txt");
        std::fs::write(&foreign, "15,Freestyle,H8,0,I9(5)\n").unwrap();
        let error = run(&campaign(1, "1/1"), &foreign, 1, &mut quiet()).unwrap_err();
        assert!(error.contains("not written by arbor selfplay"), "{error}");
        let gz = run(
            &campaign(1, "1/1"),
            &dir.join("data.txt.gz"),
            1,
            &mut quiet(),
        );
        assert!(gz.unwrap_err().contains("plain text"));
        let missing = run(
            &campaign(1, "1/1"),
            &dir.join("no/such.txt"),
            1,
            &mut quiet(),
        );
        assert!(missing.unwrap_err().contains("does not exist"));
        // A record beside lines that are not samples.
        std::fs::write(&out, "not a sample\n").unwrap();
        let error = run(&campaign(1, "1/1"), &out, 1, &mut quiet()).unwrap_err();
        assert!(
            error.contains("line 1: expected 5 comma-separated fields"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();

        let parse = |args: &[&str]| crate::cli::parse_args::<SelfplayArgs>(args).map(|_| ());
        assert!(parse(&["--games", "3", "--out", "x"]).is_ok());
        for (args, expected) in [
            (
                &["--games", "3", "--out", "x", "--shard", "3/2"][..],
                "outside 1..=2",
            ),
            (
                &["--games", "3", "--out", "x", "--shard", "2"],
                "expected I/N",
            ),
            (&["--games", "0", "--out", "x"], "outside 1..="),
            (
                &["--games", "3", "--out", "x", "--size", "27"],
                "outside 5..=26",
            ),
            (
                &["--games", "3", "--out", "x", "--rule", "caro"],
                "unknown rule",
            ),
            (
                &["--games", "3", "--out", "x", "--nodes", "0"],
                "outside 1..=",
            ),
        ] {
            let error = parse(args).unwrap_err().to_string();
            assert!(error.contains(expected), "{args:?}: {error}");
        }
        let othello = crate::cli::parse_args::<SelfplayArgs>(&[
            "--game", "othello", "--games", "1", "--out", "x",
        ]);
        assert!(
            othello
                .unwrap()
                .run()
                .unwrap_err()
                .contains("Gomoku data only")
        );
    }

    /// Other boards and rules write their own names, and replay under them.
    #[test]
    fn plays_other_sizes_and_rules() {
        let dir = scratch("rules");
        for (size, rule) in [(9, Rule::Renju), (11, Rule::Standard)] {
            let out = dir.join(format!("{size}.txt"));
            let c = Campaign {
                size,
                rule,
                ..campaign(2, "1/1")
            };
            run(&c, &out, 2, &mut quiet()).unwrap();
            let samples = dataset::read_samples(&out).unwrap();
            assert_eq!(dataset::games(&samples).len(), 2);
            assert!(samples.iter().all(|s| s.size == size && s.rule == rule));
            assert!(samples.iter().all(|s| s.position().is_ok()));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
