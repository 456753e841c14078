//! Typed search reports: what the search says while it thinks. Front ends format them
//! (native `info` lines, Gomocup `MESSAGE` lines, the terminal); nothing parses text back.

use std::time::Duration;

use super::tt::Bound;
use crate::game::Move;
use crate::game::roles::{ProofKind, ScoreValue};

/// One analysed line: its score, whether that score is exact or a bound, and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: ScoreValue,
    pub bound: Bound,
    /// From the root position; may be empty when nothing is known beyond the score.
    pub pv: Vec<Move>,
    /// How a solver proved the score; `None` for a depth-limited search's.
    pub proof: Option<ProofKind>,
    /// The depth this line's score was searched at (a solved line: the plies solved); in
    /// a multi-line report it may be below the report's own depth.
    pub depth: u32,
}

/// A finished iteration, a solve's result or a proven bound. `lines` holds the best line
/// first; multi-line analysis fills the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The iteration's depth, or for a solve the plies solved (Othello: empties).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether a solver proved the scores (rather than a depth-limited search).
    pub exact: bool,
    pub lines: Vec<Line>,
}

impl Report {
    /// Nodes per second, 0 before any time has passed.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The native spelling of a score: `+2.07` (Othello evaluation), `+4` (exact margin or
/// points), `win 7`, `loss 4`, `draw`.
pub fn score_text(score: ScoreValue) -> String {
    match score {
        ScoreValue::Eval { value, per_unit } if per_unit > 1 => {
            format!("{:+.2}", value as f64 / per_unit as f64)
        }
        ScoreValue::Eval { value, .. } | ScoreValue::Margin(value) => format!("{value:+}"),
        ScoreValue::Win(plies) => format!("win {plies}"),
        ScoreValue::Loss(plies) => format!("loss {plies}"),
        ScoreValue::Draw => "draw".to_string(),
    }
}

/// `lower` or `upper` for a bound, nothing for an exact score.
pub fn bound_text(bound: Bound) -> Option<&'static str> {
    match bound {
        Bound::Exact => None,
        Bound::Lower => Some("lower"),
        Bound::Upper => Some("upper"),
    }
}

/// The words of a report after its front end's prefix: `depth D [exact] score S
/// [bound lower|upper] nodes N nps X time MS pv m1 m2 ...`, moves named by `name`; one
/// string per line of the report (the lines after the first carry `multipv K`).
pub fn report_fields(report: &Report, mut name: impl FnMut(&[Move]) -> Vec<String>) -> Vec<String> {
    report
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let mut text = format!("depth {}", report.depth);
            if report.exact {
                text.push_str(" exact");
            }
            if index > 0 {
                text.push_str(&format!(" multipv {}", index + 1));
            }
            text.push_str(&format!(" score {}", score_text(line.score)));
            if let Some(bound) = bound_text(line.bound) {
                text.push_str(&format!(" bound {bound}"));
            }
            text.push_str(&format!(
                " nodes {} nps {} time {} pv",
                report.nodes,
                report.nps(),
                report.elapsed.as_millis()
            ));
            for mv in name(&line.pv) {
                text.push(' ');
                text.push_str(&mv);
            }
            text
        })
        .collect()
}

/// An analysis report in native words: a root line `analysis depth D nodes N nps X
/// time MS lines K`, then per line `line R move M kind K score S bound B [proof P] pv
/// m1 m2 ...` (`kind` eval, margin, win, loss or draw; `score` a number: the evaluation
/// in the game's unit, the margin, the plies to the win or loss, 0 for a draw; `proof`
/// how a solver proved it: solve, vcf or vct).
pub fn analysis_fields(
    report: &Report,
    mut name: impl FnMut(&[Move]) -> Vec<String>,
) -> Vec<String> {
    let mut fields = vec![format!(
        "analysis depth {} nodes {} nps {} time {} lines {}",
        report.depth,
        report.nodes,
        report.nps(),
        report.elapsed.as_millis(),
        report.lines.len()
    )];
    for (index, line) in report.lines.iter().enumerate() {
        let pv = name(&line.pv);
        let (kind, score) = match line.score {
            ScoreValue::Eval { .. } => ("eval", score_text(line.score)),
            ScoreValue::Margin(value) => ("margin", format!("{value:+}")),
            ScoreValue::Win(plies) => ("win", plies.to_string()),
            ScoreValue::Loss(plies) => ("loss", plies.to_string()),
            ScoreValue::Draw => ("draw", "0".to_string()),
        };
        let proof = line
            .proof
            .map_or(String::new(), |proof| format!(" proof {}", proof.name()));
        fields.push(format!(
            "line {} move {} kind {kind} score {score} bound {}{proof} pv {}",
            index + 1,
            pv.first().map_or("pass", String::as_str),
            bound_text(line.bound).unwrap_or("exact"),
            pv.join(" ")
        ));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_fields() {
        let eval = ScoreValue::Eval {
            value: 207,
            per_unit: 100,
        };
        assert_eq!(score_text(eval), "+2.07");
        assert_eq!(
            score_text(ScoreValue::Eval {
                value: -35,
                per_unit: 1
            }),
            "-35"
        );
        assert_eq!(score_text(ScoreValue::Margin(0)), "+0");
        assert_eq!(score_text(ScoreValue::Win(7)), "win 7");
        assert_eq!(score_text(ScoreValue::Loss(4)), "loss 4");
        assert_eq!(score_text(ScoreValue::Draw), "draw");
        let report = Report {
            depth: 3,
            nodes: 52,
            elapsed: Duration::from_millis(2),
            exact: false,
            lines: vec![Line {
                score: eval,
                bound: Bound::Lower,
                pv: vec![Move::new(1), Move::new(2)],
                proof: None,
                depth: 3,
            }],
        };
        let fields = report_fields(&report, |pv| {
            pv.iter().map(|mv| format!("m{}", mv.square())).collect()
        });
        assert_eq!(
            fields,
            ["depth 3 score +2.07 bound lower nodes 52 nps 26000 time 2 pv m1 m2"]
        );
    }
}
