//! `arbor tune --game gomoku`: fits the Gomoku evaluation weights to self-play results.
//!
//! Self-play games on 15x15 freestyle start from a few random stones near the centre,
//! then each side plays the search's move within `SELFPLAY_NODES` nodes, or one time in
//! `RANDOM_ONE_IN` a random one of the points the search would consider. Every quiet
//! position (`Gomoku::eval_sample`) is a sample labelled with the result for its side to
//! move. The model is the evaluation itself, `sigmoid(eval / scale)` as the chance to
//! win: the scale is fitted first with the shipped weights, then the weights by Newton's
//! method on the log-loss, with a light pull towards the shipped ones for weights the
//! games hardly exercise. Results alone leave the tempo loose, so the fit also asks two
//! quiet positions a move apart to score alike from their movers' sides (that alone does
//! not make a search's odd and even depths agree: `scripts/gomoku-depth-bias.py`). Game N
//! of seed S is the same whatever the thread count (ChaCha8 stream N of seed S, a table
//! cleared per game).

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cli::train::play_indexed;
use crate::cli::tune::solve_linear;
use crate::game::gomoku::{Config, FITTED, Gomoku, Opening, Sample, WEIGHTS, Weights};
use crate::game::roles::Evaluate;
use crate::game::{Game, Move, Side};
use crate::limits::Limits;
use crate::search::Searcher;
use crate::search::time::TimeManager;
use crate::stop::Stop;

const SIZE: usize = 15;
/// Random stones of the opening, within `OPENING_REACH` points of the centre.
const OPENING_STONES: std::ops::RangeInclusive<usize> = 2..=6;
const OPENING_REACH: usize = 3;
const SELFPLAY_NODES: u64 = 4000;
const RANDOM_ONE_IN: u32 = 12;
const SEARCH_MEGABYTES: usize = 8;
/// One game in this many is kept apart to measure the fit.
const HOLDOUT_EVERY: usize = 10;
/// Pull towards the shipped weights: the log-loss of this many samples per unit of
/// relative change.
const PRIOR: f64 = 1.0;

/// Weight of the agreement of two quiet positions a move apart, against one sample's
/// log-loss, per squared difference in units of the scale.
const CONSISTENCY: f64 = 1.0;

/// One game's quiet positions, each with its label (1 the side to move won, 0 it lost,
/// 0.5 a draw) and whether it came one move after the one before it.
type Played = Vec<(Sample, f64, bool)>;

/// Samples and the pairs of consecutive ones (indices into the samples).
#[derive(Default)]
struct Data {
    samples: Vec<(Sample, f64)>,
    pairs: Vec<(usize, usize)>,
}

impl Data {
    fn add(&mut self, game: Played) {
        for (sample, label, follows) in game {
            if follows && !self.samples.is_empty() {
                let index = self.samples.len();
                self.pairs.push((index - 1, index));
            }
            self.samples.push((sample, label));
        }
    }

    /// Each pair's two scores added up: zero when they agree (movers' views).
    fn pair_sums<'a>(&'a self, weights: &'a [f64; FITTED]) -> impl Iterator<Item = f64> + 'a {
        self.pairs
            .iter()
            .map(|&(a, b)| self.samples[a].0.score(weights) + self.samples[b].0.score(weights))
    }

    /// Mean squared disagreement of consecutive quiet positions, in units of `scale`.
    fn disagreement(&self, weights: &[f64; FITTED], scale: f64) -> f64 {
        let total: f64 = self
            .pair_sums(weights)
            .map(|sum| (sum / scale).powi(2))
            .sum();
        total / self.pairs.len().max(1) as f64
    }
}

