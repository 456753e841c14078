//! `arbor review FILE`: a game record in (GGF, an `arbor match` text record, or a move
//! list), every move's score against the best move's out, the mistakes marked, and an
//! SVG graph of the evaluation over the game.
//!
//! Each position is analysed twice at most: once for the best move, and, when another
//! move was played, once more for the best and the played move together (two lines of
//! one search, with the same limits), whose two scores give the loss; the played move
//! is best when that search ranks it first. In solve range both are exact. Passes are
//! played, not reviewed.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::engine::events::Event;
use crate::engine::{AnalysisOptions, Engine, EngineError, Finished, Settings};
use crate::game::roles::ScoreValue;
use crate::game::variant::Variant;
use crate::game::{Move, Side};
use crate::protocol::record::{Record, check_moves, read_record};
use crate::search::report::{Report, score_text};

/// One move of the game and what the analysis thinks of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1 for the first move of the record.
    pub ply: usize,
    pub side: Side,
    pub played: String,
    pub played_score: ScoreValue,
    pub best: String,
    pub best_score: ScoreValue,
    /// How much the played move gives away, in the game's unit (Othello: discs), 0 for
    /// the best move.
    pub loss: f64,
    /// The only legal move.
    pub forced: bool,
}

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl MoveReview {
    pub fn verdict(&self, scale: f64) -> Verdict {
        let turned = |best: ScoreValue, played: ScoreValue| {
            let rank = |score: ScoreValue| match score {
                ScoreValue::Win(_) => 2,
                ScoreValue::Loss(_) => 0,
                _ => 1,
            };
            rank(played) < rank(best)
        };
        if turned(self.best_score, self.played_score) || self.loss >= scale * 0.2 {
            Verdict::Blunder
        } else if self.loss >= scale * 0.08 {
            Verdict::Mistake
        } else if self.loss >= scale * 0.03 {
            Verdict::Inaccuracy
        } else {
            Verdict::Good
        }
    }
}

/// How far the graph's scale goes: the whole board's discs in Othello, a fixed span for
/// the evaluations of the five-in-a-row games (wins and losses sit at its ends).
pub fn scale(variant: Variant) -> f64 {
    match variant {
        Variant::Othello { size, .. } => (size * size) as f64,
        Variant::KInRow(_) => 1000.0,
    }
}

/// A score as a number in the game's unit, wins and losses at `±scale`.
pub fn numeric(score: ScoreValue, scale: f64) -> f64 {
    match score {
        ScoreValue::Eval { value, per_unit } => {
            (value as f64 / per_unit.max(1) as f64).clamp(-scale, scale)
        }
        ScoreValue::Margin(value) => value as f64,
        ScoreValue::Win(_) => scale,
        ScoreValue::Loss(_) => -scale,
        ScoreValue::Draw => 0.0,
    }
}

/// Analyses every move of `record` with `limits` per analysis; `progress` hears of each
/// move reviewed.
pub fn review(
    record: &Record,
    limits: &AnalysisOptions,
    hash_mb: usize,
    threads: usize,
    progress: &mut dyn FnMut(&MoveReview),
) -> Result<Vec<MoveReview>, String> {
    check_moves(record)?;
    let settings = Settings {
        variant: record.variant,
        hash_mb,
        threads,
        ..Settings::default()
    };
    let (mut engine, events) = Engine::new(&settings)?;
    if let Some((cells, side)) = &record.setup {
        engine.set_board(cells, *side)?;
    }
    let mut reviews = Vec::with_capacity(record.moves.len());
    for (index, name) in record.moves.iter().enumerate() {
        engine.fill_left_out_pass(None, engine.parse_move(name).ok())?;
        if engine.outcome().is_some() {
            return Err(format!(
                "move {} ({name}): the game is already over",
                index + 1
            ));
        }
        let played = engine
            .parse_move(name)
            .and_then(|mv| {
                if engine.legal_moves().contains(&mv) {
                    Ok(mv)
                } else {
                    Err(EngineError::IllegalMove(format!(
                        "illegal move {name} for {}",
                        engine.side_to_move()
                    )))
                }
            })
            .map_err(|e| format!("move {}: {e}", index + 1))?;
        if played.is_pass() {
            // A pass (GGF records write them) is no decision: nothing to review.
            engine.play_move(played)?;
            continue;
        }
        let side = engine.side_to_move();
        let forced = engine.legal_moves().len() == 1;
        let best_report = analyse(&mut engine, &events, limits)?;
        let best_line = best_report
            .lines
            .first()
            .ok_or("an analysis without lines")?;
        let (mut best_move, mut best_score) = (best_line.pv[0], best_line.score);
        let mut played_score = best_score;
        if best_move != played {
            // The played move against the best one in one search, to the same depth, so
            // that their scores compare (alone, it could reach another depth).
            let both = AnalysisOptions {
                lines: Some(2),
                moves: vec![engine.move_name(best_move), engine.move_name(played)],
                ..limits.clone()
            };
            let report = analyse(&mut engine, &events, &both)?;
            let score_of = |mv: Move| {
                report
                    .lines
                    .iter()
                    .find(|line| line.pv.first() == Some(&mv))
                    .map(|line| line.score)
            };
            let first = report.lines.first().ok_or("an analysis without lines")?;
            played_score = score_of(played).ok_or("the played move was not analysed")?;
            // A played move that ties the best one is the best one.
            best_move = if played_score == first.score {
                played
            } else {
                first.pv[0]
            };
            best_score = first.score;
        }
        let scale = scale(record.variant);
        let loss = if best_move == played {
            0.0
        } else {
            (numeric(best_score, scale) - numeric(played_score, scale)).max(0.0)
        };
        let review = MoveReview {
            ply: index + 1,
            side,
            played: engine.move_name(played),
            played_score,
            best: engine.move_name(best_move),
            best_score,
            loss,
            forced,
        };
        progress(&review);
        reviews.push(review);
        engine.play_move(played)?;
    }
    Ok(reviews)
}

