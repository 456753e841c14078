//! `arbor train`: fits the pattern evaluation (pattern.rs) on the WTHOR games.
//!
//! Every position of every finished game is labelled with the game's final disc margin
//! from the side to move's view. Each phase (a band of `PHASE_EMPTIES` empties) is a
//! ridge regression of the label on the pattern configurations, solved by conjugate
//! gradients (CGLS); positions within `OVERLAP` empties of a band also train it, which
//! smooths the weights from one phase to the next. Configurations that are mirror images
//! within one pattern share a weight, so the evaluation is the same in every orientation.
//! One game in `HOLDOUT_EVERY` is kept apart to measure the fit and to stop it.

use std::path::Path;

use crate::game::othello::bitboard::square_bit;
use crate::game::othello::eval::{NORMAL, disc_features};
use crate::game::othello::pattern::{self, LAYOUT, PHASE_EMPTIES, PHASES};
use crate::game::othello::symmetry::Symmetry;

use super::tune::replay_wthor;

const HOLDOUT_EVERY: usize = 10;
const OVERLAP: u32 = 2;
const RIDGE: f64 = 2.0;
const MAX_ITERATIONS: usize = 300;

/// A training position: the side to move's discs, the other side's, its label (final
/// margin in discs from the side to move's view) and whether it is held out.
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    pub label: f32,
    pub holdout: bool,
}

/// For every weight index of a phase, the index of the weight it shares.
fn shared_index() -> Vec<u32> {
    let layout = &*LAYOUT;
    let mut shared: Vec<u32> = (0..layout.phase_len as u32).collect();
    // Self-maps of each pattern: symmetries that send its squares onto themselves.
    let mut seen_offsets = Vec::new();
    for instance in &layout.instances {
        let (squares, offset) = instance.parts();
        if seen_offsets.contains(&offset) {
            continue;
        }
        seen_offsets.push(offset);
        let set = squares.iter().fold(0u64, |bits, &s| bits | (1u64 << s));
        let mut permutations = Vec::new();
        for symmetry in Symmetry::ALL {
            let image = |s: u8| symmetry.apply(square_bit(s as usize), 8).trailing_zeros() as u8;
            if symmetry.apply(set, 8) != set {
                continue;
            }
            let permutation: Vec<usize> = squares
                .iter()
                .map(|&s| squares.iter().position(|&t| t == image(s)).unwrap())
                .collect();
            permutations.push(permutation);
        }
        let len = squares.len();
        for config in 0..3u32.pow(len as u32) {
            let digits: Vec<u32> = (0..len)
                .map(|k| config / 3u32.pow((len - 1 - k) as u32) % 3)
                .collect();
            let canonical = permutations
                .iter()
                .map(|permutation| {
                    let mut mapped = vec![0; len];
                    for (k, &to) in permutation.iter().enumerate() {
                        mapped[to] = digits[k];
                    }
                    mapped.iter().fold(0, |index, &d| index * 3 + d)
                })
                .min()
                .unwrap();
            shared[(offset + config) as usize] = offset + canonical;
        }
    }
    shared
}

/// Trains all phases and writes the weights file; prints the held-out error per phase
/// next to that of the hand-written evaluation.
/// The weights file `train` writes unless told otherwise: a new file, never the shipped one.
pub const DEFAULT_OUT: &str = "normal8-trained.bin";

/// Trains and writes the weights to `out_path`. An existing file is replaced only with
/// `replace`, and only once training has succeeded (written beside it, then renamed).
pub fn train(
    wthor: &Path,
    out_path: &Path,
    replace: bool,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    if out_path.exists() && !replace {
        return Err(format!(
            "{} exists: give --force to replace it, or another --out",
            out_path.display()
        ));
    }
    let mut samples = Vec::new();
    let mut games = 0;
    replay_wthor(wthor, |positions, diff| {
        for position in positions {
            let label = if position.black_to_move { diff } else { -diff };
            samples.push(Sample {
                player: position.player,
                opponent: position.opponent,
                label: label as f32,
                holdout: games % HOLDOUT_EVERY == 0,
            });
        }
        games += 1;
    })?;
    writeln!(out, "{games} games, {} positions", samples.len()).map_err(io)?;
    let held_out = samples.iter().filter(|sample| sample.holdout).count();
    if held_out == 0 || held_out == samples.len() {
        return Err(format!(
            "{games} games are too few to train on (one in {HOLDOUT_EVERY} is held out)"
        ));
    }
    let (weights, reports) = fit(&samples);
    for report in reports {
        writeln!(out, "{report}").map_err(io)?;
    }
    let mut partial = out_path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    std::fs::write(&partial, pattern::encode(&weights))
        .and_then(|()| std::fs::rename(&partial, out_path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            format!("{}: {e}", out_path.display())
        })?;
    writeln!(out, "wrote {}", out_path.display()).map_err(io)?;
    Ok(())
}

