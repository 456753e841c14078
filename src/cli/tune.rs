//! `arbor tune`: fits the Othello evaluation weights by least squares (Gomoku's:
//! `tune_gomoku`).
//!
//! Each sampled position gives the evaluation's feature values and a label, the final disc
//! margin of its game from the side to move's view. The model is the evaluation itself:
//! every feature has a start and an end weight, blended by the share of filled squares, so
//! the fit is linear in the 2 x features weights. 8x8 normal-rule labels come from the
//! WTHOR tournament games; misère and small-board labels from self-play games of the
//! engine (random openings, shallow searches), by their results or (`--solve-empties`)
//! by exact solves, so repeating the procedure refines the weights.

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::game::othello::endgame::Solver;
use crate::game::othello::eval::{FEATURES, Features, Weights, disc_features, features, weights};
use crate::game::othello::{Othello, Rule};
use crate::game::roles::Evaluate;
use crate::game::{Game, Move};
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

const PARAMETERS: usize = 2 * FEATURES.len();

/// Positions with fewer empties are left out: the solver plays them.
const MIN_EMPTIES: u32 = 8;
/// One game in this many is kept apart to measure the fit.
const HOLDOUT_EVERY: usize = 10;

/// Normal equations of the least-squares fit, and the held-out positions.
struct Fit {
    normal: [[f64; PARAMETERS]; PARAMETERS],
    target: [f64; PARAMETERS],
    samples: usize,
    holdout: Vec<(Features, f64)>,
}

fn row(features: &Features) -> [f64; PARAMETERS] {
    let late = features.filled as f64 / features.squares as f64;
    let mut row = [0.0; PARAMETERS];
    for (k, &value) in features.values.iter().enumerate() {
        row[2 * k] = value as f64 * (1.0 - late);
        row[2 * k + 1] = value as f64 * late;
    }
    row
}

impl Fit {
    fn new() -> Fit {
        Fit {
            normal: [[0.0; PARAMETERS]; PARAMETERS],
            target: [0.0; PARAMETERS],
            samples: 0,
            holdout: Vec::new(),
        }
    }

    fn add(&mut self, features: Features, label: f64, holdout: bool) {
        if holdout {
            self.holdout.push((features, label));
            return;
        }
        let row = row(&features);
        for i in 0..PARAMETERS {
            for j in 0..PARAMETERS {
                self.normal[i][j] += row[i] * row[j];
            }
            self.target[i] += row[i] * label;
        }
        self.samples += 1;
    }

    /// Solves the normal equations (with a little ridge for features that never vary).
    fn solve(&self) -> Weights {
        let mut a = self.normal;
        let ridge = 1e-6 * (0..PARAMETERS).map(|i| a[i][i]).sum::<f64>().max(1.0);
        for (i, line) in a.iter_mut().enumerate() {
            line[i] += ridge;
        }
        let solution = solve_linear(a, self.target);
        let mut weights = [[0; 2]; FEATURES.len()];
        for (k, pair) in weights.iter_mut().enumerate() {
            for (phase, weight) in pair.iter_mut().enumerate() {
                *weight = solution[2 * k + phase].round() as i32;
            }
        }
        weights
    }

    /// Root mean square error in discs on the held-out positions.
    fn holdout_error(&self, weights: &Weights) -> f64 {
        let total: f64 = self
            .holdout
            .iter()
            .map(|(features, label)| {
                let error = (features.score(weights) as f64 - label) / 100.0;
                error * error
            })
            .sum();
        (total / self.holdout.len().max(1) as f64).sqrt()
    }
}

/// Solves `a x = b` by Gauss-Jordan elimination with partial pivoting; a variable whose
/// column is all zero comes out 0.
pub(crate) fn solve_linear<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        let pivot_target = b[col];
        for (r, line) in a.iter_mut().enumerate() {
            if r != col && pivot_row[col] != 0.0 {
                let factor = line[col] / pivot_row[col];
                for (cell, &p) in line.iter_mut().zip(&pivot_row).skip(col) {
                    *cell -= factor * p;
                }
                b[r] -= factor * pivot_target;
            }
        }
    }
    let mut x = [0.0; N];
    for i in 0..N {
        if a[i][i] != 0.0 {
            x[i] = b[i] / a[i][i];
        }
    }
    x
}

