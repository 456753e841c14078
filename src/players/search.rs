use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::Player;
use crate::game::Move;
use crate::limits::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{Report, SearchGame, Searcher};

/// The engine proper: iterative-deepening search with the shared table.
pub struct SearchPlayer<G: SearchGame> {
    searcher: Searcher<G>,
}

impl<G: SearchGame> SearchPlayer<G> {
    pub fn new(tt: Arc<TranspositionTable>) -> SearchPlayer<G> {
        SearchPlayer {
            searcher: Searcher::new(tt),
        }
    }
}

/// `info depth D [exact] score S nodes N nps X time MS pv m1 m2 ...`
pub fn info_line<G: SearchGame>(game: &G, report: &Report) -> String {
    let millis = report.elapsed.as_millis();
    let nps = (report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-6)) as u64;
    let mut line = format!(
        "info depth {}{} score {} nodes {} nps {} time {} pv",
        report.depth,
        if report.exact { " exact" } else { "" },
        if report.exact {
            game.format_exact_score(report.score)
        } else {
            game.format_score(report.score)
        },
        report.nodes,
        nps,
        millis
    );
    let mut position = game.clone();
    for &mv in &report.pv {
        line.push(' ');
        line.push_str(&position.format_move(mv));
        position.make(mv);
    }
    line
}

impl<G: SearchGame> Player<G> for SearchPlayer<G> {
    fn choose(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(String),
    ) -> Move {
        let result = self
            .searcher
            .think(game, limits, stop, &mut |game, report| {
                info(info_line(game, report))
            });
        result.best
    }
}
