//! `arbor bench`: fixed positions of every game searched to fixed depths (and one exact
//! Othello solve), each with fresh tables, printing nodes and speed. The total node count
//! is a signature of the search's behaviour: a test pins it, so any change in what the
//! search does is visible, and the speed is measured on the same work every time.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::game::roles::SearchGame;
use crate::game::variant::{GameVisitor, Variant};
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

/// Memory for each position's fresh tables, MiB: node counts depend on it.
const BENCH_HASH_MB: usize = 16;

/// What one position asks for: a depth-limited search, or an exact solve (depth 0).
struct BenchPosition {
    game: &'static str,
    options: &'static [(&'static str, &'static str)],
    moves: &'static str,
    depth: u32,
}

const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        game: "othello",
        options: &[],
        moves: "d3 c5 b6 b5 e6 b7 d6 e7 d7 e3 f3 c6 a5 b4 c3 g2 f6 e2 e8 f8",
        depth: 10,
    },
    BenchPosition {
        game: "othello",
        options: &[],
        moves: "c4 e3 f2 c5 b6 c3 f4 b3 d6 g4 a2 a3 f3 a1 h4 d7 b2 b5 d8 e7 a5 c2 f6 e6 d3 f5 \
                c7 c6 c1 f1",
        depth: 10,
    },
    BenchPosition {
        game: "othello",
        options: &[],
        moves: "c4 c3 e6 d6 c2 f5 g4 f3 c6 b7 f6 e7 f4 g5 f8 e3 f7 c5 c7 h3 d3 b1 g7 b3 b2 b8 \
                h4 g8 c8 g6 e2 d8 b4 a1 e8 h5 a8 f1 h7 a5 h6 g2 b5 a2",
        depth: 0,
    },
    BenchPosition {
        game: "othello",
        options: &[],
        moves: "c4 c3 e6 d6 c2 f5 g4 f3 c6 b7 f6 e7 f4 g5 f8 e3 f7 c5 c7 h3 d3 b1 g7 b3 b2 b8 \
                h4 g8 c8 g6 e2 d8 b4 a1 e8 h5 a8 f1",
        depth: 0,
    },
    BenchPosition {
        game: "othello",
        options: &[("size", "6"), ("rule", "misere")],
        moves: "e4 e3 f2 d5 b3 b2 d6 c5 b6 f3",
        depth: 13,
    },
    BenchPosition {
        game: "gomoku",
        options: &[],
        moves: "h8 i9 h9 h10 i8 g8 j7 k6 i10 g7",
        depth: 10,
    },
    BenchPosition {
        game: "gomoku",
        options: &[("rule", "exact")],
        moves: "h8 h9 i9 g7 j10 k11 i8 i7 j7",
        depth: 10,
    },
    BenchPosition {
        game: "pente",
        options: &[],
        moves: "j10 k11 j12 k9 l11 h9",
        depth: 6,
    },
    BenchPosition {
        game: "tictactoe",
        options: &[("size", "5"), ("k", "4")],
        moves: "c3 b2",
        depth: 10,
    },
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub name: String,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub best: String,
}

/// Runs every position, printing a line for each and the totals; returns the lines.
pub fn run(out: &mut impl Write) -> Result<Vec<BenchLine>, String> {
    let mut lines = Vec::new();
    for position in POSITIONS {
        let variant = Variant::parse(position.game, position.options.iter().copied())
            .map_err(|e| e.to_string())?;
        let line = variant.visit(RunPosition { variant, position })?;
        writeln!(
            out,
            "{:<40} {:>6} {:>12} nodes {:>9.3} s {:>10.0} nodes/s  best {}",
            line.name,
            if line.depth == 0 {
                "exact".to_string()
            } else {
                format!("depth {}", line.depth)
            },
            line.nodes,
            line.time.as_secs_f64(),
            line.nodes as f64 / line.time.as_secs_f64().max(1e-9),
            line.best
        )
        .map_err(|e| e.to_string())?;
        lines.push(line);
    }
    let nodes: u64 = lines.iter().map(|line| line.nodes).sum();
    let time: Duration = lines.iter().map(|line| line.time).sum();
    writeln!(
        out,
        "total: {nodes} nodes, {:.3} s, {:.0} nodes/s\nsignature: {nodes}",
        time.as_secs_f64(),
        nodes as f64 / time.as_secs_f64().max(1e-9)
    )
    .map_err(|e| e.to_string())?;
    Ok(lines)
}

struct RunPosition<'a> {
    variant: Variant,
    position: &'a BenchPosition,
}

impl GameVisitor for RunPosition<'_> {
    type Output = Result<BenchLine, String>;

    fn visit<G: SearchGame>(self, mut game: G) -> Self::Output {
        for text in self.position.moves.split_whitespace() {
            let mv = game.parse_move(text).map_err(|e| e.to_string())?;
            if !game.is_legal(mv) {
                return Err(format!("bench: {text} is illegal in {}", self.variant));
            }
            game.make(mv);
        }
        let mut searcher = Searcher::new(&game, BENCH_HASH_MB)?;
        let stop = Stop::never();
        let start = Instant::now();
        let (nodes, best) = if self.position.depth == 0 {
            let proof = searcher
                .solve(&game, &stop, &mut |_| {})
                .filter(|proof| proof.is_exact())
                .ok_or("bench: the solve proved nothing")?;
            (proof.nodes, proof.pv[0])
        } else {
            let limits = Limits {
                depth: Some(self.position.depth),
                ..Limits::default()
            };
            let result = searcher.search_to(&game, &limits, &stop, &mut |_| {});
            (result.nodes, result.best)
        };
        Ok(BenchLine {
            name: format!(
                "{} +{}",
                self.variant,
                self.position.moves.split_whitespace().count()
            ),
            depth: self.position.depth,
            nodes,
            time: start.elapsed(),
            best: game.format_move(best),
        })
    }
}
