//! Multi-ProbCut for 8x8 Othello (Buro's selective search, as Logistello, Edax and
//! Egaroucid use it): a search to `depth` is predicted by one to `shallow_depth(depth)`,
//! whose error was measured by `arbor probcut` (see docs/othello-evaluation.md) per rule,
//! phase and depth: on tournament positions under the normal rule, on self-play positions
//! under misère.

use super::Rule;
use crate::game::roles::{ProbCut, Score};

/// Below this depth a node is searched in full.
pub const MIN_DEPTH: u32 = 3;
/// The deepest depth measured; deeper searches use its error.
pub const MAX_FITTED_DEPTH: u32 = 12;
/// Phases by empty squares: `PHASE_MIN_EMPTIES[i]` and up is phase `i` (the last
/// phase starts at 0).
pub const PHASE_MIN_EMPTIES: [u32; PHASES] = [43, 33, 23, 0];
pub const PHASES: usize = 4;
/// How many standard errors beyond the window a shallow result must lie, in hundredths:
/// 1.1 against 1.5 scored 209-17-174 over 400 self-play games at 5 s + 0.05 s (54.4%,
/// docs/othello-evaluation.md).
const CONFIDENCE_NORMAL: Score = 110;
/// Misère keeps 1.5 (1.1 not measured under it).
const CONFIDENCE_MISERE: Score = 150;
/// With at most this many empties the solver is near: no cut.
const MIN_EMPTIES: u32 = 12;

/// The predicting search's depth: about half of `depth`, of the same parity (Othello's
/// evaluation swings between odd and even depths).
pub fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if (depth - half).is_multiple_of(2) {
        half
    } else {
        half - 1
    }
    .max(1)
}

pub fn phase(empties: u32) -> usize {
    PHASE_MIN_EMPTIES
        .iter()
        .position(|&min| empties >= min)
        .unwrap_or(PHASES - 1)
}

/// The cut for a null-window search to `depth` under `rule` with `empties` empty squares.
pub fn probcut(rule: Rule, empties: u32, depth: u32) -> Option<ProbCut> {
    if depth < MIN_DEPTH || empties <= MIN_EMPTIES {
        return None;
    }
    let row = (depth.min(MAX_FITTED_DEPTH) - MIN_DEPTH) as usize;
    let (table, confidence) = match rule {
        Rule::Normal => (&SIGMA_NORMAL, CONFIDENCE_NORMAL),
        Rule::Misere => (&SIGMA_MISERE, CONFIDENCE_MISERE),
    };
    let sigma = table[phase(empties)][row];
    Some(ProbCut {
        shallow: shallow_depth(depth),
        margin: sigma * confidence / 100,
    })
}

type SigmaTable = [[Score; (MAX_FITTED_DEPTH - MIN_DEPTH + 1) as usize]; PHASES];

/// The standard error (centi-discs) of the shallow search's result as a prediction of
/// the deep one, `[phase][depth - MIN_DEPTH]`, printed by `arbor probcut`.
// arbor probcut --wthor ../shared/data/othello/games/wthor --positions 1000 --depth 12:
// 993 positions of 137,135 games (57 minutes on a shared core).
#[rustfmt::skip]
const SIGMA_NORMAL: SigmaTable = [
    [296, 277, 355, 334, 272, 267, 296, 295, 244, 234],
    [391, 317, 447, 356, 316, 280, 352, 303, 313, 268],
    [384, 323, 458, 426, 406, 391, 433, 402, 389, 330],
    [430, 425, 528, 516, 503, 487, 574, 563, 562, 556],
];

// arbor probcut --rule misere --selfplay 2000 --positions 400 --depth 12 --seed 1: 359
// positions of 2000 self-play games (11 minutes on a shared core).
#[rustfmt::skip]
const SIGMA_MISERE: SigmaTable = [
    [110, 93, 130, 112, 96, 92, 111, 104, 88, 79],
    [119, 110, 148, 140, 129, 113, 144, 140, 118, 108],
    [177, 144, 189, 197, 182, 155, 195, 152, 138, 129],
    [218, 218, 271, 258, 216, 196, 256, 219, 198, 183],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_search_keeps_the_parity_and_is_about_half() {
        let shallow: Vec<u32> = (3..=14).map(shallow_depth).collect();
        assert_eq!(shallow, [1, 2, 1, 2, 3, 4, 3, 4, 5, 6, 5, 6]);
        assert!((3..=40).all(|d| shallow_depth(d) % 2 == d % 2 && shallow_depth(d) < d));
    }

    #[test]
    fn phases_cover_every_empty_count() {
        assert_eq!(
            [
                phase(60),
                phase(43),
                phase(42),
                phase(23),
                phase(22),
                phase(0)
            ],
            [0, 0, 1, 2, 3, 3]
        );
    }
}