/// Positions of one game with the mover's share of the final result.
fn add_game(fit: &mut Fit, positions: &[(Features, bool)], black_margin: f64, holdout: bool) {
    for &(features, black_to_move) in positions {
        let label = if black_to_move {
            black_margin
        } else {
            -black_margin
        };
        fit.add(features, 100.0 * label, holdout);
    }
}

/// A position of a WTHOR game before a move: the discs of the side to move and of the
/// other side, and whether Black is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePosition {
    pub player: u64,
    pub opponent: u64,
    pub black_to_move: bool,
}

/// Replays the finished WTHOR games in `dir` (lines `<moves> <black disc difference>`,
/// passes implied) and hands each game's positions and Black's final margin to `each`.
pub fn replay_wthor(
    dir: &Path,
    mut each: impl FnMut(&[GamePosition], i32),
) -> Result<usize, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .filter(|path| !path.to_string_lossy().contains("incomplete"))
        .collect();
    files.sort();
    let mut games = 0;
    let mut positions = Vec::with_capacity(64);
    for file in files {
        let text = crate::files::read_text(&file)?;
        'games: for line in text.lines() {
            let Some((moves, diff)) = line.split_once(' ') else {
                continue;
            };
            let Ok(diff) = diff.trim().trim_start_matches('+').parse::<i32>() else {
                continue;
            };
            let mut game = Othello::standard();
            positions.clear();
            for chunk in moves.as_bytes().chunks(2) {
                let Ok(name) = std::str::from_utf8(chunk) else {
                    continue 'games;
                };
                let Ok(mv) = game.parse_move(name) else {
                    continue 'games;
                };
                if !game.is_legal(mv) && game.is_legal(Move::PASS) {
                    game.make(Move::PASS);
                }
                if !game.is_legal(mv) {
                    continue 'games;
                }
                positions.push(GamePosition {
                    player: game.player(),
                    opponent: game.opponent(),
                    black_to_move: game.side_to_move() == crate::game::Side::Black,
                });
                game.make(mv);
            }
            each(&positions, diff);
            games += 1;
        }
    }
    if games == 0 {
        return Err(format!(
            "{}: no finished games (expected .txt files of `<moves> <black disc difference>` lines)",
            dir.display()
        ));
    }
    Ok(games)
}

fn wthor_games(dir: &Path, fit: &mut Fit) -> Result<usize, String> {
    let mut games = 0;
    let mut features = Vec::with_capacity(64);
    replay_wthor(dir, |positions, diff| {
        features.clear();
        for position in positions {
            if 64 - (position.player | position.opponent).count_ones() >= MIN_EMPTIES {
                features.push((
                    disc_features(position.player, position.opponent, !0),
                    position.black_to_move,
                ));
            }
        }
        add_game(fit, &features, diff as f64, games % HOLDOUT_EVERY == 0);
        games += 1;
    })
}

/// How the self-play games of `arbor tune` are played and labelled.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub rule: Rule,
    /// The board's side: 4, 6 or 8.
    pub size: usize,
    pub games: usize,
    pub seed: u64,
    /// Positions with this many empties or fewer are labelled by exact solves, earlier
    /// ones by the solved score of their game's first such position; 0: every position
    /// by its game's final result.
    pub solve_empties: u32,
}

/// The solver's table for the labels, MiB: the small boards' solves need little.
const SOLVE_MEGABYTES: usize = 64;

/// A self-play position, its features and its label in discs from the side to move's
/// view.
#[derive(Clone, Debug)]
struct Labelled {
    /// The position (the tests check its label).
    #[cfg_attr(not(test), allow(dead_code))]
    position: Othello,
    features: Features,
    label: f64,
}

