//! `arbor tune --game gomoku`: fits the Gomoku evaluation's tables to game results, or
//! with `--label-depth` to the scores of arbor's own searches of the games' positions.
//!
//! The evaluation sums, over the empty points, a value by the point's class (its four
//! line patterns as a multiset, `PointClass`) for the side to move's stone there and
//! another for the other side's, and adds a correction by which threat classes stand
//! (`Gomoku::threat_mask`) to the hand-set tempo and terms. Those tables are the model
//! here: `sigmoid(eval / EVAL_SCALE)` as the side to move's chance to win (the engine's
//! scale, which the search's margins read), the tables fitted by Adam on the log-loss over every
//! quiet position (`Gomoku::eval_features`) of the games, with a light pull towards the
//! shipped values for classes the games hardly show. Results alone leave the tempo loose,
//! so two quiet positions a move apart are also asked to score alike from their movers'
//! sides.
//!
//! The games are 15x15 freestyle ones from match records (`arbor match --jsonl`, games
//! ended under the rules) and self-play: each side searching `SELFPLAY_NODES` nodes a
//! move from 2 to 6 random stones near the centre, one move in `RANDOM_ONE_IN` a random
//! candidate. Game N of seed S is the same whatever the thread count (ChaCha8 stream N of
//! seed S, a table cleared per game).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cli::train::play_indexed;
use crate::files::{Output, OutputError};
use crate::game::gomoku::{Config, EVAL_SCALE, EvalTables, Features, Gomoku, Opening};
use crate::game::roles::{Evaluate, Score};
use crate::game::{Game, Move, Side};
use crate::harness::campaign::read_pairs;
use crate::harness::engine::Setup;
use crate::harness::referee::{Ending, apply_setup};
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

const SIZE: usize = 15;
/// The records' game: what `MatchInfo::game` begins with.
const RECORD_GAME: &str = "gomoku size=15 rule=freestyle";
/// Random stones of the opening, within `OPENING_REACH` points of the centre.
const OPENING_STONES: std::ops::RangeInclusive<usize> = 2..=6;
const OPENING_REACH: usize = 3;
const SELFPLAY_NODES: u64 = 4000;
const RANDOM_ONE_IN: u32 = 12;
const SEARCH_MEGABYTES: usize = 8;
/// A labelling search's clock: it bounds the root's defence filter (a quarter of it).
const LABEL_MOVETIME: Duration = Duration::from_millis(400);
/// One game in this many is kept apart to measure the fit.
const HOLDOUT_EVERY: usize = 10;
/// Pull towards the hand-set tables: the log-loss of this many positions per squared unit
/// of change, a unit being the larger of the value and `POINT_SPREAD` for point values,
/// `THREAT_SPREAD` for threat corrections.
const PRIOR: f64 = 1.0;
const POINT_SPREAD: f64 = 50.0;
const THREAT_SPREAD: f64 = 200.0;
/// Weight of the agreement of two quiet positions a move apart, against one position's
/// log-loss, per squared difference in units of the scale.
const CONSISTENCY: f64 = 0.3;
/// Adam's steps and step size (in evaluation units).
const ITERATIONS: usize = 800;
const STEP: f64 = 8.0;
const POLICY_ITERATIONS: usize = 400;

/// A quiet position of a game: its features, its label (the side to move's chance to
/// win: by the result, 1 it won, 0 it lost, 0.5 a draw, or by a search's score), its
/// result and its ply.
pub(super) struct Position {
    pub features: Features,
    pub label: f64,
    pub result: f64,
    /// The labelling search's score for the side to move, when one ran.
    pub searched: Option<Score>,
    pub ply: usize,
}

/// A game to take positions from: where it starts, its moves and who won.
struct PlayedGame {
    start: Gomoku,
    moves: Vec<Move>,
    winner: Option<Side>,
}

/// Positions and the pairs of consecutive ones (indices into the positions).
#[derive(Default)]
pub(super) struct Data {
    positions: Vec<Position>,
    pairs: Vec<(usize, usize)>,
    games: usize,
}

impl Data {
    /// Moves `other`'s positions and pairs here.
    pub(super) fn append(&mut self, other: Data) {
        let offset = self.positions.len();
        (self.pairs).extend(other.pairs.iter().map(|&(a, b)| (a + offset, b + offset)));
        self.positions.extend(other.positions);
        self.games += other.games;
    }

