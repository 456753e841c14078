//! `arbor tune --game gomoku --teacher FILE...`: the Gomoku evaluation and move policy
//! fitted to a teacher's scored positions (`game::gomoku::dataset`: Rapfi's self-play, or
//! arbor's own).
//!
//! The evaluation: every quiet position labelled by a blend of the teacher's chance to
//! win (its score through Rapfi's sigmoid) and the game's result, then the tables of
//! `tune_gomoku` fitted as there. The policy: per candidate point the sum of a value by
//! its class for the mover and one by its class for the other side, fitted by softmax
//! cross-entropy to the teacher's choices. One game in `HOLDOUT_EVERY` is held out for
//! the reports: log-loss against the teacher and the results, and how often the
//! teacher's move is the policy's first, in its first five and in its first eight (the
//! candidates the search keeps below the root).

use std::path::PathBuf;

use super::tune_gomoku::{Adam, Data, Position};
use crate::game::gomoku::PolicyTables;
use crate::game::gomoku::dataset::{self, Rule, Sample};
use crate::game::gomoku::policy::{self, Choice};
use crate::game::{Game, Move};

const SIZE: usize = 15;
const HOLDOUT_EVERY: usize = 10;
/// The label's share of the teacher's chance; the rest is the game's result.
const TEACHER_SHARE: f64 = 0.75;
/// Adam's step size for the policy, and its pull towards zero per squared unit (in
/// logits), per position.
const POLICY_STEP: f64 = 0.05;
const POLICY_PRIOR: f64 = 1e-4;

/// The teacher's data split for fitting and for holding out.
#[derive(Default)]
pub struct TeacherData {
    pub(super) train: Data,
    pub(super) holdout: Data,
    pub train_choices: Vec<Choice>,
    pub holdout_choices: Vec<Choice>,
    /// Games and samples read, and samples of another size or rule.
    pub games: usize,
    pub samples: usize,
    pub skipped: usize,
    /// Game records (`.psq`) left out: they do not replay, or name no winner.
    pub bad_records: usize,
}

/// Reads the teacher's files: 15x15 samples of freestyle, or of renju if `renju`.
pub fn read_teacher(paths: &[PathBuf], renju: bool) -> Result<TeacherData, String> {
    let rule = if renju { Rule::Renju } else { Rule::Freestyle };
    let mut data = TeacherData::default();
    let mut files = Vec::new();
    for path in paths {
        files.extend(dataset::data_files(path).map_err(|e| e.to_string())?);
    }
    for path in &files {
        let record = path.extension().is_some_and(|ext| ext == "psq");
        let samples = match dataset::read_samples(path) {
            // Third parties' game records: one that does not replay is left out and
            // counted, not the end of the fit (a teacher's file must replay whole).
            Err(e) if record => {
                log::warn!("{e}: left out");
                data.bad_records += 1;
                continue;
            }
            Ok(samples) if record && samples.is_empty() => {
                data.bad_records += 1;
                continue;
            }
            read => read.map_err(|e| e.to_string())?,
        };
        for range in dataset::games(&samples) {
            let game = &samples[range];
            let index = data.games;
            data.games += 1;
            data.samples += game.len();
            if game[0].size != SIZE || game[0].rule != rule {
                data.skipped += game.len();
                continue;
            }
            let (positions, choices) = game_data(game)
                .map_err(|e| format!("{}: game {}: {e}", path.display(), index + 1))?;
            if index % HOLDOUT_EVERY == 0 {
                data.holdout.add(positions);
                data.holdout_choices.extend(choices);
            } else {
                data.train.add(positions);
                data.train_choices.extend(choices);
            }
        }
    }
    Ok(data)
}

/// One game's quiet positions and policy choices.
fn game_data(game: &[Sample]) -> Result<(Vec<Position>, Vec<Choice>), String> {
    let mut position = game[0].position()?;
    let mut positions = Vec::new();
    let mut choices = Vec::new();
    for (i, sample) in game.iter().enumerate() {
        if i > 0 {
            let mv = Move::new(*sample.moves.last().expect("a continuation has moves"));
            if position.outcome().is_some() || !position.is_legal(mv) {
                return Err(format!("position {} does not follow", i + 1));
            }
            position.make(mv);
        }
        let best = Move::new(sample.best);
        if !position.is_legal(best) {
            return Err(format!("position {}: the best move is illegal", i + 1));
        }
        let result = sample.result.points();
        if let Some(features) = position.eval_features() {
            let label = match sample.teacher_chance() {
                Some(chance) => TEACHER_SHARE * chance + (1.0 - TEACHER_SHARE) * result,
                None => result,
            };
            positions.push(Position {
                features,
                label,
                result,
                searched: None,
                ply: sample.moves.len(),
            });
        }
        choices.extend(position.policy_choice(best));
    }
    Ok((positions, choices))
}

/// The candidates' logits under `tables`.
fn logits(choice: &Choice, tables: &PolicyTables) -> Vec<f64> {
    (choice.points.iter())
        .map(|features| features.iter().map(|&f| tables.weights[f as usize]).sum())
        .collect()
}

/// Where the teacher's move ranks among `scores` (0: first); ties count against it.
fn rank(scores: &[f64], best: usize) -> usize {
    scores
        .iter()
        .enumerate()
        .filter(|&(i, &s)| i != best && s >= scores[best])
        .count()
}

/// How often the teacher's move ranks first, in the first five and in the first eight.
pub fn agreement(choices: &[Choice], score: impl Fn(&Choice) -> Vec<f64>) -> [f64; 3] {
    let mut hits = [0usize; 3];
    for choice in choices {
        let r = rank(&score(choice), choice.best);
        for (hit, k) in hits.iter_mut().zip([1, 5, 8]) {
            *hit += (r < k) as usize;
        }
    }
    hits.map(|h| h as f64 / choices.len().max(1) as f64)
}

