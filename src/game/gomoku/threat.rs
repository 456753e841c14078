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
use crate::game::roles::{Proof, ProofKind, WIN};
use crate::game::{Game, Move, Side};
use crate::stop::Stop;

/// Longest VCF tried, in attacker moves.
pub const MAX_VCF: u32 = 60;
/// Threats (fours and open threes) a VCT may make before its five.
pub const MAX_VCT_DEPTH: u32 = 12;
/// Fours a quiet move may threaten to win with, to count as a threat.
const QUIET_THREAT_VCF: u32 = 6;
/// How far along the lines through the attacker's last stone its next threat may go.
const THREAT_REACH: usize = 4;

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
    /// VCT failures: position → threats budget that failed.
    vct_failed: HashMap<u64, u32, ZobristHasher>,
}

/// A forced win for the side to move: VCF first, then VCT, until `stop`.
pub fn find_win(game: &Gomoku, stop: &Stop) -> Option<Proof> {
    let mut solver = ThreatSolver::new(game.side_to_move(), stop);
    let started = std::time::Instant::now();
    let found = solver.solve(game);
    log::debug!(
        "threat search: {} in {} nodes, {} ms",
        if found.is_some() { "win" } else { "no win" },
        solver.nodes,
        started.elapsed().as_millis()
    );
    let (line, kind) = found?;
    let kind = match kind {
        Kind::Vcf => ProofKind::Vcf,
        Kind::Vct => ProofKind::Vct,
    };
    Some(Proof::exact(WIN - line.len() as i32, line, solver.nodes).by(kind))
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
/// Threats tried when checking whether the opponent has a VCT to defend against.
const DEFENCE_VCT: u32 = 8;
/// Nodes one check of a candidate defence may take.
const DEFENCE_NODES: u64 = 20_000;

/// When the opponent of the side to move would win by threats (continuous fours, else
/// fours and threes) if it were its turn, keeps only the candidate moves after which it
/// no longer can, and the side to move's own fours, which keep the initiative. Leaves
/// `moves` alone when there is no such threat, when no candidate defends, or when `stop`
/// comes first.
pub fn keep_defences(game: &Gomoku, moves: &mut Vec<Move>, stop: &Stop) {
    let me = game.side_to_move();
    let them = me.opponent();
    if game.threat_count(them, Threat::Five) > 0 || game.threat_count(me, Threat::Five) > 0 {
        return;
    }
    let mut work = game.clone();
    work.pass_turn();
    let threat = ThreatSolver::new(them, stop).threat(&mut work);
    work.pass_turn();
    let Some((line, kind)) = threat else {
        return;
    };
    let pente = game.config.family == Family::Pente;
    let mut defences = Vec::new();
    for &mv in moves.iter() {
        let four = game.threat(me, mv.square()).is_four();
        let capture = pente && game.capture_mask(mv.square()) != 0;
        // A continuous-fours threat is stopped on its line (or by a four, or a capture).
        if kind == Kind::Vcf && !(line.contains(&mv) || four || capture) {
            continue;
        }
        if four {
            defences.push(mv);
            continue;
        }
        let undo = work.make(mv);
        let check = stop.clone().with_node_limit(DEFENCE_NODES);
        let refuted =
            work.outcome().is_some() || ThreatSolver::new(them, &check).threat(&mut work).is_none();
        work.unmake(mv, undo);
        if stop.check(0) {
            return;
        }
        if refuted {
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
        self.vct(&mut work, MAX_VCT_DEPTH)
            .map(|line| (line, Kind::Vct))
    }

    /// A short forced win for the side to move: continuous fours, else a VCT of a few
    /// threats, as checked when defending.
    fn threat(&mut self, game: &mut Gomoku) -> Option<(Vec<Move>, Kind)> {
        if let Some(line) = self.vcf(game, DEFENCE_VCF) {
            return Some((line, Kind::Vcf));
        }
        self.vct(game, DEFENCE_VCT).map(|line| (line, Kind::Vct))
    }

    /// Iterative deepening over the number of threats, so the line found is short.
    fn vct(&mut self, game: &mut Gomoku, max_threats: u32) -> Option<Vec<Move>> {
        for depth in 1..=max_threats {
            if self.stopped {
                return None;
            }
            if let Some(mut line) = self.vct_attack(game, depth, None) {
                line.reverse();
                return Some(line);
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

    /// Attacker to move: a win within `depth` threats (fours and open threes) before the
    /// five, each after the first on a line through the attacker's previous stone unless
    /// it makes two threats at once. The line comes back reversed.
    fn vct_attack(
        &mut self,
        game: &mut Gomoku,
        depth: u32,
        last: Option<usize>,
    ) -> Option<Vec<Move>> {
        if self.tick() {
            return None;
        }
        let me = game.side_to_move();
        let them = me.opponent();
        let mut cells = Vec::new();
        game.threat_fields(me, Threat::Five, &mut cells);
        if let Some(&five) = cells.first() {
            return Some(vec![five]);
        }
        let pente = game.config.family == Family::Pente;
        game.threat_fields(them, Threat::Five, &mut cells);
        match cells.len() {
            0 => {}
            1 => {
                // The block is the attacker's move; it must leave a threat standing.
                let block = cells[0];
                if !game.is_legal(block) {
                    return None;
                }
                let undo = game.make(block);
                let found = self.vct_defend(game, depth, last);
                game.unmake(block, undo);
                return found.map(|mut line| {
                    line.push(block);
                    line
                });
            }
            _ if !pente => return None,
            _ => {}
        }
        if depth == 0 {
            return None;
        }
        let key = game.hash();
        if self
            .vct_failed
            .get(&key)
            .is_some_and(|&failed| failed >= depth)
        {
            return None;
        }
        game.threat_fields(me, Threat::Three, &mut cells);
        let size = game.config.size;
        cells.retain(|&mv| {
            let threat = game.threat(me, mv.square());
            game.is_legal(mv)
                && (threat >= Threat::FourThree
                    || threat == Threat::DoubleThree
                    || last.is_none_or(|from| {
                        threat >= Threat::OpenThree
                            && on_a_line(size, from, mv.square(), THREAT_REACH)
                    }))
        });
        cells.sort_by_key(|&mv| {
            std::cmp::Reverse((game.threat(me, mv.square()), game.value(me, mv.square())))
        });
        for &attack in &cells {
            let undo = game.make(attack);
            let found = self.vct_defend(game, depth - 1, Some(attack.square()));
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
            self.vct_failed.insert(key, depth);
        }
        None
    }

    /// Defender to move after an attacker's threat: a five to block, or an open four to
    /// stop (at the points where the attacker would make a four, or with a four of its
    /// own, or a capture at Pente). Every defence must lose.
    fn vct_defend(
        &mut self,
        game: &mut Gomoku,
        depth: u32,
        last: Option<usize>,
    ) -> Option<Vec<Move>> {
        if let Some(outcome) = game.outcome() {
            return (outcome.winner == Some(self.attacker)).then(Vec::new);
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if game.threat_count(defender, Threat::Five) > 0 {
            return None;
        }
        let pente = game.config.family == Family::Pente;
        let mut replies = Vec::new();
        game.threat_fields(attacker, Threat::Five, &mut replies);
        if replies.len() >= 2 && !pente {
            return Some(vec![replies[1], replies[0]]);
        }
        if replies.is_empty() {
            // Against an open-four threat only a four of its own helps the defender;
            // against a threatened VCF, so may a three whose forced blocks become fours.
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
        }
        if pente {
            add_captures(game, &mut replies);
        }
        replies.sort_unstable();
        replies.dedup();
        self.all_replies_lose(
            game,
            &replies,
            &mut |solver: &mut Self, game: &mut Gomoku| solver.vct_attack(game, depth, last),
        )
    }
}

/// Whether fields `a` and `b` of a `size` board share a row, column or diagonal within
/// `reach` points.
pub(super) fn on_a_line(size: usize, a: usize, b: usize, reach: usize) -> bool {
    let (ar, ac) = ((a / size) as isize, (a % size) as isize);
    let (br, bc) = ((b / size) as isize, (b % size) as isize);
    let (dr, dc) = (br - ar, bc - ac);
    let far = dr.abs().max(dc.abs()) as usize;
    far <= reach && (dr == 0 || dc == 0 || dr.abs() == dc.abs())
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

    /// Positions from arbor's games against Wine 2.1 in which Wine announced a forced
    /// win (VCT): the solver must find one too.
    #[test]
    fn finds_the_wins_an_opponent_announced_in_real_games() {
        let positions: [(&[&str], &[&str], Side); 3] = [
            (
                &["g8", "g9", "h10", "h8"],
                &["f8", "h9", "i10", "j11"],
                Side::Black,
            ),
            (
                &["g7", "h8", "i10", "i8", "j10", "j9"],
                &["g10", "g12", "g8", "g9", "h9", "j11"],
                Side::Black,
            ),
            (
                &["f7", "g6", "h8", "j7"],
                &["g8", "h9", "j11", "k11"],
                Side::Black,
            ),
        ];
        let stop = Stop::never().with_node_limit(200_000);
        for (black, white, side) in positions {
            let game = position(15, black, white, side);
            let (line, _) = ThreatSolver::new(side, &stop)
                .solve(&game)
                .unwrap_or_else(|| panic!("no win found in {black:?} / {white:?}"));
            check_line(&game, &line);
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