fn analyse(
    engine: &mut Engine,
    events: &std::sync::mpsc::Receiver<Event>,
    limits: &AnalysisOptions,
) -> Result<Report, String> {
    engine.analyze(limits, Instant::now())?;
    match engine.wait(events, &mut |_, _| {}) {
        Some(Finished::Analyzed { report }) => Ok(report),
        Some(Finished::Failed { message, .. }) => Err(message),
        other => Err(format!("internal error: the analysis ended as {other:?}")),
    }
}

/// The per-move table and the mistakes, as text.
pub fn table(reviews: &[MoveReview], variant: Variant) -> String {
    let scale = scale(variant);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:>4}  {:<5}  {:<6} {:>9}  {:<6} {:>9}  {:>7}",
        "ply", "side", "played", "score", "best", "score", "loss"
    );
    for review in reviews {
        let mark = match review.verdict(scale) {
            Verdict::Good => "",
            Verdict::Inaccuracy => "  ?! inaccuracy",
            Verdict::Mistake => "  ?  mistake",
            Verdict::Blunder => "  ?? blunder",
        };
        let loss = if review.loss > 0.0 {
            format!("{:.2}", review.loss)
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "{:>4}  {:<5}  {:<6} {:>9}  {:<6} {:>9}  {:>7}{mark}{}",
            review.ply,
            review.side.name(),
            review.played,
            score_text(review.played_score),
            review.best,
            score_text(review.best_score),
            loss,
            if review.forced { "  (forced)" } else { "" }
        );
    }
    for side in [Side::Black, Side::White] {
        let own: Vec<&MoveReview> = reviews.iter().filter(|r| r.side == side).collect();
        let count = |verdict| own.iter().filter(|r| r.verdict(scale) == verdict).count();
        let total: f64 = own.iter().map(|r| r.loss).sum();
        let _ = writeln!(
            text,
            "{}: {} moves, {} blunders, {} mistakes, {} inaccuracies, total loss {:.2}, average {:.2}",
            side.name(),
            own.len(),
            count(Verdict::Blunder),
            count(Verdict::Mistake),
            count(Verdict::Inaccuracy),
            total,
            total / own.len().max(1) as f64
        );
    }
    text
}