/// The tools one self-play game needs, kept from game to game.
struct Players {
    rng: StdRng,
    searcher: Searcher<Othello>,
    /// Labels positions exactly when `solve_empties` is set.
    solver: Option<Solver>,
}

fn selfplay_games(play: SelfPlay, fit: &mut Fit) -> Result<usize, String> {
    let start = Othello::new(play.size, play.rule).map_err(|e| e.to_string())?;
    let mut players = Players {
        rng: StdRng::seed_from_u64(play.seed),
        searcher: Searcher::new(&start, 16)?,
        solver: (play.solve_empties > 0)
            .then(|| Solver::try_new(SOLVE_MEGABYTES << 20))
            .transpose()?,
    };
    for index in 0..play.games {
        let holdout = index % HOLDOUT_EVERY == 0;
        for position in selfplay_game(&start, play.solve_empties, &mut players) {
            fit.add(position.features, 100.0 * position.label, holdout);
        }
    }
    Ok(play.games)
}

/// Plays one game from `start` (six random moves, then 2-ply searches with one move in
/// ten random) and labels its positions from `MIN_EMPTIES` empties up, after the
/// opening: by exact solves from `solve_empties` empties down, earlier by the game's
/// first solved score, and without solves (or before the first) by the final result.
fn selfplay_game(start: &Othello, solve_empties: u32, players: &mut Players) -> Vec<Labelled> {
    let stop = Stop::never();
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut game = start.clone();
    let mut moves = Vec::new();
    // Per kept position: it, whether Black was to move, and its solved score if solved.
    let mut positions = Vec::with_capacity(64);
    // The game's first solved score, from Black's view.
    let mut solved_black: Option<i32> = None;
    let mut ply = 0;
    loop {
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let empties = game.empties().count_ones();
        let black_to_move = game.side_to_move() == crate::game::Side::Black;
        let mut exact = None;
        if let Some(solver) = players.solver.as_mut()
            && empties <= solve_empties
            && (solved_black.is_none() || empties >= MIN_EMPTIES)
        {
            let (player, opponent) = (game.player(), game.opponent());
            let score = solver
                .solve(player, opponent, game.board(), game.rule(), &stop)
                .expect("never stopped")
                .score;
            let black = if black_to_move { score } else { -score };
            solved_black.get_or_insert(black);
            exact = Some(black);
        }
        if empties >= MIN_EMPTIES && ply >= 6 {
            positions.push((game.clone(), features(&game), black_to_move, exact));
        }
        let rng = &mut players.rng;
        let mv = if ply < 6 || rng.random_range(0..10) == 0 {
            moves[rng.random_range(0..moves.len())]
        } else {
            players
                .searcher
                .search_to(&game, &limits, &stop, &mut |_| {})
                .best
        };
        game.make(mv);
        ply += 1;
    }
    let final_black = game.final_score() as f64 / 100.0
        * if game.side_to_move() == crate::game::Side::Black {
            1.0
        } else {
            -1.0
        };
    positions
        .into_iter()
        .map(|(position, features, black_to_move, exact)| {
            let black = exact.or(solved_black).map_or(final_black, f64::from);
            Labelled {
                position,
                features,
                label: if black_to_move { black } else { -black },
            }
        })
        .collect()
}

