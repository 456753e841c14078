//! `arbor perft`: the leaves of the game tree at each depth, with time and speed.

use std::io::{self, Write};
use std::time::Instant;

use crate::game::perft::perft_interruptible;
use crate::game::roles::SearchGame;
use crate::game::variant::{GameVisitor, Variant};
use crate::stop::Stop;

/// Prints each depth's leaf count, time and speed to `out` for depths 1 to `depth`, each
/// as soon as it is counted (the deep ones take long).
pub fn run(variant: Variant, depth: u32, out: &mut dyn Write) -> io::Result<()> {
    variant.visit(PerftReport { depth, out })
}

struct PerftReport<'a> {
    depth: u32,
    out: &'a mut dyn Write,
}

impl GameVisitor for PerftReport<'_> {
    type Output = io::Result<()>;

    fn visit<G: SearchGame>(self, mut game: G) -> io::Result<()> {
        let out = self.out;
        writeln!(
            out,
            "{:>5} {:>14} {:>10} {:>14}",
            "depth", "leaves", "seconds", "leaves/s"
        )?;
        for depth in 1..=self.depth {
            let start = Instant::now();
            // Stops (None) only when the output's reader has gone.
            let leaves = perft_interruptible(&mut game, depth, &Stop::never())
                .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
            let seconds = start.elapsed().as_secs_f64();
            let rate = if seconds > 0.0 {
                leaves as f64 / seconds
            } else {
                0.0
            };
            writeln!(out, "{depth:>5} {leaves:>14} {seconds:>10.3} {rate:>14.0}")?;
            out.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_a_line_per_depth() {
        let mut out = Vec::new();
        let othello = Variant::parse("othello", []).unwrap();
        run(othello, 3, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let leaves: Vec<&str> = text
            .lines()
            .map(|line| line.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(leaves, ["leaves", "4", "12", "56"], "{text}");
    }
}
