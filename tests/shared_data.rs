//! Tests on the reference data in ../shared, the directory beside the checkout (CI has
//! it; a user's clone does not). Without it each of these tests is reported `ignored` in
//! the test summary, its name saying which file it needs.
//!
//! - the FFO endgame suite: exact scores from the solver;
//! - the Gomoku forced-win puzzles: the threat solver within node limits, not clocks, so
//!   the counts do not depend on the machine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use arbor::cli::puzzles::{line_wins, parse_puzzle};
use arbor::cli::solve::solve_file;
use arbor::engine::events::Event;
use arbor::engine::{AnalysisOptions, Engine, Finished, Settings};
use arbor::game::Game;
use arbor::game::Side;
use arbor::game::gomoku::threat::{Kind, ThreatSolver};
use arbor::game::roles::{ProofKind, ScoreValue};
use arbor::game::variant::Variant;
use arbor::search::report::Report;
use arbor::search::tt::Bound;
use arbor::stop::Stop;
use libtest_mimic::{Arguments, Failed, Trial};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let trials = vec![
        needs(
            "ffo_1_to_19_scores_are_exact",
            "othello/fforum-1-19.obf",
            ffo_1_to_19,
        ),
        needs(
            "ffo_1_to_19_every_move_analysed_exactly",
            "othello/fforum-1-19.obf",
            ffo_1_to_19_analysis,
        ),
        needs(
            "gomoku_analysis_reports_short_forced_wins",
            "gomoku/vcf.txt",
            gomoku_analysis_wins,
        ),
        needs(
            "ffo_20_to_36_scores_are_exact",
            "othello/fforum-20-39.obf",
            ffo_20_to_36,
        ),
        needs("vcf_puzzles", "gomoku/vcf.txt", vcf_puzzles),
        needs("vct_puzzles", "gomoku/vct.txt", vct_puzzles),
    ];
    libtest_mimic::run(&args, trials).exit_code()
}

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

/// A test of the file `data` under ../shared/data: ignored, and named so, when it is absent.
fn needs(name: &str, data: &str, test: fn(&str) -> Result<(), Failed>) -> Trial {
    let path = shared_data().join(data);
    let present = path.is_file();
    let name = if present {
        name.to_string()
    } else {
        format!("{name} (needs ../shared/data/{data})")
    };
    Trial::test(name, move || {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (../shared is not beside this checkout)",
                path.display()
            )
        })?;
        test(&text)
    })
    .with_ignored_flag(!present)
}

fn ffo_1_to_19(text: &str) -> Result<(), Failed> {
    let mut out = Vec::new();
    let report = solve_file(
        "fforum-1-19.obf",
        text,
        20,
        1,
        1,
        &mut out,
        &mut std::io::stderr(),
    )?;
    assert_eq!(report.bad_lines, 0);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(report.positions, 19, "{out}");
    assert_eq!(report.mismatches, 0, "{out}");
    Ok(())
}

/// An engine core set to `cells`/`side`, analysing with `options` to the end.
fn analyse(engine: &mut Engine, receiver: &Receiver<Event>, options: &AnalysisOptions) -> Report {
    engine.analyze(options, Instant::now()).unwrap();
    match engine.wait(receiver, &mut |_, _| {}) {
        Some(Finished::Analyzed { report }) => report,
        other => panic!("{other:?}"),
    }
}

/// `analyze multipv all` in solve range: every legal move's score is the published exact
/// score of that move (the OBF lines list every move with its solved margin); with
/// `multipv 3` the best three are, and every other move is bounded by its score.
fn ffo_1_to_19_analysis(text: &str) -> Result<(), Failed> {
    let settings = Settings {
        hash_mb: 64,
        ..Settings::default()
    };
    let (mut engine, receiver) = Engine::new(&settings)?;
    let mut positions = 0;
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let mut fields = line.split(';');
        let board = fields.next().unwrap();
        let (cells, side) = board.split_once(' ').unwrap();
        let side = Side::parse(side.trim()).unwrap();
        let expected: Vec<(String, i32)> = fields
            .filter_map(|field| {
                let (mv, score) = field.trim().split_once(':')?;
                Some((mv.to_ascii_lowercase(), score.parse().ok()?))
            })
            .collect();
        engine.new_game(None)?;
        engine.set_board(cells, side)?;
        let options = AnalysisOptions {
            lines: None,
            ..AnalysisOptions::default()
        };
        let report = analyse(&mut engine, &receiver, &options);
        assert_eq!(report.lines.len(), engine.legal_moves().len(), "{line}");
        assert_eq!(report.lines.len(), expected.len(), "{line}");
        for analysed in &report.lines {
            let name = engine.move_name(analysed.pv[0]);
            let score = expected.iter().find(|(mv, _)| *mv == name).map(|(_, s)| *s);
            assert_eq!(
                (analysed.score, analysed.proof),
                (
                    ScoreValue::Margin(score.unwrap_or(i32::MIN)),
                    Some(ProofKind::Solve)
                ),
                "{name} in {line}"
            );
        }
        // multipv 3: the best three exact, every other move proven no better than its
        // published score says (an upper bound at or above it).
        let options = AnalysisOptions {
            lines: Some(3),
            ..AnalysisOptions::default()
        };
        let report = analyse(&mut engine, &receiver, &options);
        assert_eq!(report.lines.len(), expected.len(), "{line}");
        let mut best: Vec<i32> = expected.iter().map(|(_, score)| *score).collect();
        best.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, analysed) in report.lines.iter().enumerate() {
            let name = engine.move_name(analysed.pv[0]);
            let score = expected.iter().find(|(mv, _)| *mv == name).unwrap().1;
            let ScoreValue::Margin(shown) = analysed.score else {
                panic!("{name} in {line}: {analysed:?}");
            };
            assert_eq!(analysed.proof, Some(ProofKind::Solve), "{name} in {line}");
            if rank < 3 || analysed.bound == Bound::Exact {
                assert_eq!(analysed.bound, Bound::Exact, "{name} in {line}");
                assert_eq!(shown, score, "{name} in {line}");
                assert!(rank >= 3 || score == best[rank], "{name} in {line}");
            } else {
                assert_eq!(analysed.bound, Bound::Upper, "{name} in {line}");
                assert!(score <= shown && shown <= best[2], "{name} in {line}");
            }
        }
        positions += 1;
    }
    assert_eq!(positions, 19);
    Ok(())
}

