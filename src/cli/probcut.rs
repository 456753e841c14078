//! `arbor probcut`: measures how well a shallow search predicts a deep one on 8x8
//! Othello, for Multi-ProbCut, under either rule. Positions come from the WTHOR
//! tournament games, from self-play games of the rule (as `arbor train` plays them) or
//! both: one per sampled game, its empty count drawn between the phases' bounds. Each is
//! searched full-width by iterative deepening under the rule, and for every depth the
//! difference between its score and the score at `shallow_depth(depth)` gives the error
//! of the prediction. The table of standard errors per phase and depth is printed as the
//! rule's Rust constant of `src/game/othello/probcut.rs`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::train::{Corpus, DEFAULT_SEARCH_SHARE, Labelling, selfplay_games};
use super::tune::{GamePosition, replay_wthor};
use crate::bounds;
use crate::game::othello::probcut::{MIN_DEPTH, PHASES, phase, shallow_depth};
use crate::game::othello::{Othello, Rule};
use crate::game::roles::{Score, ScoreValue};
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::search::report::Report;
use crate::stop::Stop;

/// Sampled positions have this many empties at least (the solver plays below) and at
/// most (the first moves are book moves).
const MIN_EMPTIES: u32 = 13;
const MAX_EMPTIES: u32 = 52;

/// A stable hash for sampling (SplitMix64), so the same seed picks the same positions
/// whatever the random-number crate does.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Sum, sum of squares and count of the differences deep - shallow.
#[derive(Clone, Copy, Default)]
struct Errors {
    n: u64,
    sum: f64,
    squares: f64,
}

impl Errors {
    fn add(&mut self, diff: f64) {
        self.n += 1;
        self.sum += diff;
        self.squares += diff * diff;
    }

    fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }

    /// Root mean square: the prediction is the shallow score itself, bias included.
    fn rms(&self) -> f64 {
        (self.squares / self.n.max(1) as f64).sqrt()
    }
}

/// A search iteration's score, when it is an evaluation (not an exact solve).
fn searched_score(report: &Report) -> Option<Score> {
    match (report.exact, report.lines.first().map(|line| line.score)) {
        (false, Some(ScoreValue::Eval { value, .. })) => Some(value),
        _ => None,
    }
}

