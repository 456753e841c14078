//! `arbor analysis`: a batch analysis engine in the style of KataGo's. One JSON query per
//! line on stdin (a game, a start position, moves, which turns to analyse, how many lines,
//! limits), one JSON answer per analysed turn on stdout, with optional progress answers
//! during the search. A bad query gets an error line and the next one goes on; at the end
//! of input the queries read are finished, then the process exits.

use std::collections::BTreeSet;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounds;
use crate::engine::events::Event;
use crate::engine::input::{InputLine, read_line_capped};
use crate::engine::{AnalysisOptions, Engine, Finished, Settings};
use crate::game::Side;
use crate::game::variant::Variant;
use crate::protocol::json::ReportJson;
use crate::search::report::Report;

/// Longest query line, bytes.
const MAX_QUERY_BYTES: usize = 1 << 20;
/// The limit of a query that names none.
pub const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// A query, as documented in protocol.md ("arbor analysis").
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Query {
    id: Value,
    #[serde(default = "default_game")]
    game: String,
    /// The game's options (`size`, `rule`, `opening`, `k`), strings or numbers.
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    /// A start position other than the game's: `{"cells": "...", "side": "black"}`.
    #[serde(default)]
    setup: Option<Setup>,
    #[serde(default)]
    moves: Vec<String>,
    /// Positions to analyse: after that many of `moves`; default the last.
    #[serde(default)]
    turns: Option<Vec<usize>>,
    /// How many lines get exact scores: a number or `"all"`; default 1.
    #[serde(default)]
    multipv: Option<Value>,
    #[serde(default)]
    time_ms: Option<u64>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    nodes: Option<u64>,
    /// Progress answers (`"final": false`) this often during each turn's search.
    #[serde(default)]
    report_every_ms: Option<u64>,
}

fn default_game() -> String {
    "othello".to_string()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Setup {
    cells: String,
    side: String,
}

/// One answer: a turn's analysis (progress or final), or an error.
#[derive(Serialize)]
struct Answer {
    id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn: Option<usize>,
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    is_final: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'static str>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    report: Option<ReportJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Answer {
    fn error(id: Value, turn: Option<usize>, error: String) -> Answer {
        Answer {
            id,
            turn,
            is_final: None,
            side: None,
            report: None,
            error: Some(error),
        }
    }
}

/// Totals over the stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AnalysisTotals {
    pub answered: usize,
    pub errors: usize,
}

struct Batch<'a> {
    engine: Engine,
    events: std::sync::mpsc::Receiver<Event>,
    out: &'a mut dyn Write,
    totals: AnalysisTotals,
}

/// Answers every query of `input` on `out`, with tables of `megabytes` MiB and `threads`
/// search threads.
pub fn run(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    megabytes: usize,
    threads: usize,
) -> Result<AnalysisTotals, String> {
    let settings = Settings {
        hash_mb: megabytes,
        threads,
        ..Settings::default()
    };
    let (engine, events) = Engine::new(&settings)?;
    let mut batch = Batch {
        engine,
        events,
        out,
        totals: AnalysisTotals::default(),
    };
    let mut buffer = Vec::new();
    while let Some(line) = read_line_capped(input, &mut buffer, MAX_QUERY_BYTES)
        .map_err(|e| format!("reading queries: {e}"))?
    {
        match line {
            InputLine::Text(text) if text.trim().is_empty() => {}
            InputLine::Text(text) => batch.query(&text)?,
            InputLine::TooLong(bytes) => batch.write(&Answer::error(
                Value::Null,
                None,
                format!("query too long ({bytes} bytes; the limit is {MAX_QUERY_BYTES})"),
            ))?,
            InputLine::NotUtf8 => batch.write(&Answer::error(
                Value::Null,
                None,
                "query is not valid UTF-8 text".to_string(),
            ))?,
        }
    }
    Ok(batch.totals)
}