/// Short VCFs: the analysis names a winning first move with the shortest distance.
fn gomoku_analysis_wins(text: &str) -> Result<(), Failed> {
    let settings = Settings {
        variant: Variant::parse("gomoku", [])?,
        hash_mb: 16,
        ..Settings::default()
    };
    let (mut engine, receiver) = Engine::new(&settings)?;
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|line| line.contains(" vcf=2 ") || line.contains(" vcf=3 "))
        .take(40)
    {
        let puzzle = parse_puzzle(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let attacker_moves: u32 = line
            .split(" vcf=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        engine.new_game(None)?;
        engine.set_board(&puzzle.game.cells(), puzzle.game.side_to_move())?;
        let options = AnalysisOptions {
            lines: Some(1),
            time: Some(Duration::from_secs(5)),
            ..AnalysisOptions::default()
        };
        let report = analyse(&mut engine, &receiver, &options);
        let best = &report.lines[0];
        assert_eq!(
            best.score,
            ScoreValue::Win(2 * attacker_moves - 1),
            "{line}"
        );
        assert_eq!(best.proof, Some(ProofKind::Vcf), "{line}");
        assert!(
            line_wins(&puzzle.game, &best.pv),
            "{line}: {:?}",
            engine.line_names(&best.pv)
        );
        checked += 1;
    }
    assert_eq!(checked, 40);
    Ok(())
}

fn ffo_20_to_36(text: &str) -> Result<(), Failed> {
    // #37 to #39 take the longest; the benchmark script covers them.
    let text: String = text
        .lines()
        .take(17)
        .map(|line| format!("{line}\n"))
        .collect();
    let mut out = Vec::new();
    let report = solve_file(
        "fforum-20-39.obf",
        &text,
        20,
        1,
        1,
        &mut out,
        &mut std::io::stderr(),
    )?;
    assert_eq!(report.bad_lines, 0);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(report.positions, 17, "{out}");
    assert_eq!(report.mismatches, 0, "{out}");
    Ok(())
}

/// Solves every puzzle with a node limit; returns (solved, total, solved by `kind`).
fn run_puzzles(text: &str, nodes: u64, kind: Kind) -> (usize, usize, usize) {
    let stop = Stop::never().with_node_limit(nodes);
    let (mut solved, mut total, mut of_kind) = (0, 0, 0);
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let puzzle = parse_puzzle(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        total += 1;
        let attacker = puzzle.game.side_to_move();
        let mut solver = ThreatSolver::new(attacker, &stop);
        if let Some((moves, found)) = solver.solve(&puzzle.game) {
            assert!(
                line_wins(&puzzle.game, &moves),
                "{line}: the line found does not win: {}",
                moves
                    .iter()
                    .map(|&m| puzzle.game.format_move(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            solved += 1;
            of_kind += (found == kind) as usize;
        }
    }
    (solved, total, of_kind)
}

fn vcf_puzzles(text: &str) -> Result<(), Failed> {
    let (solved, total, vcf) = run_puzzles(text, 300_000, Kind::Vcf);
    assert_eq!(total, 1129);
    assert!(solved >= 1125, "{solved}/{total} solved within 300k nodes");
    assert_eq!(
        vcf, solved,
        "every puzzle here has a VCF: the solver tries VCF first"
    );
    Ok(())
}

fn vct_puzzles(text: &str) -> Result<(), Failed> {
    let (solved, total, vct) = run_puzzles(text, 100_000, Kind::Vct);
    assert_eq!(total, 355);
    assert!(solved >= 330, "{solved}/{total} solved within 100k nodes");
    assert_eq!(vct, solved, "these puzzles have no VCF");
    Ok(())
}