/// Runs the fit and prints the weights as eval.rs takes them, with the held-out error of
/// the current and the fitted weights.
pub fn tune(
    wthor: Option<&Path>,
    play: SelfPlay,
    out: &mut impl std::io::Write,
) -> Result<Weights, String> {
    let (rule, size) = (play.rule, play.size);
    let mut fit = Fit::new();
    // WTHOR's games are 8x8 under the normal rule; everything else comes from self-play.
    let games = match (rule, size, wthor) {
        (Rule::Normal, 8, Some(dir)) => wthor_games(dir, &mut fit)?,
        (Rule::Normal, 8, None) => return Err("tune --rule normal needs --wthor DIR".into()),
        (_, _, Some(_)) => return Err("tune: --wthor is for --rule normal --size 8".into()),
        (_, _, None) => selfplay_games(play, &mut fit)?,
    };
    if fit.samples == 0 || fit.holdout.is_empty() {
        return Err(format!(
            "{games} games give {} positions to fit and {} to hold out: too few to tune",
            fit.samples,
            fit.holdout.len()
        ));
    }
    let fitted = fit.solve();
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "{games} games, {} positions fitted, {} held out",
        fit.samples,
        fit.holdout.len()
    )
    .map_err(io)?;
    writeln!(
        out,
        "held-out RMS error: current weights {:.2} discs, fitted {:.2} discs",
        fit.holdout_error(weights(size, rule)),
        fit.holdout_error(&fitted)
    )
    .map_err(io)?;
    let name = if rule == Rule::Normal {
        "NORMAL"
    } else {
        "MISERE"
    };
    let size_suffix = if size == 8 {
        String::new()
    } else {
        size.to_string()
    };
    writeln!(out, "pub const {name}{size_suffix}: Weights = [").map_err(io)?;
    for (name, pair) in FEATURES.iter().zip(&fitted) {
        writeln!(out, "    [{}, {}], // {name}", pair[0], pair[1]).map_err(io)?;
    }
    writeln!(out, "];").map_err(io)?;
    Ok(fitted)
}

/// The games `arbor tune` fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TuneGame {
    // The hand-written Othello evaluation, by least squares.
    #[value(alias = "reversi")]
    Othello,
    // The Gomoku evaluation's tables, to game results (`tune_gomoku.rs`).
    Gomoku,
}

/// The rule `arbor tune` fits for: Othello's or Gomoku's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TuneRule {
    Normal,
    #[value(alias = "misère")]
    Misere,
    Freestyle,
    Renju,
}

impl TuneRule {
    /// The name `--rule` takes.
    fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .map_or_else(String::new, |value| value.get_name().to_string())
    }
}

/// `arbor tune`'s command line.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// othello or gomoku.
    #[arg(long, value_enum, default_value = "othello")]
    pub game: TuneGame,
    /// Othello: normal (labels from WTHOR games, the default) or misere (labels from
    /// self-play). Gomoku: freestyle (the default) or renju (the renju tables, by colour,
    /// from --teacher renju games).
    #[arg(long, value_enum)]
    pub rule: Option<TuneRule>,
    /// Directory of WTHOR `<moves> <diff>` files (for --rule normal).
    #[arg(long)]
    pub wthor: Option<std::path::PathBuf>,
    /// Self-play games to generate (for --rule misere, the small boards and gomoku;
    /// default 3000, or none for gomoku given --records).
    #[arg(long, value_parser = crate::bounds::positive)]
    pub selfplay: Option<usize>,
    /// Othello: the board the self-play games are played on, 4, 6 or 8 (default 8).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=8))]
    pub size: Option<u8>,
    /// Othello self-play: label positions with this many empties or fewer by exact
    /// solves, and earlier ones by the solved score of their game's first such position
    /// (default 0: every position by its game's final result).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub solve_empties: Option<u32>,
    #[arg(long, default_value_t = 1, value_parser = crate::bounds::number)]
    pub seed: u64,
    /// Threads playing the self-play games, 1 to 256 (gomoku; default: all cores).
    #[arg(long, value_parser = crate::bounds::threads)]
    pub threads: Option<usize>,
    /// Gomoku: match records (`arbor match --jsonl`) whose 15x15 freestyle games to
    /// fit too.
    #[arg(long, num_args = 1..)]
    pub records: Vec<std::path::PathBuf>,
    /// Gomoku: where to write the fitted tables (`src/game/gomoku/eval_table.rs`).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Gomoku: label each position by a search of this depth (plies) instead of by
    /// its game's result (1 to 60).
    #[arg(long, value_parser = crate::bounds::fixed_depth)]
    pub label_depth: Option<u32>,
    /// Gomoku: file keeping those searches' scores (read if it exists, else written).
    #[arg(long, requires = "label_depth")]
    pub labels: Option<std::path::PathBuf>,
    /// Gomoku: a teacher's scored positions (Rapfi's self-play text data, or `arbor
    /// selfplay`'s; `.gz` read as gzip) or game records (`.psq`, labelled by their
    /// results) to fit the evaluation and the move policy to; a directory gives every
    /// such file under it.
    #[arg(long, num_args = 1..)]
    pub teacher: Vec<std::path::PathBuf>,
}