/// Mean cross-entropy of the teacher's moves under the policy.
pub fn policy_loss(choices: &[Choice], tables: &PolicyTables) -> f64 {
    let total: f64 = (choices.iter())
        .map(|choice| {
            let logits = logits(choice, tables);
            let top = logits.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = logits.iter().map(|l| (l - top).exp()).sum();
            top + sum.ln() - logits[choice.best]
        })
        .sum();
    total / choices.len().max(1) as f64
}

/// Adam on the cross-entropy of the teacher's moves, from zero tables, with a light
/// pull towards zero for classes the data hardly shows.
pub fn fit_policy(choices: &[Choice], iterations: usize) -> PolicyTables {
    let n = policy::WEIGHTS;
    let mut tables = PolicyTables {
        weights: vec![0.0f64; n],
    };
    let mut adam = Adam::new(n);
    let scale = 1.0 / choices.len().max(1) as f64;
    for _ in 0..iterations {
        let mut gradient: Vec<f64> = (tables.weights.iter())
            .map(|w| 2.0 * POLICY_PRIOR * w)
            .collect();
        for choice in choices {
            let logits = logits(choice, &tables);
            let top = logits.iter().cloned().fold(f64::MIN, f64::max);
            let exps: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
            let sum: f64 = exps.iter().sum();
            for (i, (features, e)) in choice.points.iter().zip(&exps).enumerate() {
                let g = scale * (e / sum - (i == choice.best) as u8 as f64);
                for &f in features {
                    gradient[f as usize] += g;
                }
            }
        }
        adam.step(&mut tables.weights, &gradient, 0, POLICY_STEP);
    }
    tables
}

/// Reports the held-out agreement and losses of the current and the fitted policy.
pub fn report_policy(
    data: &TeacherData,
    fitted: &PolicyTables,
    report: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let holdout = &data.holdout_choices;
    let hand_set = PolicyTables::hand_set();
    let rows = [
        (
            "hand-set move order",
            agreement(holdout, |c| logits(c, &hand_set)),
            None,
        ),
        (
            "fitted policy",
            agreement(holdout, |c| logits(c, fitted)),
            Some(policy_loss(holdout, fitted)),
        ),
    ];
    writeln!(
        report,
        "policy: {} choices fitted, {} held out (mean {:.1} candidates)",
        data.train_choices.len(),
        holdout.len(),
        holdout.iter().map(|c| c.points.len()).sum::<usize>() as f64 / holdout.len().max(1) as f64
    )?;
    for (name, [top1, top5, top8], loss) in rows {
        let loss = loss.map_or(String::new(), |l| format!(", cross-entropy {l:.4}"));
        writeln!(
            report,
            "{name}, held out: teacher's move first {:.1}%, in the first 5 {:.1}%, in the first 8 {:.1}%{loss}",
            100.0 * top1,
            100.0 * top5,
            100.0 * top8
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::dataset::read_samples_from;

    /// A few games of the format, written by hand: two short decisive ones.
    const GAMES: &str = "15,Freestyle,H8I9,2,H9(120)\n\
        15,Freestyle,H8I9H9,0,H10(-150)\n\
        15,Freestyle,H8I9H9H10,2,G8(200)\n\
        15,Freestyle,H8I9H9H10G8,0,F8(-300)\n\
        15,Freestyle,H8I9H9H10G8F8,2,I8(400)\n\
        15,Freestyle,A1O15,0,B2(-20)\n\
        15,Freestyle,A1O15B2,2,N14(25)\n";

    #[test]
    fn reads_a_teachers_games_into_positions_and_choices() {
        let samples = read_samples_from(GAMES.as_bytes()).unwrap();
        let games = dataset::games(&samples);
        assert_eq!(games, vec![0..5, 5..7]);
        let (positions, choices) = game_data(&samples[games[0].clone()]).unwrap();
        assert!(!positions.is_empty() && !choices.is_empty());
        // Labels blend the teacher's chance with the result (the mover of the first won).
        let first = &positions[0];
        let chance = 1.0 / (1.0 + (-120.0f64 / 200.0).exp());
        assert_eq!(first.result, 1.0);
        assert!((first.label - (TEACHER_SHARE * chance + 1.0 - TEACHER_SHARE)).abs() < 1e-9);
        // A game that does not follow is named.
        let mut broken = samples[..2].to_vec();
        broken[1].moves[2] = broken[1].moves[0];
        let Err(error) = game_data(&broken) else {
            panic!("a game that does not follow was read");
        };
        assert!(error.contains("position 2"), "{error}");
    }

    /// Choices whose teacher always picks the point of one class: the fit learns it, the
    /// same way every time.
    #[test]
    fn the_policy_fit_learns_a_rule_and_repeats() {
        let choice = |best: usize| Choice {
            points: (0..6)
                .map(|i| {
                    let class = if i == best { 7 } else { 3 + i as u16 % 2 };
                    let mut features = [0u16; policy::FEATURES];
                    features[0] = class;
                    features[1] = (policy::WEIGHTS - 1) as u16;
                    features
                })
                .collect(),
            best,
        };
        let choices: Vec<Choice> = (0..60).map(|i| choice(i % 6)).collect();
        let fitted = fit_policy(&choices, 200);
        assert_eq!(agreement(&choices, |c| logits(c, &fitted)), [1.0; 3]);
        assert!(policy_loss(&choices, &fitted) < 0.1);
        assert_eq!(fit_policy(&choices, 200), fitted);
    }
}