/// Self-play game `index` of `seed` (see the module's header).
fn selfplay_game(searcher: &mut Searcher<Gomoku>, seed: u64, index: usize) -> Played {
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
    let limits = Limits {
        nodes: Some(SELFPLAY_NODES),
        ..Limits::default()
    };
    let stop = Stop::never().with_node_limit(SELFPLAY_NODES);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut previous_quiet = false;
    while game.outcome().is_none() {
        let sample = game.eval_sample();
        if let Some(sample) = sample {
            positions.push((sample, game.side_to_move(), previous_quiet));
        }
        previous_quiet = sample.is_some();
        let mv = if !game.must_answer() && rng.random_range(0..RANDOM_ONE_IN) == 0 {
            game.search_moves(&mut moves);
            moves[rng.random_range(0..moves.len())]
        } else {
            let time = TimeManager::new(&limits, 30, Duration::ZERO, Instant::now());
            searcher
                .think(&game, &limits, &time, &stop, &mut |_| {})
                .best
        };
        game.make(mv);
    }
    let winner = game.outcome().and_then(|outcome| outcome.winner);
    positions
        .into_iter()
        .map(|(sample, side, follows)| {
            let label = match winner {
                Some(winner) if winner == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            (sample, label, follows)
        })
        .collect()
}

/// Plays `count` self-play games on `threads` threads, in game order.
fn selfplay_games(count: usize, seed: u64, threads: usize) -> Result<Vec<Played>, String> {
    let start = Gomoku::new(Config::gomoku(SIZE, false, Opening::Free)).expect("15x15");
    play_indexed(
        count,
        threads,
        100,
        || Searcher::new(&start, SEARCH_MEGABYTES),
        |searcher, index| selfplay_game(searcher, seed, index),
    )
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-loss of `weights` at `scale` over `samples`.
fn log_loss(samples: &[(Sample, f64)], weights: &[f64; FITTED], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|(sample, label)| {
            let p = sigmoid(sample.score(weights) / scale).clamp(1e-9, 1.0 - 1e-9);
            -(label * p.ln() + (1.0 - label) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale that fits `weights` best: golden-section search on its logarithm.
fn fit_scale(samples: &[(Sample, f64)], weights: &[f64; FITTED]) -> f64 {
    let loss = |log_scale: f64| log_loss(samples, weights, log_scale.exp());
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

/// Newton's method on the log-loss, the disagreement of consecutive positions and the
/// pull towards `prior`, at a fixed scale.
fn fit_weights(data: &Data, prior: &[f64; FITTED], scale: f64) -> [f64; FITTED] {
    let samples = &data.samples;
    let spread = prior.map(|w| w.abs().max(100.0));
    let objective = |w: &[f64; FITTED]| {
        let pull: f64 = (0..FITTED)
            .map(|j| ((w[j] - prior[j]) / spread[j]).powi(2))
            .sum();
        log_loss(samples, w, scale) * samples.len() as f64
            + CONSISTENCY * data.disagreement(w, scale) * data.pairs.len() as f64
            + PRIOR * pull
    };
    let mut weights = *prior;
    let mut current = objective(&weights);
    for _ in 0..30 {
        let mut gradient = [0.0; FITTED];
        let mut hessian = [[0.0; FITTED]; FITTED];
        for (sample, label) in samples {
            let p = sigmoid(sample.score(&weights) / scale);
            let x = sample.values.map(|v| v / scale);
            let curvature = p * (1.0 - p);
            for i in 0..FITTED {
                gradient[i] += (p - label) * x[i];
                for j in 0..FITTED {
                    hessian[i][j] += curvature * x[i] * x[j];
                }
            }
        }
        for &(a, b) in &data.pairs {
            let (x, y) = (&samples[a].0, &samples[b].0);
            let residual = (x.score(&weights) + y.score(&weights)) / scale;
            let both: [f64; FITTED] = std::array::from_fn(|i| (x.values[i] + y.values[i]) / scale);
            for i in 0..FITTED {
                gradient[i] += 2.0 * CONSISTENCY * residual * both[i];
                for j in 0..FITTED {
                    hessian[i][j] += 2.0 * CONSISTENCY * both[i] * both[j];
                }
            }
        }
        for j in 0..FITTED {
            gradient[j] += 2.0 * PRIOR * (weights[j] - prior[j]) / spread[j].powi(2);
            hessian[j][j] += 2.0 * PRIOR / spread[j].powi(2);
        }
        let step = solve_linear(hessian, gradient);
        let mut factor = 1.0;
        let improved = loop {
            let mut trial = weights;
            for j in 0..FITTED {
                trial[j] -= factor * step[j];
            }
            let value = objective(&trial);
            if value < current {
                break Some((trial, value));
            }
            factor /= 2.0;
            if factor < 1e-4 {
                break None;
            }
        };
        let Some((trial, value)) = improved else {
            break;
        };
        let done = current - value < 1e-6 * current;
        (weights, current) = (trial, value);
        if done {
            break;
        }
    }
    weights
}

/// Plays the games, fits, and prints the held-out log-loss of the shipped and the
/// fitted weights and the fitted weights as `search.rs` takes them.
pub fn tune(
    games: usize,
    seed: u64,
    threads: usize,
    out: &mut impl std::io::Write,
) -> Result<Weights, String> {
    let played = selfplay_games(games, seed, threads)?;
    let (mut train, mut holdout) = (Data::default(), Data::default());
    for (index, game) in played.into_iter().enumerate() {
        if index % HOLDOUT_EVERY == 0 {
            holdout.add(game);
        } else {
            train.add(game);
        }
    }
    if train.samples.is_empty() || holdout.samples.is_empty() {
        return Err(format!(
            "{games} games give {} positions to fit and {} to hold out: too few to tune",
            train.samples.len(),
            holdout.samples.len()
        ));
    }
    let shipped = WEIGHTS.fitted();
    let scale = fit_scale(&train.samples, &shipped);
    let fitted = WEIGHTS.with_fitted(&fit_weights(&train, &shipped, scale));
    let io = |e: std::io::Error| e.to_string();
    writeln!(
        out,
        "{games} games, {} positions fitted, {} held out, scale {scale:.0}",
        train.samples.len(),
        holdout.samples.len()
    )
    .map_err(io)?;
    for (name, weights) in [("shipped", shipped), ("fitted", fitted.fitted())] {
        let bias = holdout.pair_sums(&weights).sum::<f64>() / holdout.pairs.len().max(1) as f64;
        writeln!(
            out,
            "{name} weights, held out: log-loss {:.4}, consecutive positions' mean sum {bias:+.0} (rms {:.0})",
            log_loss(&holdout.samples, &weights, scale),
            holdout.disagreement(&weights, scale).sqrt() * scale
        )
        .map_err(io)?;
    }
    writeln!(out, "pub const WEIGHTS: Weights = Weights {{").map_err(io)?;
    writeln!(out, "    lines: {:?},", fitted.lines).map_err(io)?;
    writeln!(out, "    points: {:?},", fitted.points).map_err(io)?;
    writeln!(out, "    tempo: {:?},", fitted.tempo).map_err(io)?;
    writeln!(out, "    terms: {:?},", fitted.terms).map_err(io)?;
    writeln!(out, "}};").map_err(io)?;
    Ok(fitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quiet positions of random local games.
    fn random_samples(games: usize, seed: u64) -> Vec<Sample> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut samples = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut game = Gomoku::new(Config::gomoku(SIZE, false, Opening::Center)).unwrap();
            while game.outcome().is_none() {
                samples.extend(game.eval_sample());
                game.search_moves(&mut moves);
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        samples
    }

    /// Labels drawn from the model with known weights are recovered by the fit.
    #[test]
    fn recovers_weights_from_labels_drawn_by_the_model() {
        let mut truth = WEIGHTS;
        truth.lines[3] = 30;
        truth.points[2] = 60;
        truth.tempo[0] = 200;
        let truth = truth.fitted();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let scale = 400.0;
        let samples: Vec<(Sample, f64)> = random_samples(300, 3)
            .into_iter()
            .flat_map(|sample| {
                let p = sigmoid(sample.score(&truth) / scale);
                // Several draws per position so the labels carry the weights.
                (0..50)
                    .map(|_| (sample, if rng.random::<f64>() < p { 1.0 } else { 0.0 }))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(samples.len() > 20_000, "{} samples", samples.len());
        let data = Data {
            samples: samples.clone(),
            pairs: Vec::new(),
        };
        let fitted = fit_weights(&data, &WEIGHTS.fitted(), scale);
        assert!(
            log_loss(&samples, &fitted, scale) <= log_loss(&samples, &truth, scale) + 1e-3,
            "the fit is worse than the truth"
        );
        for (j, want) in [(2, 30.0), (6 + 1, 60.0), (12, 200.0)] {
            assert!(
                (fitted[j] - want).abs() < want * 0.25,
                "weight {j}: {} against {want}",
                fitted[j]
            );
        }
        // The scale is found again too, with the true weights.
        let found = fit_scale(&samples, &truth);
        assert!((found - scale).abs() < 40.0, "scale {found}");
    }
}