impl TuneArgs {
    /// Fits the game's weights and prints them to stdout.
    pub fn run(&self) -> Result<(), String> {
        let out = &mut std::io::stdout();
        match self.game {
            TuneGame::Gomoku if self.wthor.is_some() => {
                Err("tune --game gomoku takes no --wthor (it fits games)".into())
            }
            TuneGame::Gomoku if self.size.is_some() || self.solve_empties.is_some() => {
                Err("tune: --size and --solve-empties are for --game othello".into())
            }
            TuneGame::Gomoku => {
                let renju = match self.rule {
                    None | Some(TuneRule::Freestyle) => false,
                    Some(TuneRule::Renju) => true,
                    Some(other) => {
                        return Err(format!(
                            "tune --game gomoku: --rule {} is Othello's; Gomoku's are freestyle and renju",
                            other.name()
                        ));
                    }
                };
                let default_games = if self.records.is_empty() && self.teacher.is_empty() {
                    3000
                } else {
                    0
                };
                let sources = super::tune_gomoku::Sources {
                    records: self.records.clone(),
                    selfplay: self.selfplay.unwrap_or(default_games),
                    seed: self.seed,
                    threads: self
                        .threads
                        .unwrap_or_else(crate::bounds::available_threads),
                    label_depth: self.label_depth,
                    labels: self.labels.clone(),
                    teacher: self.teacher.clone(),
                    renju,
                };
                super::tune_gomoku::tune(&sources, self.out.as_ref(), out).map(|_| ())
            }
            TuneGame::Othello if !self.records.is_empty() || self.out.is_some() => {
                Err("tune: --records and --out are for --game gomoku".into())
            }
            TuneGame::Othello => {
                let rule = match self.rule {
                    None | Some(TuneRule::Normal) => Rule::Normal,
                    Some(TuneRule::Misere) => Rule::Misere,
                    Some(other) => {
                        return Err(format!(
                            "tune: --rule {} is Gomoku's; Othello's are normal and misere",
                            other.name()
                        ));
                    }
                };
                let size = self.size.unwrap_or(8);
                if size % 2 == 1 {
                    return Err(format!("tune: --size {size}: Othello boards are 4, 6 or 8"));
                }
                let play = SelfPlay {
                    rule,
                    size: size as usize,
                    games: self.selfplay.unwrap_or(3000),
                    seed: self.seed,
                    solve_empties: self.solve_empties.unwrap_or(0),
                };
                tune(self.wthor.as_deref(), play, out).map(|_| ())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels made by known weights are recovered by the fit.
    #[test]
    fn recovers_weights_from_exact_labels() {
        let truth: Weights = [
            [50, 20],
            [10, 0],
            [400, 300],
            [-200, -50],
            [-60, -20],
            [80, 120],
            [0, 90],
            [-5, 70],
        ];
        let mut fit = Fit::new();
        let mut rng = StdRng::seed_from_u64(1);
        let mut moves = Vec::new();
        for game_index in 0..300 {
            let mut game = Othello::standard();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let f = features(&game);
                // Exact linear labels (before the integer division of `score`).
                let label: f64 = row(&f)
                    .iter()
                    .zip(truth.iter().flatten())
                    .map(|(x, &w)| x * w as f64)
                    .sum();
                fit.add(f, label, game_index % 10 == 0);
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        let fitted = fit.solve();
        for (k, (got, want)) in fitted.iter().zip(&truth).enumerate() {
            for phase in 0..2 {
                assert!(
                    (got[phase] - want[phase]).abs() <= 2,
                    "{} {got:?} vs {want:?}",
                    FEATURES[k]
                );
            }
        }
        assert!(fit.holdout_error(&fitted) < 0.05);
    }

    /// The exact margin by plain minimax, from the side to move's view.
    fn minimax(game: &Othello) -> i32 {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            return game.final_score() / 100;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = game.clone();
                child.make(mv);
                -minimax(&child)
            })
            .max()
            .unwrap()
    }

    /// Small-board self-play under both rules: positions from `solve_empties` down carry
    /// their exact score, earlier ones the first solved score from their side's view.
    #[test]
    fn self_play_labels_are_the_solved_scores() {
        let solve_empties = 9;
        for rule in [Rule::Misere, Rule::Normal] {
            let start = Othello::new(6, rule).unwrap();
            let mut players = Players {
                rng: StdRng::seed_from_u64(3),
                searcher: Searcher::new(&start, 1).unwrap(),
                solver: Some(Solver::new(1 << 20)),
            };
            for _ in 0..3 {
                let positions = selfplay_game(&start, solve_empties, &mut players);
                let empties = |p: &Labelled| p.position.empties().count_ones();
                let first = positions
                    .iter()
                    .position(|p| empties(p) <= solve_empties)
                    .expect("a solved position");
                let black = |p: &Labelled| {
                    let black_to_move = p.position.side_to_move() == crate::game::Side::Black;
                    if black_to_move { p.label } else { -p.label }
                };
                for (index, p) in positions.iter().enumerate() {
                    assert!(empties(p) >= MIN_EMPTIES);
                    if index >= first {
                        assert_eq!(p.label, minimax(&p.position) as f64, "{rule:?} {index}");
                    } else {
                        assert_eq!(black(p), black(&positions[first]), "{rule:?} {index}");
                    }
                }
            }
        }
    }

    fn parse(args: &[&str]) -> Result<TuneArgs, clap::Error> {
        crate::cli::parse_args(args)
    }

    #[test]
    fn the_game_and_rule_are_checked_by_the_parser() {
        assert_eq!(parse(&[]).unwrap().game, TuneGame::Othello);
        assert_eq!(
            parse(&["--game", "reversi"]).unwrap().game,
            TuneGame::Othello
        );
        assert_eq!(parse(&["--game", "gomoku"]).unwrap().game, TuneGame::Gomoku);
        assert_eq!(
            parse(&["--rule", "misere"]).unwrap().rule,
            Some(TuneRule::Misere)
        );
        assert_eq!(
            parse(&["--game", "gomoku", "--rule", "renju"])
                .unwrap()
                .rule,
            Some(TuneRule::Renju)
        );
        for bad in [
            &["--game", "chess"][..],
            &["--game", "Gomoku "],
            &["--rule", "reversed"],
            &["--labels", "x"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn options_of_the_other_game_are_refused_before_any_work() {
        for (args, expected) in [
            (
                &["--game", "gomoku", "--wthor", "x"][..],
                "takes no --wthor",
            ),
            (
                &["--game", "gomoku", "--rule", "misere"],
                "--rule misere is Othello's",
            ),
            (&["--rule", "renju"], "--rule renju is Gomoku's"),
            (
                &["--game", "gomoku", "--rule", "renju", "--selfplay", "10"],
                "fits --teacher games only",
            ),
            (
                &["--records", "x.jsonl"],
                "--records and --out are for --game gomoku",
            ),
            (
                &["--game", "reversi", "--out", "x"],
                "--records and --out are for --game gomoku",
            ),
        ] {
            let message = parse(args).unwrap().run().unwrap_err();
            assert!(message.contains(expected), "{args:?}: {message}");
        }
    }
}