    pub(super) fn add(&mut self, game: Vec<Position>) {
        let first = self.positions.len();
        for (i, position) in game.into_iter().enumerate() {
            if i > 0 && self.positions[first + i - 1].ply + 1 == position.ply {
                self.pairs.push((first + i - 1, first + i));
            }
            self.positions.push(position);
        }
        self.games += 1;
    }

    fn scores(&self, tables: &EvalTables) -> Vec<f64> {
        self.positions
            .iter()
            .map(|p| p.features.score(tables))
            .collect()
    }

    /// Mean log-loss over the positions at `scale`, against their labels.
    pub(super) fn log_loss(&self, tables: &EvalTables, scale: f64) -> f64 {
        self.log_loss_against(tables, scale, |p| p.label)
    }

    pub(super) fn log_loss_against(
        &self,
        tables: &EvalTables,
        scale: f64,
        target: impl Fn(&Position) -> f64,
    ) -> f64 {
        let total: f64 = (self.positions.iter())
            .map(|p| {
                let chance = sigmoid(p.features.score(tables) / scale).clamp(1e-9, 1.0 - 1e-9);
                let label = target(p);
                -(label * chance.ln() + (1.0 - label) * (1.0 - chance).ln())
            })
            .sum();
        total / self.positions.len().max(1) as f64
    }

    /// Labels every position by its search score at `scale` instead of its result.
    fn label_by_search(&mut self, scale: f64) {
        for p in &mut self.positions {
            if let Some(score) = p.searched {
                p.label = sigmoid(score as f64 / scale);
            }
        }
    }

    /// Mean and root mean square of consecutive positions' summed scores (zero when the
    /// movers' views agree).
    fn pair_sums(&self, tables: &EvalTables) -> (f64, f64) {
        let scores = self.scores(tables);
        let sums: Vec<f64> = (self.pairs.iter())
            .map(|&(a, b)| scores[a] + scores[b])
            .collect();
        let n = sums.len().max(1) as f64;
        let mean = sums.iter().sum::<f64>() / n;
        let rms = (sums.iter().map(|s| s * s).sum::<f64>() / n).sqrt();
        (mean, rms)
    }
}

pub(super) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The quiet positions of a game, labelled by its result; with a searcher, each also
/// searched to `depth` plies.
fn positions_of(
    played: &PlayedGame,
    mut search: Option<(&mut Searcher<Gomoku>, u32)>,
) -> Vec<Position> {
    let mut game = played.start.clone();
    let mut positions = Vec::new();
    for (ply, &mv) in played.moves.iter().enumerate() {
        if let Some(features) = game.eval_features() {
            let result = match played.winner {
                Some(winner) if winner == game.side_to_move() => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let searched = search
                .as_mut()
                .map(|(searcher, depth)| search_score(searcher, &game, *depth));
            positions.push(Position {
                features,
                label: result,
                result,
                searched,
                ply,
            });
        }
        game.make(mv);
    }
    positions
}

/// The score of a `depth`-ply search of `game` for its side to move, a fresh table each
/// time so that the order of the positions does not matter. The clock
/// (`LABEL_MOVETIME`) bounds the root's defence filter, which has a quarter of it.
fn search_score(searcher: &mut Searcher<Gomoku>, game: &Gomoku, depth: u32) -> Score {
    searcher.clear();
    let limits = Limits {
        depth: Some(depth),
        movetime: Some(LABEL_MOVETIME),
        ..Limits::default()
    };
    searcher
        .search_to(game, &limits, &Stop::never(), &mut |_| {})
        .score
}

/// The 15x15 freestyle games of a match record ended under the rules, and how many of its
/// games were of another game or ended otherwise.
fn record_games(path: &Path) -> Result<(Vec<PlayedGame>, usize), String> {
    let file = read_pairs(path)?;
    let start = Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).expect("15x15");
    let (mut games, mut skipped) = (Vec::new(), 0);
    for pair in file.pairs {
        for played in pair.games {
            let record = &played.record;
            let fits = pair.info.game.starts_with(RECORD_GAME) && record.ending == Ending::Rules;
            let parsed = fits
                .then(|| game_moves(&start, &played.setup, &record.moves))
                .flatten();
            match parsed {
                Some((start, moves)) => games.push(PlayedGame {
                    start,
                    moves,
                    winner: record.winner,
                }),
                None => skipped += 1,
            }
        }
    }
    Ok((games, skipped))
}