/// The evaluation over the game from Black's view (the best move's score before each
/// move), mistakes marked, as a standalone SVG picture.
pub fn svg(reviews: &[MoveReview], variant: Variant, title: &str) -> String {
    let full = scale(variant);
    // The span the game needs, in steps of an eighth of the full scale.
    let step = full / 8.0;
    let widest = reviews
        .iter()
        .map(|r| numeric(r.best_score, full).abs())
        .fold(step * 2.0, f64::max);
    let scale = ((widest / step).ceil() * step).min(full);
    let (width, height) = (860.0, 360.0);
    let (left, right, top, bottom) = (56.0, 20.0, 40.0, 40.0);
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let n = reviews.len().max(2) as f64;
    let x = |ply: usize| left + (ply as f64 - 1.0) / (n - 1.0) * plot_w;
    let y = |value: f64| top + plot_h / 2.0 - value.clamp(-scale, scale) / scale * plot_h / 2.0;
    let black_view = |review: &MoveReview| {
        let value = numeric(review.best_score, full);
        if review.side == Side::Black {
            value
        } else {
            -value
        }
    };
    let unit = match variant {
        Variant::Othello { .. } => "discs",
        Variant::KInRow(_) => "points",
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="sans-serif" font-size="12">"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="{width}" height="{height}" fill="#fbfaf5"/>"##
    );
    let _ = writeln!(
        svg,
        r##"<text x="{left}" y="24" font-size="15" font-weight="bold">{}</text>"##,
        escape(title)
    );
    // Black's advantage shaded dark above the line, White's light below.
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{plot_w}" height="{}" fill="#e6e6e0"/>"##,
        plot_h / 2.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{}" width="{plot_w}" height="{}" fill="#ffffff" stroke="none"/>"##,
        top + plot_h / 2.0,
        plot_h / 2.0
    );
    for fraction in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        let value = fraction * scale;
        let stroke = if fraction == 0.0 { "#555" } else { "#ccc" };
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" x2="{}" y1="{y0:.1}" y2="{y0:.1}" stroke="{stroke}"/><text x="{}" y="{:.1}" text-anchor="end">{value:+}</text>"##,
            left + plot_w,
            left - 6.0,
            y(value) + 4.0,
            y0 = y(value)
        );
    }
    let every = if reviews.len() > 40 { 10 } else { 5 };
    for ply in (every..=reviews.len()).step_by(every) {
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{}" text-anchor="middle">{ply}</text>"##,
            x(ply),
            height - bottom + 16.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" text-anchor="end">move</text><text x="12" y="{}" transform="rotate(-90 12 {})" text-anchor="middle">Black's score ({unit})</text>"##,
        width - right,
        height - 6.0,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    if !reviews.is_empty() {
        let points: Vec<String> = reviews
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.ply), y(black_view(r))))
            .collect();
        let zero = y(0.0);
        let _ = writeln!(
            svg,
            r##"<polygon points="{:.1},{zero:.1} {} {:.1},{zero:.1}" fill="#2b6cb0" fill-opacity="0.18"/>"##,
            x(reviews[0].ply),
            points.join(" "),
            x(reviews[reviews.len() - 1].ply)
        );
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#2b6cb0" stroke-width="2"/>"##,
            points.join(" ")
        );
    }
    for review in reviews {
        let color = match review.verdict(full) {
            Verdict::Blunder => "#c53030",
            Verdict::Mistake => "#dd6b20",
            Verdict::Inaccuracy => "#d69e2e",
            Verdict::Good => continue,
        };
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{color}"><title>{}. {} {} loses {:.2} (best {} {})</title></circle>"##,
            x(review.ply),
            y(black_view(review)),
            review.ply,
            review.side.name(),
            escape(&review.played),
            review.loss,
            escape(&review.best),
            escape(&score_text(review.best_score))
        );
    }
    let _ = writeln!(
        svg,
        r##"<g transform="translate({}, 24)"><circle r="5" fill="#c53030"/><text x="8" y="4">blunder</text><circle cx="70" r="5" fill="#dd6b20"/><text x="78" y="4">mistake</text><circle cx="140" r="5" fill="#d69e2e"/><text x="148" y="4">inaccuracy</text></g>"##,
        width - right - 230.0
    );
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Default thinking per analysis.
pub const DEFAULT_TIME: Duration = Duration::from_millis(300);

