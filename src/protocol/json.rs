//! JSON lines: the native protocol's replies and reports as one JSON object per line
//! (`set format json`), and the pieces the batch analysis engine shares. These types
//! are the schema protocol.md documents; its examples are checked against them.

use serde::{Deserialize, Serialize};

use crate::game::Move;
use crate::game::roles::ScoreValue;
use crate::search::report::{Report, bound_text, score_text};
use crate::search::tt::Bound;

/// One line of output in JSON mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Message {
    /// A command's reply: `text` when it succeeded, `error` when it did not.
    Reply {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        ok: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// A report of `go` or `solve` (the best line).
    Info(ReportJson),
    /// A report of `analyze` or `hint` (the best lines, best first).
    Analysis(ReportJson),
}

impl Message {
    pub fn reply(id: Option<u64>, result: Result<String, String>) -> Message {
        match result {
            Ok(text) => Message::Reply {
                id,
                ok: true,
                text: Some(text),
                error: None,
            },
            Err(error) => Message::Reply {
                id,
                ok: false,
                text: None,
                error: Some(error),
            },
        }
    }

    /// The object on one line.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("messages always serialize")
    }
}

/// A search report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportJson {
    pub depth: u32,
    /// Whether a solver proved every line.
    pub exact: bool,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub lines: Vec<LineJson>,
}

impl ReportJson {
    /// `name` names a line of moves from the analysed position.
    pub fn new(report: &Report, mut name: impl FnMut(&[Move]) -> Vec<String>) -> ReportJson {
        ReportJson {
            depth: report.depth,
            exact: report.exact,
            nodes: report.nodes,
            nps: report.nps(),
            time_ms: report.elapsed.as_millis() as u64,
            lines: report
                .lines
                .iter()
                .enumerate()
                .map(|(index, line)| {
                    let pv = name(&line.pv);
                    LineJson {
                        rank: index + 1,
                        r#move: pv.first().cloned().unwrap_or_else(|| "pass".to_string()),
                        score: ScoreJson::from(line.score),
                        score_text: score_text(line.score),
                        bound: bound_text(line.bound).unwrap_or("exact").to_string(),
                        exact: line.proof.is_some(),
                        proof: line.proof.map(|proof| proof.name().to_string()),
                        pv,
                    }
                })
                .collect(),
        }
    }
}

/// One candidate move and its line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineJson {
    /// 1 for the best.
    pub rank: usize,
    pub r#move: String,
    pub score: ScoreJson,
    /// The native spelling: `+0.41`, `+4`, `win 7`, `loss 4`, `draw`.
    pub score_text: String,
    /// `exact`, `lower` or `upper`.
    pub bound: String,
    /// Whether a solver proved the score.
    pub exact: bool,
    /// How: `solve` (an exact solve), `vcf` or `vct` (a forced win by threats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    pub pv: Vec<String>,
}

/// A score by kind: an evaluation (in the game's unit, Othello discs), an exact margin,
/// a win or loss in so many plies, a draw.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScoreJson {
    Eval { value: f64 },
    Margin { value: i32 },
    Win { plies: u32 },
    Loss { plies: u32 },
    Draw,
}

impl From<ScoreValue> for ScoreJson {
    fn from(score: ScoreValue) -> ScoreJson {
        match score {
            ScoreValue::Eval { value, per_unit } => ScoreJson::Eval {
                value: value as f64 / per_unit.max(1) as f64,
            },
            ScoreValue::Margin(value) => ScoreJson::Margin { value },
            ScoreValue::Win(plies) => ScoreJson::Win { plies },
            ScoreValue::Loss(plies) => ScoreJson::Loss { plies },
            ScoreValue::Draw => ScoreJson::Draw,
        }
    }
}

/// `exact`, `lower` or `upper`.
pub fn bound_name(bound: Bound) -> &'static str {
    bound_text(bound).unwrap_or("exact")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::roles::ProofKind;
    use crate::search::report::Line;
    use std::time::Duration;

    #[test]
    fn messages_round_trip() {
        let report = Report {
            depth: 4,
            nodes: 1000,
            elapsed: Duration::from_millis(10),
            exact: false,
            lines: vec![
                Line {
                    score: ScoreValue::Eval {
                        value: 41,
                        per_unit: 100,
                    },
                    bound: Bound::Exact,
                    pv: vec![Move::new(19), Move::new(18)],
                    proof: None,
                    depth: 4,
                },
                Line {
                    score: ScoreValue::Win(3),
                    bound: Bound::Upper,
                    pv: vec![Move::new(26)],
                    proof: Some(ProofKind::Vct),
                    depth: 4,
                },
            ],
        };
        let json = ReportJson::new(&report, |pv| {
            pv.iter().map(|m| format!("m{}", m.square())).collect()
        });
        let line = Message::Analysis(json.clone()).to_line();
        assert_eq!(
            line,
            r#"{"type":"analysis","depth":4,"exact":false,"nodes":1000,"nps":100000,"time_ms":10,"lines":[{"rank":1,"move":"m19","score":{"kind":"eval","value":0.41},"score_text":"+0.41","bound":"exact","exact":false,"pv":["m19","m18"]},{"rank":2,"move":"m26","score":{"kind":"win","plies":3},"score_text":"win 3","bound":"upper","exact":true,"proof":"vct","pv":["m26"]}]}"#
        );
        assert_eq!(
            serde_json::from_str::<Message>(&line).unwrap(),
            Message::Analysis(json)
        );
        assert_eq!(
            Message::reply(Some(3), Err("no".into())).to_line(),
            r#"{"type":"reply","id":3,"ok":false,"error":"no"}"#
        );
        assert_eq!(
            Message::reply(None, Ok(String::new())).to_line(),
            r#"{"type":"reply","ok":true,"text":""}"#
        );
    }
}