/// The position after the setup and the legal moves after it, or `None` when the
/// record does not replay.
fn game_moves(start: &Gomoku, setup: &Setup, moves: &[String]) -> Option<(Gomoku, Vec<Move>)> {
    let mut game = start.clone();
    apply_setup(&mut game, setup).ok()?;
    let mut replay = game.clone();
    let mut parsed = Vec::new();
    for text in moves {
        let mv = replay
            .parse_move(text)
            .ok()
            .filter(|&mv| replay.is_legal(mv))?;
        replay.make(mv);
        parsed.push(mv);
    }
    Some((game, parsed))
}

/// Self-play game `index` of `seed` (see the module's header).
fn selfplay_game(searcher: &mut Searcher<Gomoku>, seed: u64, index: usize) -> PlayedGame {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    searcher.clear();
    let mut game = Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).expect("15x15");
    let centre = SIZE / 2;
    let stones = rng.random_range(OPENING_STONES);
    while (game.stones(Side::Black) + game.stones(Side::White)) < stones as u32 {
        let row = centre + rng.random_range(0..=2 * OPENING_REACH) - OPENING_REACH;
        let col = centre + rng.random_range(0..=2 * OPENING_REACH) - OPENING_REACH;
        let mv = Move::new((row * SIZE + col) as u16);
        if game.is_legal(mv) {
            game.make(mv);
        }
    }
    let start = game.clone();
    let limits = Limits {
        nodes: Some(SELFPLAY_NODES),
        ..Limits::default()
    };
    let stop = Stop::never().with_node_limit(SELFPLAY_NODES);
    let mut played = Vec::new();
    let mut candidates = Vec::new();
    while game.outcome().is_none() {
        let mv = if !game.must_answer() && rng.random_range(0..RANDOM_ONE_IN) == 0 {
            game.search_moves(&mut candidates);
            candidates[rng.random_range(0..candidates.len())]
        } else {
            searcher.search_to(&game, &limits, &stop, &mut |_| {}).best
        };
        game.make(mv);
        played.push(mv);
    }
    PlayedGame {
        start,
        moves: played,
        winner: game.outcome().and_then(|outcome| outcome.winner),
    }
}

/// Plays `count` self-play games on `threads` threads, in game order.
fn selfplay_games(count: usize, seed: u64, threads: usize) -> Result<Vec<PlayedGame>, String> {
    let start = Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).expect("15x15");
    play_indexed(
        count,
        threads,
        100,
        || Searcher::new(&start, SEARCH_MEGABYTES),
        |searcher, index| selfplay_game(searcher, seed, index),
    )
}