/// Every 50 positions, how far a fit has come.
fn log_progress(done: usize, total: usize, started: Instant) {
    if done.is_multiple_of(50) {
        log::info!(
            "{done} of {total} positions, {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
}

/// About `positions` positions of the corpus's games (the WTHOR games, then the
/// self-play games of `rule`), chosen by the corpus's seed: each game is taken with
/// probability positions / games, at an empty count drawn from `empties`. Also returns
/// the number of games.
fn sample_positions(
    corpus: Corpus,
    rule: Rule,
    positions: usize,
    empties: std::ops::RangeInclusive<u32>,
) -> Result<(Vec<GamePosition>, usize), String> {
    let wthor_games = match corpus.wthor {
        Some(wthor) => replay_wthor(wthor, |_, _| {})?,
        None => 0,
    };
    let selfplay = if corpus.selfplay > 0 {
        let labelling = Labelling {
            rule,
            solve_empties: 0,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: crate::bounds::available_threads(),
        };
        selfplay_games(corpus.selfplay, corpus.seed, None, labelling)?
    } else {
        Vec::new()
    };
    let games = wthor_games + selfplay.len();
    if games == 0 {
        return Err("nothing to sample: give --wthor, --selfplay or both".into());
    }
    let (low, high) = (*empties.start(), *empties.end());
    let mut sample: Vec<GamePosition> = Vec::with_capacity(positions);
    let mut index = 0u64;
    let mut pick = |game: &[GamePosition]| {
        index += 1;
        let hash = mix(corpus.seed ^ mix(index));
        if (hash % games as u64) as usize >= positions {
            return;
        }
        let empties = low + (hash >> 32) as u32 % (high - low + 1);
        if let Some(position) = game
            .iter()
            .find(|p| 64 - (p.player | p.opponent).count_ones() == empties)
        {
            sample.push(*position);
        }
    };
    if let Some(wthor) = corpus.wthor {
        replay_wthor(wthor, |game, _| pick(game))?;
    }
    for (game, _) in &selfplay {
        pick(game);
    }
    Ok((sample, games))
}

/// Samples `positions` positions of the corpus's games, searches each to `depth` under
/// `rule` and prints the error table to `out`.
pub fn fit(
    corpus: Corpus,
    rule: Rule,
    positions: usize,
    depth: u32,
    out: &mut dyn Write,
) -> Result<(), String> {
    if depth <= MIN_DEPTH {
        return Err(format!("--depth must be above {MIN_DEPTH}"));
    }
    let (sample, games) = sample_positions(corpus, rule, positions, MIN_EMPTIES..=MAX_EMPTIES)?;
    let mut errors = vec![vec![Errors::default(); (depth + 1) as usize]; PHASES];
    let start = Othello::new(8, rule).map_err(|e| e.to_string())?;
    let mut searcher = Searcher::new(&start, 64)?;
    searcher.set_selective(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let started = Instant::now();
    for (done, position) in sample.iter().enumerate() {
        let game = Othello::from_sides_under(
            rule,
            position.player,
            position.opponent,
            position.black_to_move,
        );
        let mut scores = vec![None; (depth + 1) as usize];
        searcher.search_to(&game, &limits, &Stop::never(), &mut |report| {
            if let Some(value) = searched_score(&report) {
                scores[report.depth as usize] = Some(value);
            }
        });
        let empties = 64 - (position.player | position.opponent).count_ones();
        for d in MIN_DEPTH..=depth {
            if let (Some(deep), Some(shallow)) =
                (scores[d as usize], scores[shallow_depth(d) as usize])
            {
                errors[phase(empties)][d as usize].add((deep - shallow) as f64);
            }
        }
        log_progress(done + 1, sample.len(), started);
    }
    let w = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "// arbor probcut --rule {} --positions {positions} --depth {depth} --seed {}: {} positions of {games} games ({} self-play)",
        rule.name(),
        corpus.seed,
        sample.len(),
        corpus.selfplay
    )
    .map_err(w)?;
    for (p, row) in errors.iter().enumerate() {
        let cells: Vec<String> = (MIN_DEPTH..=depth)
            .map(|d| format!("{:.0}", row[d as usize].rms()))
            .collect();
        writeln!(out, "    [{}],", cells.join(", ")).map_err(w)?;
        let detail: Vec<String> = (MIN_DEPTH..=depth)
            .map(|d| {
                let e = &row[d as usize];
                format!("{d}/{}: n {} mean {:+.0}", shallow_depth(d), e.n, e.mean())
            })
            .collect();
        writeln!(out, "    // phase {p}: {}", detail.join(", ")).map_err(w)?;
    }
    Ok(())
}

/// Empties of the positions `arbor probcut --endgame` samples (each solved exactly).
pub const ENDGAME_EMPTIES: std::ops::RangeInclusive<u32> = 14..=22;
/// The deepest shallow search `arbor probcut --endgame` measures.
pub const ENDGAME_MAX_SHALLOW: u32 = 6;

/// For the selective endgame search: samples `positions` WTHOR positions with
/// [`ENDGAME_EMPTIES`] empties, solves each exactly and prints the error of a search to
/// each depth up to [`ENDGAME_MAX_SHALLOW`] (0: the evaluation) as a prediction of the
/// exact score, per empty count.
pub fn fit_endgame(
    wthor: &Path,
    positions: usize,
    seed: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    use crate::game::othello::endgame::Solver;
    use crate::game::othello::search::DISC;
    use crate::game::roles::Evaluate;

    let (low, high) = (*ENDGAME_EMPTIES.start(), *ENDGAME_EMPTIES.end());
    let corpus = Corpus {
        wthor: Some(wthor),
        selfplay: 0,
        seed,
        ..Corpus::default()
    };
    let (sample, games) = sample_positions(corpus, Rule::Normal, positions, ENDGAME_EMPTIES)?;
    let rows = (high - low + 1) as usize;
    let mut errors = vec![vec![Errors::default(); ENDGAME_MAX_SHALLOW as usize + 1]; rows];
    let mut searcher = Searcher::new(&Othello::standard(), 16)?;
    searcher.set_selective(false);
    let mut solver = Solver::new(64 << 20);
    let limits = Limits {
        depth: Some(ENDGAME_MAX_SHALLOW),
        ..Limits::default()
    };
    let started = Instant::now();
    for (done, position) in sample.iter().enumerate() {
        let game = Othello::from_sides(position.player, position.opponent, position.black_to_move);
        let Some(exact) = solver.solve(
            position.player,
            position.opponent,
            !0,
            Rule::Normal,
            &Stop::never(),
        ) else {
            continue;
        };
        let exact = exact.score * DISC;
        let empties = 64 - (position.player | position.opponent).count_ones();
        let row = &mut errors[(empties - low) as usize];
        row[0].add((exact - game.evaluate()) as f64);
        searcher.clear();
        searcher.search_to(&game, &limits, &Stop::never(), &mut |report| {
            if let Some(value) = searched_score(&report) {
                row[report.depth as usize].add((exact - value) as f64);
            }
        });
        log_progress(done + 1, sample.len(), started);
    }
    let w = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "// arbor probcut --endgame --positions {positions} --seed {seed}: {} positions of {games} games; rows: empties {low}..={high}, columns: depth 0..={ENDGAME_MAX_SHALLOW}",
        sample.len()
    )
    .map_err(w)?;
    for (r, row) in errors.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|e| format!("{:.0}", e.rms())).collect();
        let means: Vec<String> = row.iter().map(|e| format!("{:+.0}", e.mean())).collect();
        writeln!(
            out,
            "    [{}], // {} empties, n {}, means {}",
            cells.join(", "),
            low as usize + r,
            row[0].n,
            means.join(" ")
        )
        .map_err(w)?;
    }
    Ok(())
}