/// Fits every phase on `samples`: the weights file's contents and a report per phase.
pub fn fit(samples: &[Sample]) -> (Vec<i16>, Vec<String>) {
    let shared = shared_index();
    let layout = &*LAYOUT;
    let mut weights = vec![0i16; PHASES * layout.phase_len];
    let mut reports = Vec::new();
    let mut results: Vec<(usize, Vec<f64>, String)> = std::thread::scope(|scope| {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (samples, shared) = (samples, &shared);
                scope.spawn(move || {
                    (0..PHASES)
                        .filter(|phase| phase % workers == worker)
                        .map(|phase| {
                            let (fitted, report) = train_phase(samples, shared, phase);
                            (phase, fitted, report)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("training thread"))
            .collect()
    });
    results.sort_by_key(|(phase, _, _)| *phase);
    for (phase, fitted, report) in results {
        reports.push(report);
        let base = phase * layout.phase_len;
        // The bias shares with itself, so it is copied here too.
        for (index, &target) in shared.iter().enumerate() {
            let centi = (fitted[target as usize] * 100.0).round();
            weights[base + index] = centi.clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
    }
    (weights, reports)
}

/// One phase: CGLS on the training positions, stopped where the held-out error is least.
fn train_phase(samples: &[Sample], shared: &[u32], phase: usize) -> (Vec<f64>, String) {
    let layout = &*LAYOUT;
    let features = layout.instances.len() + 1;
    let low = phase as u32 * PHASE_EMPTIES;
    let high = (low + PHASE_EMPTIES - 1).min(60);
    let in_band = |sample: &Sample, margin: u32| {
        let empties = 64 - (sample.player | sample.opponent).count_ones();
        empties + margin >= low && empties <= high + margin
    };
    let mut rows: Vec<u32> = Vec::new();
    let mut labels: Vec<f64> = Vec::new();
    let mut held_rows: Vec<u32> = Vec::new();
    let mut held_labels: Vec<f64> = Vec::new();
    let mut hand_error = 0.0;
    let mut indices = vec![0u32; layout.instances.len()];
    for sample in samples {
        let (target_rows, target_labels) = if sample.holdout {
            if !in_band(sample, 0) {
                continue;
            }
            let hand = disc_features(sample.player, sample.opponent, !0).score(&NORMAL);
            hand_error += (hand as f64 / 100.0 - sample.label as f64).powi(2);
            (&mut held_rows, &mut held_labels)
        } else {
            if !in_band(sample, OVERLAP) {
                continue;
            }
            (&mut rows, &mut labels)
        };
        layout.indices(sample.player, sample.opponent, &mut indices);
        target_rows.extend(indices.iter().map(|&i| shared[i as usize]));
        target_rows.push(layout.bias_index() as u32);
        target_labels.push(sample.label as f64);
    }
    let n = layout.phase_len;
    let apply = |x: &[f64], rows: &[u32], out: &mut Vec<f64>| {
        out.clear();
        out.extend(
            rows.chunks(features)
                .map(|row| row.iter().map(|&i| x[i as usize]).sum::<f64>()),
        );
    };
    let apply_transposed = |r: &[f64], out: &mut [f64]| {
        out.fill(0.0);
        for (row, &value) in rows.chunks(features).zip(r) {
            for &i in row {
                out[i as usize] += value;
            }
        }
    };
    let held_error = |x: &[f64]| {
        let mut predictions = Vec::new();
        apply(x, &held_rows, &mut predictions);
        let sum: f64 = predictions
            .iter()
            .zip(&held_labels)
            .map(|(p, y)| (p - y).powi(2))
            .sum();
        (sum / held_labels.len().max(1) as f64).sqrt()
    };
    // CGLS for min |A x - y|^2 + RIDGE |x|^2.
    let mut x = vec![0.0; n];
    let mut residual = labels.clone();
    let mut s = vec![0.0; n];
    apply_transposed(&residual, &mut s);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|v| v * v).sum();
    let mut q = Vec::new();
    let (mut best, mut best_error) = (x.clone(), held_error(&x));
    let mut since_best = 0;
    for _ in 0..MAX_ITERATIONS {
        apply(&p, &rows, &mut q);
        let delta: f64 =
            q.iter().map(|v| v * v).sum::<f64>() + RIDGE * p.iter().map(|v| v * v).sum::<f64>();
        if delta == 0.0 {
            break;
        }
        let alpha = gamma / delta;
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in residual.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        apply_transposed(&residual, &mut s);
        for (si, xi) in s.iter_mut().zip(&x) {
            *si -= RIDGE * xi;
        }
        let next: f64 = s.iter().map(|v| v * v).sum();
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        let error = held_error(&x);
        if error < best_error {
            (best, best_error) = (x.clone(), error);
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= 10 {
                break;
            }
        }
    }
    let report = format!(
        "phase {phase} ({low}-{high} empties): {} positions, held-out RMS error {:.2} discs \
         (hand-written evaluation {:.2})",
        labels.len(),
        best_error,
        (hand_error / held_labels.len().max(1) as f64).sqrt()
    );
    (best, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Othello;
    use crate::game::othello::pattern::evaluate_with;
    use crate::game::{Game, Move};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The disc difference is a sum over squares, so the patterns can express it: the fit
    /// must find it on held-out positions of random games, in every phase.
    #[test]
    fn learns_the_disc_difference() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut moves: Vec<Move> = Vec::new();
        let mut samples = Vec::new();
        for game_index in 0..4000 {
            let mut game = Othello::standard();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let (player, opponent) = (game.player(), game.opponent());
                samples.push(Sample {
                    player,
                    opponent,
                    label: player.count_ones() as f32 - opponent.count_ones() as f32,
                    holdout: game_index % 10 == 0,
                });
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        let (weights, _) = fit(&samples);
        let held: Vec<&Sample> = samples.iter().filter(|sample| sample.holdout).collect();
        let squares: f64 = held
            .iter()
            .map(|sample| {
                let predicted = evaluate_with(&weights, sample.player, sample.opponent);
                (predicted as f64 / 100.0 - sample.label as f64).powi(2)
            })
            .sum();
        let rms = (squares / held.len() as f64).sqrt();
        let spread =
            (held.iter().map(|s| (s.label as f64).powi(2)).sum::<f64>() / held.len() as f64).sqrt();
        eprintln!("held-out RMS error {rms:.3} discs, label RMS {spread:.2}");
        assert!(rms < 0.5, "held-out RMS error {rms} discs");
    }
}