/// The scale that fits `tables` best to `data`'s labels: golden-section search on its
/// logarithm. Only reported: the fit is at `EVAL_SCALE`.
fn fit_scale(data: &Data, tables: &EvalTables) -> f64 {
    let loss = |log_scale: f64| data.log_loss(tables, log_scale.exp());
    let (mut low, mut high) = (10f64.ln(), 100_000f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(a) < loss(b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// Adam's moments for a parameter vector (β 0.9 and 0.999).
pub(super) struct Adam {
    first: Vec<f64>,
    second: Vec<f64>,
    steps: i32,
}

impl Adam {
    pub(super) fn new(parameters: usize) -> Adam {
        Adam {
            first: vec![0.0; parameters],
            second: vec![0.0; parameters],
            steps: 0,
        }
    }

    /// One step of `size` against `gradient`, for the parameters from `from` on (those
    /// before stay).
    pub(super) fn step(&mut self, weights: &mut [f64], gradient: &[f64], from: usize, size: f64) {
        let (beta1, beta2) = (0.9f64, 0.999f64);
        self.steps += 1;
        for j in from..weights.len() {
            self.first[j] = beta1 * self.first[j] + (1.0 - beta1) * gradient[j];
            self.second[j] = beta2 * self.second[j] + (1.0 - beta2) * gradient[j] * gradient[j];
            let corrected = self.first[j] / (1.0 - beta1.powi(self.steps));
            let spread = (self.second[j] / (1.0 - beta2.powi(self.steps))).sqrt() + 1e-12;
            weights[j] -= size * corrected / spread;
        }
    }
}

/// The tables as one parameter vector: point values (mover, other) by class, then the
/// threat corrections.
fn flatten(tables: &EvalTables) -> Vec<f64> {
    let points = tables.points.iter().flatten();
    points.chain(&tables.threats).copied().collect()
}

/// The tables of `flatten`'s parameters, with `classes` point classes (by colour under
/// renju).
fn unflatten(parameters: &[f64], classes: usize) -> EvalTables {
    let (points, threats) = parameters.split_at(2 * classes);
    EvalTables {
        points: points.chunks(2).map(|pair| [pair[0], pair[1]]).collect(),
        threats: threats.to_vec(),
    }
}

/// Adam on the log-loss, the disagreement of consecutive positions and the pull towards
/// `prior`, at a fixed scale. Class 0 (four dead lines, also every occupied point)
/// stays at its value: positions do not list it.
fn fit_tables(data: &Data, prior: &EvalTables, scale: f64, iterations: usize) -> EvalTables {
    let start = flatten(prior);
    let classes = prior.points.len();
    let threats_at = 2 * classes;
    let spread: Vec<f64> = (start.iter().enumerate())
        .map(|(i, w)| {
            if i < threats_at {
                w.abs().max(POINT_SPREAD)
            } else {
                THREAT_SPREAD
            }
        })
        .collect();
    let mut weights = start.clone();
    let mut adam = Adam::new(weights.len());
    for _ in 0..iterations {
        let tables = unflatten(&weights, classes);
        let scores = data.scores(&tables);
        // d(objective)/d(score) per position.
        let mut slope: Vec<f64> = (data.positions.iter().zip(&scores))
            .map(|(p, &s)| (sigmoid(s / scale) - p.label) / scale)
            .collect();
        for &(a, b) in &data.pairs {
            let residual = (scores[a] + scores[b]) / scale;
            slope[a] += 2.0 * CONSISTENCY * residual / scale;
            slope[b] += 2.0 * CONSISTENCY * residual / scale;
        }
        let mut gradient: Vec<f64> = (0..weights.len())
            .map(|j| 2.0 * PRIOR * (weights[j] - start[j]) / spread[j].powi(2))
            .collect();
        for (p, &g) in data.positions.iter().zip(&slope) {
            for &(class, n) in &p.features.mover {
                gradient[2 * class as usize] += g * n as f64;
            }
            for &(class, n) in &p.features.other {
                gradient[2 * class as usize + 1] -= g * n as f64;
            }
            gradient[threats_at + p.features.threat_mask as usize] += g;
        }
        adam.step(&mut weights, &gradient, 2, STEP);
    }
    unflatten(&weights, classes)
}

/// Where the games come from.
pub struct Sources {
    pub records: Vec<PathBuf>,
    pub selfplay: usize,
    pub seed: u64,
    pub threads: usize,
    /// Label the positions by a search this deep instead of by the games' results.
    pub label_depth: Option<u32>,
    /// Where those searches' scores are kept: read when the file exists (for the same
    /// games and depth), else written.
    pub labels: Option<PathBuf>,
    /// A teacher's scored positions (`game::gomoku::dataset`): fitted for the evaluation
    /// beside the games, and alone for the move policy.
    pub teacher: Vec<PathBuf>,
    /// Fit the renju tables (by colour) to the teacher's renju games instead of the
    /// freestyle ones.
    pub renju: bool,
}

/// Writes the labelling searches' scores, a line a game: the depth, the game's move
/// count, then the scores of its quiet positions in order.
fn write_labels(
    output: &Output,
    games: &[PlayedGame],
    positions: &[Vec<Position>],
    depth: u32,
) -> Result<(), String> {
    let mut text = String::new();
    for (game, positions) in games.iter().zip(positions) {
        text += &format!("{depth} {}", game.moves.len());
        for p in positions {
            text += &format!(" {}", p.searched.unwrap_or_default());
        }
        text += "\n";
    }
    Ok(output.write(text.as_bytes())?)
}

/// The games' positions with the scores `write_labels` kept for them.
fn read_labels(
    path: &Path,
    games: &[PlayedGame],
    depth: u32,
) -> Result<Vec<Vec<Position>>, String> {
    let text = crate::files::read_text(path)?;
    let lines: Vec<&str> = text.lines().collect();
    let stale = |why: &str| {
        format!(
            "{}: {why}; it was written for other games or another --label-depth (remove it to search again)",
            path.display()
        )
    };
    if lines.len() != games.len() {
        return Err(stale(&format!(
            "{} games, not {}",
            lines.len(),
            games.len()
        )));
    }
    let mut all = Vec::new();
    for (number, (line, game)) in lines.iter().zip(games).enumerate() {
        let numbers: Vec<Score> = (line.split_whitespace())
            .map(|word| word.parse::<Score>())
            .collect::<Result<_, _>>()
            .map_err(|_| stale(&format!("line {}: not a list of numbers", number + 1)))?;
        let mut positions = positions_of(game, None);
        let fits = numbers.len() == positions.len() + 2
            && numbers[0] == depth as Score
            && numbers[1] == game.moves.len() as Score;
        if !fits {
            return Err(stale(&format!("line {} does not fit its game", number + 1)));
        }
        for (p, &score) in positions.iter_mut().zip(&numbers[2..]) {
            p.searched = Some(score);
        }
        all.push(positions);
    }
    Ok(all)
}

/// Gathers the games, fits, prints the held-out log-loss of the shipped and the fitted
/// tables, and writes the fitted ones as `eval_table.rs` source to `out` when given.
pub fn tune(
    sources: &Sources,
    out: Option<&PathBuf>,
    report: &mut impl std::io::Write,
) -> Result<EvalTables, String> {
    let io = |e: std::io::Error| e.to_string();
    // The files are checked before the games are gathered: a bad path costs no work.
    let output = out.map(|path| Output::check(path, true)).transpose()?;
    // An existing labels file is read; a new one is written after the searches.
    let (labels_in, labels_out) = match &sources.labels {
        Some(path) => match Output::check(path, false) {
            Ok(output) => (None, Some(output)),
            Err(OutputError::Exists(_)) => (Some(path), None),
            Err(other) => return Err(other.into()),
        },
        None => (None, None),
    };
    if sources.renju
        && (!sources.records.is_empty() || sources.selfplay > 0 || sources.teacher.is_empty())
    {
        return Err(
            "tune --rule renju fits --teacher games only (no --records or --selfplay)".into(),
        );
    }
    let mut games = Vec::new();
    let mut described = Vec::new();
    for path in &sources.records {
        let (found, skipped) = record_games(path)?;
        writeln!(
            report,
            "{}: {} games, {skipped} skipped (another game, or not ended under the rules)",
            path.display(),
            found.len()
        )
        .map_err(io)?;
        described.push(format!("{} games of {}", found.len(), file_name(path)));
        games.extend(found);
    }
    if sources.selfplay > 0 {
        games.extend(selfplay_games(
            sources.selfplay,
            sources.seed,
            sources.threads,
        )?);
        described.push(format!(
            "{} self-play games of seed {}",
            sources.selfplay, sources.seed
        ));
    }
    let positions = match sources.label_depth {
        None => games.iter().map(|game| positions_of(game, None)).collect(),
        Some(depth) => {
            described.push(format!("labelled by {depth}-ply searches"));
            let cached = match labels_in {
                Some(path) => Some(read_labels(path, &games, depth)?),
                None => None,
            };
            match cached {
                Some(positions) => positions,
                None => {
                    let start =
                        Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).expect("15x15");
                    let positions = play_indexed(
                        games.len(),
                        sources.threads,
                        100,
                        || Searcher::new(&start, SEARCH_MEGABYTES),
                        |searcher, index| positions_of(&games[index], Some((searcher, depth))),
                    )?;
                    if let Some(output) = &labels_out {
                        write_labels(output, &games, &positions, depth)?;
                    }
                    positions
                }
            }
        }
    };
    let (mut train, mut holdout) = (Data::default(), Data::default());
    for (index, game) in positions.into_iter().enumerate() {
        if index % HOLDOUT_EVERY == 0 {
            holdout.add(game);
        } else {
            train.add(game);
        }
    }
    let teacher = if sources.teacher.is_empty() {
        None
    } else {
        let teacher = super::tune_teacher::read_teacher(&sources.teacher, sources.renju)?;
        writeln!(
            report,
            "teacher: {} games, {} positions ({} of another size or rule skipped, {} game records left out): {} quiet positions, {} policy choices",
            teacher.games,
            teacher.samples,
            teacher.skipped,
            teacher.bad_records,
            teacher.train.positions.len() + teacher.holdout.positions.len(),
            teacher.train_choices.len() + teacher.holdout_choices.len(),
        )
        .map_err(io)?;
        let names: Vec<String> = sources.teacher.iter().map(|p| file_name(p)).collect();
        described.push(format!(
            "{} teacher games ({} positions) of {}",
            teacher.games,
            teacher.samples,
            names.join(", ")
        ));
        Some(teacher)
    };
    let choices = teacher.map(|mut teacher| {
        train.append(std::mem::take(&mut teacher.train));
        holdout.append(std::mem::take(&mut teacher.holdout));
        teacher
    });
    if train.positions.is_empty() || holdout.positions.is_empty() {
        return Err(format!(
            "{} positions to fit and {} to hold out: too few to tune",
            train.positions.len(),
            holdout.positions.len()
        ));
    }
    let (shipped, hand_set) = (
        EvalTables::shipped(sources.renju),
        EvalTables::hand_set(sources.renju),
    );
    // The tables are fitted in the engine's units, whatever the data: the search's
    // margins, the Swap2 thresholds and selfplay's conversion read `EVAL_SCALE`, and the
    // search scores of `--label-depth` become chances at it. The scale these games would
    // fit to the shipped tables is only reported.
    let scale = EVAL_SCALE;
    if sources.label_depth.is_some() {
        train.label_by_search(scale);
        holdout.label_by_search(scale);
    }
    let fitted = fit_tables(&train, &hand_set, scale, ITERATIONS);
    writeln!(
        report,
        "{} games: {} positions fitted, {} held out; scale {scale:.0} (the shipped tables' own on the held-out games: {:.0})",
        train.games + holdout.games,
        train.positions.len(),
        holdout.positions.len(),
        fit_scale(&holdout, &shipped),
    )
    .map_err(io)?;
    for (name, tables) in [
        ("hand-set", &hand_set),
        ("shipped", &shipped),
        ("fitted", &fitted),
    ] {
        let (mean, rms) = holdout.pair_sums(tables);
        // The labels, when they are not the results alone.
        let labels = if sources.label_depth.is_some() {
            Some("the searches")
        } else {
            choices.as_ref().map(|_| "the teacher's blend")
        };
        let against = labels.map_or_else(String::new, |labels| {
            format!(", against {labels} {:.4}", holdout.log_loss(tables, scale))
        });
        writeln!(
            report,
            "{name} tables, held out: log-loss {:.4}{against}, consecutive positions' mean sum {mean:+.0} (rms {rms:.0})",
            holdout.log_loss_against(tables, scale, |p| p.result),
        )
        .map_err(io)?;
    }
    if let Some(data) = choices
        .as_ref()
        .filter(|data| !data.train_choices.is_empty())
    {
        let policy = super::tune_teacher::fit_policy(&data.train_choices, POLICY_ITERATIONS);
        super::tune_teacher::report_policy(data, &policy, report).map_err(io)?;
    }
    if let Some(output) = output {
        let provenance = format!("Fitted to {};\nscale {scale:.0}.", described.join(",\n"));
        output.write(fitted.source(&provenance).as_bytes())?;
        writeln!(report, "wrote {}", output.path().display()).map_err(io)?;
    }
    Ok(fitted)
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quiet positions of random local games.
    fn random_positions(games: usize, seed: u64) -> Vec<Features> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut game = Gomoku::new(Config::gomoku(SIZE, false, Opening::Center)).unwrap();
            while game.outcome().is_none() {
                positions.extend(game.eval_features());
                game.search_moves(&mut moves);
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        positions
    }

    /// Labels drawn from the model with known tables are recovered by the fit.
    #[test]
    fn recovers_tables_from_labels_drawn_by_the_model() {
        use crate::game::gomoku::pattern::Pattern::*;
        use crate::game::gomoku::pattern::PointClass;
        let shipped = EvalTables::hand_set(false);
        let mut truth = shipped.clone();
        // A class every game shows a lot of, for each role.
        let class = PointClass::of([OpenTwo, One, One, Dead]).0 as usize;
        truth.points[class] = [
            shipped.points[class][0] + 40.0,
            shipped.points[class][1] - 20.0,
        ];
        let scale = 400.0;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut data = Data::default();
        for features in random_positions(300, 3) {
            let chance = sigmoid(features.score(&truth) / scale);
            // Several draws per position so the labels carry the tables.
            for _ in 0..20 {
                let label = if rng.random::<f64>() < chance {
                    1.0
                } else {
                    0.0
                };
                data.positions.push(Position {
                    features: features.clone(),
                    label,
                    result: label,
                    searched: None,
                    ply: 0,
                });
            }
        }
        assert!(
            data.positions.len() > 20_000,
            "{} positions",
            data.positions.len()
        );
        let fitted = fit_tables(&data, &shipped, scale, 300);
        assert!(
            data.log_loss(&fitted, scale) <= data.log_loss(&truth, scale) + 1e-3,
            "the fit is worse than the truth"
        );
        for role in 0..2 {
            let (got, want) = (fitted.points[class][role], truth.points[class][role]);
            assert!(
                (got - want).abs() < 12.0,
                "role {role}: {got} against {want}"
            );
        }
        assert!((fit_scale(&data, &truth) - scale).abs() < 40.0);
    }

    /// A match record's game replays into positions labelled for the side to move.
    #[test]
    fn reads_the_games_of_match_records() {
        let line = r#"{"match":{"game":"gomoku size=15 rule=freestyle opening=free","engines":["a","b"],"control":"tc 10+0.1","openings":"0","pairs":1},"pair":0,"pentanomial":4,"games":[{"number":1,"black":"a","white":"b","setup":{"moves":["7,7","8,8"]},"result":"1-0","score":1,"ending":{"kind":"rules"},"status":"black 5 in a row","moves":["g8","a1","f8","a2","e8","a3","d8"],"used_ms":[1,1]},{"number":2,"black":"b","white":"a","setup":{"moves":["7,7","8,8"]},"result":"0-1","score":-1,"ending":{"kind":"time","side":"black"},"status":"","moves":["g8"],"used_ms":[1,1]}]}"#;
        let dir = std::env::temp_dir().join(format!("arbor-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.jsonl");
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let (games, skipped) = record_games(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((games.len(), skipped), (1, 1), "the time loss is skipped");
        let game = &positions_of(&games[0], None);
        // Black (to move at even plies) won.
        assert!(!game.is_empty());
        for position in game {
            assert_eq!(
                position.label,
                if position.ply % 2 == 0 { 1.0 } else { 0.0 }
            );
        }
    }

    /// The labelling searches' scores go to a file and come back for the same games
    /// and depth only.
    #[test]
    fn keeps_search_labels_for_the_same_games() {
        let start = Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).unwrap();
        let mut searcher = Searcher::new(&start, 1).unwrap();
        let games = vec![
            selfplay_game(&mut searcher, 5, 0),
            selfplay_game(&mut searcher, 5, 1),
        ];
        let positions: Vec<Vec<Position>> = (games.iter())
            .map(|game| positions_of(game, Some((&mut searcher, 2))))
            .collect();
        assert!(positions.iter().all(|game| !game.is_empty()));
        assert!(positions.iter().flatten().all(|p| p.searched.is_some()));
        let dir = std::env::temp_dir().join(format!("arbor-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("labels.txt");
        let output = Output::check(&path, true).unwrap();
        write_labels(&output, &games, &positions, 2).unwrap();
        let read = read_labels(&path, &games, 2).unwrap();
        let other_depth = read_labels(&path, &games, 3).map(|_| ());
        let other_games = read_labels(&path, &games[..1], 2).map(|_| ());
        std::fs::remove_dir_all(&dir).unwrap();
        let scores = |all: &[Vec<Position>]| -> Vec<Option<Score>> {
            all.iter().flatten().map(|p| p.searched).collect()
        };
        assert_eq!(scores(&read), scores(&positions));
        assert!(other_depth.unwrap_err().contains("--label-depth"));
        assert!(other_games.unwrap_err().contains("2 games, not 1"));
        // Labelled by search, a position's label is its score's chance at the scale.
        let mut data = Data::default();
        for game in read {
            data.add(game);
        }
        data.label_by_search(500.0);
        for p in &data.positions {
            assert_eq!(p.label, sigmoid(p.searched.unwrap() as f64 / 500.0));
        }
    }
}