/// Reviews the game in `file` (read as `game` says, or as the record names its game) with
/// `movetime` per analysis or to `depth`, prints the table to stdout and writes the graph
/// to `svg_path` (default: `file` with the extension .svg), showing progress on stderr.
pub fn run(
    file: &std::path::Path,
    game: &super::game_args::GameArgs,
    movetime: Duration,
    depth: Option<u32>,
    svg_path: Option<&std::path::Path>,
    hash: usize,
    threads: usize,
) -> Result<(), String> {
    use crate::engine::output::stdout_error;
    use std::io::Write;
    let text = crate::files::read_text(file)?;
    let record = read_record(&text, game.given()?)
        .and_then(|record| check_moves(&record).map(|()| record))
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let svg_path =
        svg_path.map_or_else(|| file.with_extension("svg"), std::path::Path::to_path_buf);
    // The graph's file is checked before the analysis; a record named .svg is not
    // replaced by its own graph.
    let output = crate::files::Output::check(&svg_path, true)?;
    if std::fs::canonicalize(&svg_path)
        .is_ok_and(|svg| std::fs::canonicalize(file).is_ok_and(|f| f == svg))
    {
        return Err(format!(
            "{}: the graph would replace the record itself: give --svg",
            svg_path.display()
        ));
    }
    let limits = AnalysisOptions {
        time: depth.is_none().then_some(movetime),
        depth,
        ..Default::default()
    };
    let started = Instant::now();
    let total = record.moves.len();
    let mut shown = false;
    let reviews = review(&record, &limits, hash, threads, &mut |move_review| {
        eprint!("\rreviewed {}/{total}", move_review.ply);
        shown = true;
    });
    // The progress line ends before anything else is printed.
    if shown {
        eprintln!();
    }
    let reviews = reviews?;
    let mut out = std::io::stdout().lock();
    write!(out, "{}", table(&reviews, record.variant)).map_err(stdout_error)?;
    let title = format!(
        "{} ({}, {} moves)",
        file.file_name()
            .map_or("game".into(), |n| n.to_string_lossy()),
        record.variant,
        total
    );
    output.write(svg(&reviews, record.variant, &title).as_bytes())?;
    writeln!(
        out,
        "graph: {} (reviewed in {:.1} s)",
        svg_path.display(),
        started.elapsed().as_secs_f64()
    )
    .and_then(|()| out.flush())
    .map_err(stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record::parse_record;

    #[test]
    fn a_short_game_reviewed() {
        let record = parse_record("f5 f6 e6 f4 g6", Variant::default()).unwrap();
        let limits = AnalysisOptions {
            depth: Some(3),
            ..AnalysisOptions::default()
        };
        let mut heard = 0;
        let reviews = review(&record, &limits, 4, 1, &mut |_| heard += 1).unwrap();
        assert_eq!(reviews.len(), 5);
        assert_eq!(heard, 5);
        for review in &reviews {
            assert_eq!(
                review.loss == 0.0,
                review.played == review.best || review.loss == 0.0
            );
            assert!(review.loss >= 0.0);
        }
        assert_eq!(reviews[0].side, Side::Black);
        assert_eq!(reviews[1].side, Side::White);
        let picture = svg(&reviews, Variant::default(), "test <game>");
        assert!(picture.starts_with("<svg") && picture.ends_with("</svg>\n"));
        assert!(picture.contains("test &lt;game&gt;"));
        let text = table(&reviews, Variant::default());
        assert!(text.contains("black: 3 moves"), "{text}");
        let passed = parse_record(
            "(;GM[Othello]PC[x]BO[8 *****O****O**O*O****-***O***O-*******O***********O****O*OOO-**-O *]B[f4]W[PA]B[e3];)",
            Variant::default(),
        )
        .unwrap();
        let reviews = review(&passed, &limits, 4, 1, &mut |_| {}).unwrap();
        let played: Vec<&str> = reviews.iter().map(|r| r.played.as_str()).collect();
        assert_eq!(played, ["f4", "e3"], "a pass is no move to review");
        let bad = parse_record("f5 a1", Variant::default()).unwrap();
        assert_eq!(
            review(&bad, &limits, 4, 1, &mut |_| {}).unwrap_err(),
            "move 2: illegal move a1 for white"
        );
    }

    /// Under a node limit (as under a clock) the played move is scored in the same
    /// search as the best one: "best" is never worse than the played move, and the loss
    /// is the difference of the two scores shown.
    #[test]
    fn the_best_move_is_never_worse_than_the_played_one() {
        let record = parse_record(
            "f5f6e6f4g5e7f7c5f3g3h3h5g4h4h6g6d6e3f8f2e1c7c6d7e8c8d2e2",
            Variant::default(),
        )
        .unwrap();
        let limits = AnalysisOptions {
            nodes: Some(40_000),
            ..AnalysisOptions::default()
        };
        let reviews = review(&record, &limits, 8, 1, &mut |_| {}).unwrap();
        assert_eq!(reviews.len(), 28);
        let full = scale(Variant::default());
        for review in &reviews {
            let (best, played) = (
                numeric(review.best_score, full),
                numeric(review.played_score, full),
            );
            assert!(best >= played, "{review:?}");
            if review.best == review.played {
                assert_eq!(review.loss, 0.0, "{review:?}");
            } else {
                assert!((review.loss - (best - played)).abs() < 1e-9, "{review:?}");
            }
        }
    }
}
