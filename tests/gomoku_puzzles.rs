//! The threat solver on the developers' Gomoku puzzle set in ../shared/data/gomoku/
//! (skipped with a message when it is absent). Node limits, not clocks, bound each
//! puzzle, so the counts do not depend on the machine.

use std::path::Path;

use arbor::cli::puzzles::{line_wins, parse_puzzle};
use arbor::game::Game;
use arbor::game::gomoku::threat::{Kind, ThreatSolver};
use arbor::stop::Stop;

fn puzzles(name: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/gomoku")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!(
                "skipped: {} not found (../shared is not beside this checkout)",
                path.display()
            );
            None
        }
    }
}

/// Solves every puzzle with a node limit; returns (solved, total, solved by `kind`).
fn run(text: &str, nodes: u64, kind: Kind) -> (usize, usize, usize) {
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

#[test]
fn vcf_puzzles() {
    let Some(text) = puzzles("vcf.txt") else {
        return;
    };
    let (solved, total, vcf) = run(&text, 300_000, Kind::Vcf);
    eprintln!("vcf.txt: {solved}/{total} solved within 300k nodes, {vcf} by VCF");
    assert_eq!(total, 1129);
    assert!(solved >= 1125, "{solved}/{total}");
    assert_eq!(
        vcf, solved,
        "every puzzle here has a VCF: the solver tries VCF first"
    );
}

#[test]
fn vct_puzzles() {
    let Some(text) = puzzles("vct.txt") else {
        return;
    };
    let (solved, total, vct) = run(&text, 100_000, Kind::Vct);
    eprintln!("vct.txt: {solved}/{total} solved within 100k nodes");
    assert_eq!(total, 355);
    assert!(solved >= 270, "{solved}/{total}");
    assert_eq!(vct, solved, "these puzzles have no VCF");
}