/// `arbor probcut`'s command line.
#[derive(clap::Args, Debug)]
pub struct ProbcutArgs {
    /// normal or misere: the rule the positions are searched under.
    #[arg(long, default_value = "normal", value_parser = super::train::parse_rule)]
    pub rule: Rule,
    /// Directory of WTHOR `<moves> <diff>` files.
    #[arg(long)]
    pub wthor: Option<std::path::PathBuf>,
    /// Self-play games of the rule to sample too, 0 to 10 million (0: none).
    #[arg(long, default_value_t = 0, value_parser = bounds::selfplay_games)]
    pub selfplay: usize,
    /// About how many positions to sample (one per sampled game).
    #[arg(long, default_value_t = 400, value_parser = bounds::positive)]
    pub positions: usize,
    /// Deepest search, plies (4 to 60).
    #[arg(long, default_value_t = 10, value_parser = bounds::fixed_depth)]
    pub depth: u32,
    #[arg(long, default_value_t = 1, value_parser = bounds::number)]
    pub seed: u64,
    /// Measures instead the error of searches to depth 0-6 as predictions of exact
    /// scores at 14-22 empties, for the selective endgame search (normal rule, WTHOR
    /// positions).
    #[arg(long)]
    pub endgame: bool,
}

impl ProbcutArgs {
    /// Samples, searches and prints the error table to stdout.
    pub fn run(&self) -> Result<(), String> {
        let out = &mut std::io::stdout();
        if !self.endgame {
            let corpus = Corpus {
                wthor: self.wthor.as_deref(),
                selfplay: self.selfplay,
                seed: self.seed,
                ..Corpus::default()
            };
            return fit(corpus, self.rule, self.positions, self.depth, out);
        }
        match (self.rule, &self.wthor) {
            (Rule::Misere, _) | (_, None) => Err(
                "--endgame samples WTHOR positions under the normal rule: give --wthor, not --rule misere"
                    .into(),
            ),
            (_, Some(_)) if self.selfplay > 0 => {
                Err("--endgame samples WTHOR positions only: no --selfplay".into())
            }
            (_, Some(wthor)) => fit_endgame(wthor, self.positions, self.seed, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<ProbcutArgs, clap::Error> {
        crate::cli::parse_args(args)
    }

    #[test]
    fn endgame_samples_are_refused_before_any_work() {
        for (args, expected) in [
            (&["--endgame"][..], "give --wthor"),
            (
                &["--endgame", "--rule", "misere", "--wthor", "x"],
                "under the normal rule",
            ),
            (
                &["--endgame", "--wthor", "x", "--selfplay", "3"],
                "WTHOR positions only",
            ),
        ] {
            let message = parse(args).unwrap().run().unwrap_err();
            assert!(message.contains(expected), "{args:?}: {message}");
        }
        assert!(parse(&["--rule", "reversed"]).is_err());
        assert!(parse(&["--positions", "0"]).is_err());
    }
}