impl Batch<'_> {
    fn write(&mut self, answer: &Answer) -> Result<(), String> {
        write_answer(&mut *self.out, &mut self.totals, answer)
    }

    /// Answers one query line; only a failure to write ends the stream.
    fn query(&mut self, text: &str) -> Result<(), String> {
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(e) => {
                return self.write(&Answer::error(Value::Null, None, format!("bad JSON: {e}")));
            }
        };
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        let query: Query = match serde_json::from_value(value) {
            Ok(query) => query,
            Err(e) => return self.write(&Answer::error(id, None, format!("bad query: {e}"))),
        };
        match self.prepare(&query) {
            Ok((options, turns)) => self.analyse_turns(&query, &options, &turns),
            Err(error) => self.write(&Answer::error(id, None, error)),
        }
    }

    /// Checks the query, sets up its start position and checks its moves; returns the
    /// analysis options and the turns in order.
    fn prepare(&mut self, query: &Query) -> Result<(AnalysisOptions, Vec<usize>), String> {
        let options: Vec<(String, String)> = query
            .options
            .iter()
            .map(|(key, value)| match value {
                Value::String(text) => Ok((key.clone(), text.clone())),
                Value::Number(number) => Ok((key.clone(), number.to_string())),
                _ => Err(format!("option {key}: expected a string or a number")),
            })
            .collect::<Result<_, _>>()?;
        let variant = Variant::parse(
            &query.game,
            options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        )
        .map_err(|e| e.to_string())?;
        let lines = match &query.multipv {
            None => Some(1),
            Some(Value::String(text)) => {
                bounds::lines(text).map_err(|e| format!("multipv: {e}"))?
            }
            Some(Value::Number(number)) => {
                bounds::lines(&number.to_string()).map_err(|e| format!("multipv: {e}"))?
            }
            Some(_) => return Err("multipv: expected a number or \"all\"".to_string()),
        }
        .map(|lines| lines.max(1));
        let time = match query.time_ms {
            Some(ms) => Some(bounds::millis(&ms.to_string()).map_err(|e| format!("time_ms: {e}"))?),
            None if query.depth.is_none() && query.nodes.is_none() => Some(DEFAULT_TIME),
            None => None,
        };
        let interval = query
            .report_every_ms
            .map(|ms| {
                bounds::interval(&ms.to_string()).map_err(|e| format!("report_every_ms: {e}"))
            })
            .transpose()?;
        let analysis = AnalysisOptions {
            lines,
            moves: Vec::new(),
            time,
            depth: query.depth.map(|depth| depth.max(1)),
            nodes: query.nodes,
            interval,
        };
        let turns: BTreeSet<usize> = match &query.turns {
            Some(turns) if turns.is_empty() => {
                return Err(
                    "turns: empty: list the turns to analyse, or leave turns out for the position after the last move"
                        .to_string(),
                );
            }
            Some(turns) => turns.iter().copied().collect(),
            None => BTreeSet::from([query.moves.len()]),
        };
        if let Some(&last) = turns.last()
            && last > query.moves.len()
        {
            return Err(format!(
                "turn {last} is beyond the {} moves given",
                query.moves.len()
            ));
        }
        self.start_position(variant, query.setup.as_ref())?;
        for (index, mv) in query.moves.iter().enumerate() {
            if let Err(e) = play_filling_pass(&mut self.engine, mv) {
                return Err(format!("move {} ({mv}): {e}", index + 1));
            }
        }
        self.start_position(variant, query.setup.as_ref())?;
        Ok((analysis, turns.into_iter().collect()))
    }

    fn start_position(&mut self, variant: Variant, setup: Option<&Setup>) -> Result<(), String> {
        self.engine.new_game(Some(variant))?;
        if let Some(setup) = setup {
            let side = Side::parse(&setup.side).ok_or_else(|| {
                format!("setup side: expected black or white, got {}", setup.side)
            })?;
            // Rows may be separated by spaces, as `setboard` takes them.
            let cells: String = setup.cells.split_whitespace().collect();
            self.engine.set_board(&cells, side)?;
        }
        Ok(())
    }

    fn analyse_turns(
        &mut self,
        query: &Query,
        options: &AnalysisOptions,
        turns: &[usize],
    ) -> Result<(), String> {
        let mut played = 0;
        for &turn in turns {
            while played < turn {
                play_filling_pass(&mut self.engine, &query.moves[played])
                    .expect("the moves were checked");
                played += 1;
            }
            let side = self.engine.side_to_move().name();
            if let Err(error) = self.engine.analyze(options, Instant::now()) {
                self.write(&Answer::error(
                    query.id.clone(),
                    Some(turn),
                    error.for_command("analyze"),
                ))?;
                continue;
            }
            let interval = options.interval.is_some();
            let Batch {
                engine,
                events,
                out,
                totals,
            } = self;
            let mut failed_write = None;
            let finished = engine.wait(events, &mut |engine, report| {
                if !interval || failed_write.is_some() {
                    return;
                }
                let answer = Answer {
                    id: query.id.clone(),
                    turn: Some(turn),
                    is_final: Some(false),
                    side: Some(side),
                    report: Some(ReportJson::new(&report, |line| engine.line_names(line))),
                    error: None,
                };
                if let Err(e) = write_answer(&mut **out, totals, &answer) {
                    failed_write = Some(e);
                    engine.stop();
                }
            });
            if let Some(error) = failed_write {
                return Err(error);
            }
            let json = |engine: &Engine, report: &Report| {
                ReportJson::new(report, |line| engine.line_names(line))
            };
            let answer = match finished {
                Some(Finished::Analyzed { report }) => Answer {
                    id: query.id.clone(),
                    turn: Some(turn),
                    is_final: Some(true),
                    side: Some(side),
                    report: Some(json(&self.engine, &report)),
                    error: None,
                },
                Some(Finished::Failed { message, .. }) => {
                    Answer::error(query.id.clone(), Some(turn), message)
                }
                other => Answer::error(
                    query.id.clone(),
                    Some(turn),
                    format!("internal error: the analysis ended as {other:?}"),
                ),
            };
            self.write(&answer)?;
        }
        Ok(())
    }
}

/// Plays `name`, first a pass the record left out.
fn play_filling_pass(engine: &mut Engine, name: &str) -> Result<(), String> {
    engine.fill_left_out_pass(None, engine.parse_move(name).ok())?;
    engine.play(name)?;
    Ok(())
}

fn write_answer(
    out: &mut dyn Write,
    totals: &mut AnalysisTotals,
    answer: &Answer,
) -> Result<(), String> {
    if answer.error.is_some() {
        totals.errors += 1;
    } else if answer.is_final == Some(true) {
        totals.answered += 1;
    }
    let line = serde_json::to_string(answer).expect("answers always serialize");
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing answers: {e}"))
}
