//! Threat-space search for the five-in-a-row games.
//!
//! VCF (victory by continuous fours): the attacker plays only fours, so every defence is
//! forced. VCT adds quiet threats, moves that threaten an open four; after one, the
//! defender may block any point where the attacker would make a four, or counter with
//! a four of its own (and capture, at Pente), and every such defence must lose.
//! Failed positions are remembered with the budget they failed under.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::pattern::Threat;
use super::search::add_captures;
use super::{Family, Gomoku};
use crate::game::roles::{Proof, WIN};
use crate::game::{Game, Move, Side};
use crate::stop::Stop;

/// Longest VCF tried, in attacker moves.
pub const MAX_VCF: u32 = 60;
/// Quiet threats a VCT may use along one line of play.
pub const MAX_QUIET: u32 = 3;
/// Attacker moves of any kind in a VCT line before its closing VCF.
const MAX_VCT_MOVES: u32 = 10;
/// Fours tried after each quiet threat, to close a VCT.
const VCT_CLOSING_VCF: u32 = 10;
/// Fours a quiet move may threaten to win with, to count as a threat.
const QUIET_THREAT_VCF: u32 = 6;

/// Failed positions remembered per map: a long solve keeps tens of megabytes at most
/// (about 32 bytes an entry) instead of growing with its time.
const MAX_REMEMBERED_FAILURES: usize = 1 << 20;

/// How a forced win was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Vcf,
    Vct,
}

pub struct ThreatSolver<'a> {
    pub nodes: u64,
    stop: &'a Stop,
    stopped: bool,
    attacker: Side,
    /// VCF failures: position → largest fours budget that failed.
    vcf_failed: HashMap<u64, u32, ZobristHasher>,
    /// VCT failures: position → (quiet threats, moves) budget that failed.
    vct_failed: HashMap<u64, (u32, u32), ZobristHasher>,
}

/// A forced win for the side to move: VCF first, then VCT, until `stop`.
pub fn find_win(game: &Gomoku, stop: &Stop) -> Option<Proof> {
    let mut solver = ThreatSolver::new(game.side_to_move(), stop);
    let (line, _) = solver.solve(game)?;
    Some(Proof::exact(WIN - line.len() as i32, line, solver.nodes))
}

/// Zobrist keys are already uniform: the map uses them as they are.
type ZobristHasher = BuildHasherDefault<KeyHasher>;

#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ byte as u64;
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Fours tried when checking whether the opponent has a VCF to defend against.
const DEFENCE_VCF: u32 = 20;

/// When the opponent of the side to move would win by continuous fours if it were its
/// turn, keeps only the candidate moves after which it no longer can (or that are fours,
/// which keep the initiative). Leaves `moves` alone when there is no such threat, when
/// no candidate defends, or when `stop` comes first.
pub fn keep_defences(game: &Gomoku, moves: &mut Vec<Move>, stop: &Stop) {
    let me = game.side_to_move();
    let them = me.opponent();
    if game.threat_count(them, Threat::Five) > 0 || game.threat_count(me, Threat::Five) > 0 {
        return;
    }
    let mut work = game.clone();
    work.pass_turn();
    let Some(line) = ThreatSolver::new(them, stop).vcf(&mut work, DEFENCE_VCF) else {
        return;
    };
    work.pass_turn();
    let pente = game.config.family == Family::Pente;
    let mut defences = Vec::new();
    for &mv in moves.iter() {
        let on_line = line.contains(&mv);
        let four = game.threat(me, mv.square()).is_four();
        let capture = pente && game.capture_mask(mv.square()) != 0;
        if !(on_line || four || capture) {
            continue;
        }
        let undo = work.make(mv);
        let refuted = work.outcome().is_some()
            || ThreatSolver::new(them, stop)
                .vcf(&mut work, DEFENCE_VCF)
                .is_none();
        work.unmake(mv, undo);
        if stop.check(0) {
            return;
        }
        if refuted || four {
            defences.push(mv);
        }
    }
    if !defences.is_empty() {
        *moves = defences;
    }
}

