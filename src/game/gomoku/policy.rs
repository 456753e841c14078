//! The move policy's features: each candidate point of a quiet Gomoku position as the
//! pair of its classes (`PointClass`) for the side to move's stone and for the other
//! side's. The policy scores a point by one learned value per class and role, the sum
//! of the two: what the point makes for the mover, and what it takes from the other
//! side.

use super::Gomoku;
use super::candidates::candidates;
use super::eval::point_value;
use super::pattern::{PointClass, Threat};
use crate::game::roles::Evaluate;
use crate::game::{Game, Move};

/// The policy's weights, by the offsets of `Choice::points`.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyTables {
    pub weights: Vec<f64>,
}

impl PolicyTables {
    /// The hand-set move order (`Gomoku::point_key` before the policy), as a policy in
    /// its own units.
    pub fn hand_set() -> PolicyTables {
        let value = |class: usize| {
            let patterns = PointClass(class as u16).patterns();
            point_value(patterns, Threat::from_patterns(patterns)) as f64
        };
        let mut weights = vec![0.0; WEIGHTS];
        for class in 0..PointClass::COUNT {
            weights[MOVER_AT + class] = 1.5 * value(class);
            weights[OTHER_AT + class] = value(class);
        }
        PolicyTables { weights }
    }
}

/// The policy's features, as offsets into one weight vector: the mover's class, the
/// other side's class, the pair of threats (mover's, other's), the distance to each of
/// the last `RECENT` moves (Chebyshev, capped at `FAR`, and whether on a line with it).
pub const RECENT: usize = 3;
pub const FEATURES: usize = 5 + RECENT;
pub const FAR: usize = 5;
const DISTANCES: usize = 2 * (FAR + 1);
const MOVER_AT: usize = 0;
const OTHER_AT: usize = PointClass::COUNT;
const THREATS_AT: usize = 2 * PointClass::COUNT;
const MINE_BY_THEIRS_AT: usize = THREATS_AT + 81;
const THEIRS_BY_MINE_AT: usize = MINE_BY_THEIRS_AT + 9 * PointClass::COUNT;
const RECENT_AT: usize = THEIRS_BY_MINE_AT + 9 * PointClass::COUNT;
/// Length of the weight vector.
pub const WEIGHTS: usize = RECENT_AT + RECENT * DISTANCES;

/// A position's candidate points, by their features, and which of them the teacher
/// chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Per candidate, its `FEATURES` offsets into the weights.
    pub points: Vec<[u16; FEATURES]>,
    pub best: usize,
}

impl Gomoku {
    /// The policy's features of a stone of the side to move on the empty `field`.
    pub fn policy_features(
        &self,
        field: usize,
        recent: &[Option<Move>; RECENT],
    ) -> [u16; FEATURES] {
        let me = self.side_to_move();
        let size = self.size();
        let distance = |other: Option<Move>| match other {
            Some(b) => {
                let b = b.square();
                let rows = (field / size).abs_diff(b / size);
                let cols = (field % size).abs_diff(b % size);
                let line = rows == 0 || cols == 0 || rows == cols;
                rows.max(cols).min(FAR) + line as usize * (FAR + 1)
            }
            None => FAR,
        };
        let [mine, theirs] = [me, me.opponent()].map(|side| self.class(side, field).0 as usize);
        let [my_threat, their_threat] =
            [me, me.opponent()].map(|side| self.threat(side, field) as usize);
        let mut features = [0; FEATURES];
        features[0] = (MOVER_AT + mine) as u16;
        features[1] = (OTHER_AT + theirs) as u16;
        features[2] = (THREATS_AT + my_threat * 9 + their_threat) as u16;
        features[3] = (MINE_BY_THEIRS_AT + mine * 9 + their_threat) as u16;
        features[4] = (THEIRS_BY_MINE_AT + theirs * 9 + my_threat) as u16;
        for (i, &mv) in recent.iter().enumerate() {
            features[5 + i] = (RECENT_AT + i * DISTANCES + distance(mv)) as u16;
        }
        features
    }

    /// The candidates of a position whose moves are not forced, with `best`'s index
    /// among them; `None` when a threat forces the reply or `best` is not a candidate.
    pub fn policy_choice(&self, best: Move) -> Option<Choice> {
        if !self.has_patterns() || self.must_answer() || self.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        candidates(self, &mut moves);
        // Forced lists (a five, an open four) are short and ordered by rule.
        if moves.len() < 2 || self.threat_count(self.side_to_move(), Threat::Five) > 0 {
            return None;
        }
        let best = moves.iter().position(|&mv| mv == best)?;
        let recent = self.recent_moves::<RECENT>();
        let points = (moves.iter())
            .map(|&mv| self.policy_features(mv.square(), &recent))
            .collect();
        Some(Choice { points, best })
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::gomoku::{Config, Opening};

    /// Random games: the recent moves follow makes and unmakes, the choices list legal
    /// candidates with the teacher's move among them, and the hand-set policy ranks
    /// them as the search's move order does.
    #[test]
    fn choices_follow_the_game_and_the_hand_set_policy_is_the_move_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(53);
        let hand_set = PolicyTables::hand_set();
        for config in [
            Config::gomoku(15, false, Opening::Free),
            Config::gomoku(20, true, Opening::Free),
        ] {
            let mut game = Gomoku::new(config).unwrap();
            assert_eq!(game.recent_moves::<2>(), [None, None]);
            let mut played = Vec::new();
            let mut moves = Vec::new();
            let mut choices = 0;
            while game.outcome().is_none() && played.len() < 60 {
                candidates(&game, &mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                if let Some(choice) = game.policy_choice(mv) {
                    choices += 1;
                    assert_eq!(choice.points.len(), moves.len());
                    assert_eq!(moves[choice.best], mv);
                    for (features, &candidate) in choice.points.iter().zip(&moves) {
                        assert!(game.is_legal(candidate));
                        assert!(features.iter().all(|&f| (f as usize) < WEIGHTS));
                        let logit: f64 =
                            features.iter().map(|&f| hand_set.weights[f as usize]).sum();
                        let key = game.point_key(candidate) as f64;
                        assert!((logit - key).abs() <= 1.0, "{logit} against {key}");
                    }
                }
                let undo = game.make(mv);
                played.push(mv);
                let n = played.len();
                let want = [Some(played[n - 1]), n.checked_sub(2).map(|i| played[i])];
                assert_eq!(game.recent_moves::<2>(), want);
                if n % 7 == 0 {
                    game.unmake(mv, undo);
                    played.pop();
                    let n = played.len();
                    assert_eq!(
                        game.recent_moves::<1>(),
                        [n.checked_sub(1).map(|i| played[i])]
                    );
                    game.make(mv);
                    played.push(mv);
                }
            }
            assert!(choices > 10, "{choices} choices");
        }
    }

    /// A forced reply is no choice.
    #[test]
    fn forced_replies_are_left_out() {
        let mut game = Gomoku::new(Config::gomoku(15, false, Opening::Free)).unwrap();
        for name in ["h8", "a1", "h9", "a2", "h10", "a3", "h11"] {
            game.make(game.parse_move(name).unwrap());
        }
        // White must block the four.
        assert!(
            game.policy_choice(game.parse_move("h12").unwrap())
                .is_none()
        );
        assert!(game.policy_choice(game.parse_move("b5").unwrap()).is_none());
    }
}