impl<'a> ThreatSolver<'a> {
    pub fn new(attacker: Side, stop: &'a Stop) -> ThreatSolver<'a> {
        ThreatSolver {
            nodes: 0,
            stop,
            stopped: false,
            attacker,
            vcf_failed: HashMap::default(),
            vct_failed: HashMap::default(),
        }
    }

    /// The winning line (attacker, defender, ..., the attacker's winning move), shortest
    /// VCF first, then VCT with more and more quiet threats.
    pub fn solve(&mut self, game: &Gomoku) -> Option<(Vec<Move>, Kind)> {
        if !game.has_patterns() || game.outcome().is_some() {
            return None;
        }
        let mut work = game.clone();
        if let Some(line) = self.vcf(&mut work, MAX_VCF) {
            return Some((line, Kind::Vcf));
        }
        for quiet in 1..=MAX_QUIET {
            for moves in quiet..=MAX_VCT_MOVES {
                if self.stopped {
                    return None;
                }
                if let Some(line) = self.vct(&mut work, quiet, moves) {
                    return Some((line, Kind::Vct));
                }
            }
        }
        None
    }

    /// Iterative deepening over the number of fours, so the line found is short.
    pub fn vcf(&mut self, game: &mut Gomoku, max_fours: u32) -> Option<Vec<Move>> {
        for fours in 1..=max_fours {
            if let Some(mut line) = self.vcf_search(game, fours) {
                line.reverse();
                return Some(line);
            }
            if self.stopped {
                return None;
            }
        }
        None
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.stop.node_limit()
            || (self.nodes & 1023 == 0 && self.stop.check(self.nodes))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Attacker to move; the line comes back reversed.
    fn vcf_search(&mut self, game: &mut Gomoku, fours: u32) -> Option<Vec<Move>> {
        if self.tick() {
            return None;
        }
        let me = game.side_to_move();
        debug_assert_eq!(me, self.attacker);
        let mut cells = Vec::new();
        game.threat_fields(me, Threat::Five, &mut cells);
        if let Some(&five) = cells.first() {
            return Some(vec![five]);
        }
        if fours == 0 {
            return None;
        }
        let key = game.hash();
        if self
            .vcf_failed
            .get(&key)
            .is_some_and(|&failed| failed >= fours)
        {
            return None;
        }
        let them = me.opponent();
        game.threat_fields(them, Threat::Five, &mut cells);
        match cells.len() {
            0 => game.threat_fields(me, Threat::Four, &mut cells),
            // The block must itself be a four.
            1 => cells.retain(|&mv| game.threat(me, mv.square()).is_four()),
            _ => cells.clear(),
        }
        cells.retain(|&mv| game.is_legal(mv));
        // Strongest fours first.
        cells.sort_by_key(|&mv| std::cmp::Reverse(game.threat(me, mv.square())));
        for &attack in &cells {
            let undo = game.make(attack);
            let found = self.after_attack(game, |solver, game| solver.vcf_search(game, fours - 1));
            game.unmake(attack, undo);
            if let Some(mut line) = found {
                line.push(attack);
                return Some(line);
            }
            if self.stopped {
                return None;
            }
        }
        if !self.stopped && self.vcf_failed.len() < MAX_REMEMBERED_FAILURES {
            self.vcf_failed.insert(key, fours);
        }
        None
    }

    /// The attacker has just moved: every defence must lose to `next`. Returns the
    /// reversed line from the defender's first reply on.
    fn after_attack(
        &mut self,
        game: &mut Gomoku,
        mut next: impl FnMut(&mut Self, &mut Gomoku) -> Option<Vec<Move>>,
    ) -> Option<Vec<Move>> {
        if let Some(outcome) = game.outcome() {
            return (outcome.winner == Some(self.attacker)).then(Vec::new);
        }
        let mut replies = Vec::new();
        game.threat_fields(self.attacker, Threat::Five, &mut replies);
        if replies.is_empty() {
            return None;
        }
        let pente = game.config.family == Family::Pente;
        if replies.len() >= 2 && !pente {
            // Two winning points: block one, the attacker takes the other.
            let line = vec![replies[1], replies[0]];
            return Some(line);
        }
        if pente {
            add_captures(game, &mut replies);
        }
        self.all_replies_lose(game, &replies, &mut next)
    }

    fn all_replies_lose(
        &mut self,
        game: &mut Gomoku,
        replies: &[Move],
        next: &mut impl FnMut(&mut Self, &mut Gomoku) -> Option<Vec<Move>>,
    ) -> Option<Vec<Move>> {
        let mut first_line = None;
        for &reply in replies {
            if !game.is_legal(reply) {
                continue;
            }
            let undo = game.make(reply);
            let found = if game.outcome().is_some() {
                None
            } else {
                next(self, game)
            };
            game.unmake(reply, undo);
            match found {
                Some(mut line) => {
                    if first_line.is_none() {
                        line.push(reply);
                        first_line = Some(line);
                    }
                }
                None => return None,
            }
        }
        first_line
    }

    /// Attacker to move, with `quiet` quiet threats and `moves` attacker moves left.
    fn vct(&mut self, game: &mut Gomoku, quiet: u32, moves: u32) -> Option<Vec<Move>> {
        let mut line = self.vct_search(game, quiet, moves)?;
        line.reverse();
        Some(line)
    }

    fn vct_search(&mut self, game: &mut Gomoku, quiet: u32, moves: u32) -> Option<Vec<Move>> {
        if self.tick() {
            return None;
        }
        let me = game.side_to_move();
        if let Some(mut line) = self.vcf(game, VCT_CLOSING_VCF) {
            line.reverse();
            return Some(line);
        }
        if quiet == 0 || moves == 0 || self.stopped {
            return None;
        }
        let key = game.hash();
        if self
            .vct_failed
            .get(&key)
            .is_some_and(|&(q, m)| q >= quiet && m >= moves)
        {
            return None;
        }
        let them = me.opponent();
        let mut cells = Vec::new();
        game.threat_fields(them, Threat::Five, &mut cells);
        match cells.len() {
            0 => game.threat_fields(me, Threat::Three, &mut cells),
            1 => {}
            _ => cells.clear(),
        }
        cells.retain(|&mv| game.is_legal(mv));
        cells.sort_by_key(|&mv| {
            std::cmp::Reverse((game.threat(me, mv.square()), game.value(me, mv.square())))
        });
        for &attack in &cells {
            let is_four = game.threat(me, attack.square()).is_four();
            let undo = game.make(attack);
            let found = if is_four {
                self.after_attack(game, |solver, game| {
                    solver.vct_search(game, quiet, moves - 1)
                })
            } else {
                self.after_quiet_threat(game, quiet, moves)
            };
            game.unmake(attack, undo);
            if let Some(mut line) = found {
                line.push(attack);
                return Some(line);
            }
            if self.stopped {
                return None;
            }
        }
        if !self.stopped && self.vct_failed.len() < MAX_REMEMBERED_FAILURES {
            self.vct_failed.insert(key, (quiet, moves));
        }
        None
    }

    /// After a quiet move of the attacker: it must threaten to win (an open four, or a
    /// VCF if the defender did nothing), and every defence must lose. The defences
    /// tried: the points where the attacker would make a four, the points of its
    /// threatened VCF, the defender's own fours (and threes, against a VCF threat), and
    /// captures.
    fn after_quiet_threat(
        &mut self,
        game: &mut Gomoku,
        quiet: u32,
        moves: u32,
    ) -> Option<Vec<Move>> {
        if let Some(outcome) = game.outcome() {
            return (outcome.winner == Some(self.attacker)).then(Vec::new);
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let mut replies = Vec::new();
        // Against an open-four threat only a four of its own helps the defender; against
        // a threatened VCF, so may a three whose forced blocks become fours.
        let mut counter = Threat::Four;
        if game.threat_count(attacker, Threat::OpenFour) == 0 {
            if game.threat_count(attacker, Threat::Four) == 0 {
                return None;
            }
            game.pass_turn();
            let threat = self.vcf(game, QUIET_THREAT_VCF);
            game.pass_turn();
            replies = threat?;
            counter = Threat::Three;
        }
        let mut more = Vec::new();
        game.threat_fields(attacker, Threat::Four, &mut more);
        replies.append(&mut more);
        game.threat_fields(defender, counter, &mut more);
        replies.append(&mut more);
        if game.config.family == Family::Pente {
            add_captures(game, &mut replies);
        }
        replies.sort_unstable();
        replies.dedup();
        self.all_replies_lose(
            game,
            &replies,
            &mut |solver: &mut Self, game: &mut Gomoku| {
                solver.vct_search(game, quiet - 1, moves - 1)
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::Config;
    use crate::game::gomoku::Opening;

    fn position(size: usize, black: &[&str], white: &[&str], side: Side) -> Gomoku {
        let mut game = Gomoku::new(Config::gomoku(size, false, Opening::Free)).unwrap();
        let mut cells = vec!['-'; size * size];
        for (stones, c) in [(black, 'X'), (white, 'O')] {
            for name in stones {
                let mv = game.parse_move(name).unwrap();
                cells[mv.square()] = c;
            }
        }
        game.set_board(&cells.iter().collect::<String>(), side)
            .unwrap();
        game
    }

    /// Replays a winning line and checks it ends in the attacker's win with every
    /// defender move forced.
    fn check_line(game: &Gomoku, line: &[Move]) {
        let attacker = game.side_to_move();
        let mut game = game.clone();
        for &mv in line {
            assert!(game.is_legal(mv), "{} illegal", game.format_move(mv));
            game.make(mv);
        }
        assert_eq!(game.outcome().and_then(|o| o.winner), Some(attacker));
    }

    /// The first line of the developers' puzzle set: Black's and White's stones.
    const FIRST_PUZZLE: (&[&str], &[&str]) = (
        &[
            "k4", "d7", "f7", "h7", "j7", "h8", "j9", "c10", "l10", "h11",
        ],
        &[
            "g4", "g5", "i5", "e7", "e9", "i10", "j10", "i11", "f12", "f13",
        ],
    );

    #[test]
    fn finds_the_given_vcf_puzzle() {
        let game = position(15, FIRST_PUZZLE.0, FIRST_PUZZLE.1, Side::Black);
        let stop = Stop::never();
        let mut solver = ThreatSolver::new(Side::Black, &stop);
        let (line, kind) = solver.solve(&game).expect("a VCF exists");
        assert_eq!(kind, Kind::Vcf);
        assert_eq!(line.len(), 11, "the shortest VCF has 6 attacker moves");
        check_line(&game, &line);
    }

    #[test]
    fn root_moves_keep_only_defences_against_a_vcf() {
        // The first puzzle's position with White to move: Black threatens a VCF.
        let game = position(15, FIRST_PUZZLE.0, FIRST_PUZZLE.1, Side::White);
        let stop = Stop::never();
        let mut all = Vec::new();
        crate::game::roles::Evaluate::search_moves(&game, &mut all);
        let mut kept = Vec::new();
        crate::game::roles::Evaluate::root_moves(&game, &mut kept, &stop);
        assert!(
            !kept.is_empty() && kept.len() < all.len(),
            "{} of {}",
            kept.len(),
            all.len()
        );
        for &mv in &kept {
            let mut after = game.clone();
            let four = game.threat(Side::White, mv.square()).is_four();
            after.make(mv);
            let refuted = ThreatSolver::new(Side::Black, &stop)
                .vcf(&mut after, MAX_VCF)
                .is_none();
            assert!(
                four || refuted,
                "{} keeps Black's VCF",
                game.format_move(mv)
            );
        }
    }

    #[test]
    fn no_win_from_nothing() {
        let game = position(15, &["h8"], &["h9"], Side::Black);
        let stop = Stop::never();
        assert!(ThreatSolver::new(Side::Black, &stop).solve(&game).is_none());
    }

    #[test]
    fn open_three_wins() {
        let game = position(
            15,
            &["h8", "h9", "i8", "j8"],
            &["a1", "a3", "o15", "o13"],
            Side::Black,
        );
        let stop = Stop::never();
        let (line, _) = ThreatSolver::new(Side::Black, &stop)
            .solve(&game)
            .expect("win");
        check_line(&game, &line);
    }
}
