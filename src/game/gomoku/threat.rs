//! Threat-space search for the five-in-a-row games.
//!
//! VCF (victory by continuous fours): the attacker plays only fours, so every defence is
//! forced. VCT adds quiet threats, moves that threaten an open four; after one, the
//! defender may block any point where the attacker would make a four, or counter with
//! a four of its own (and capture, at Pente), and every such defence must lose.
//! Failed positions are remembered with the budget they failed under.
//!
//! A solve tries VCF, then VCT by iterative deepening over threats along the lines of
//! the attacker's last stone (short wins), then, outside Pente, VCT by depth-first
//! proof-number search over every threat on the board (long wins).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::candidates::{add_captures, on_a_line};
use super::pattern::Threat;
use super::{Family, Gomoku};
use crate::game::roles::{Proof, ProofKind, WIN};
use crate::game::{Game, Move, Side};
use crate::stop::Stop;

/// Longest VCF tried, in attacker moves.
pub const MAX_VCF: u32 = 60;
/// Threats (fours and open threes) a VCT may make before its five.
pub const MAX_VCT_DEPTH: u32 = 12;
/// A solve's first VCT phase (iterative deepening) may take this share of the nodes
/// and time left before the proof-number search takes over, or `SHORT_VCT_NODES`
/// when the solve is unlimited.
const SHORT_VCT_SHARE: u64 = 4;
const SHORT_VCT_NODES: u64 = 1_000_000;
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
    /// Where the current phase of a solve stops, within `stop`'s limit.
    cap: u64,
    cap_time: Option<std::time::Instant>,
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
/// `moves` alone when there is no such threat or when no candidate defends. Candidates
/// are checked best first (by `point_key`); when `stop` comes first, the ones not yet
/// checked are kept beside the defences found.
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
    filter_defences(game, moves, &line, kind, |mv| {
        let undo = work.make(mv);
        let check = stop.clone().with_node_limit(DEFENCE_NODES);
        let refuted =
            work.outcome().is_some() || ThreatSolver::new(them, &check).threat(&mut work).is_none();
        work.unmake(mv, undo);
        (!stop.check(0)).then_some(refuted)
    });
}

/// `keep_defences` once the threat (`line`, of `kind`) is known: `defends(mv)` checks a
/// candidate, `None` when time ran out first. Candidates are checked best first (by
/// `point_key`), so that when time runs out the unchecked ones kept beside the
/// defences found are the less likely ones.
fn filter_defences(
    game: &Gomoku,
    moves: &mut Vec<Move>,
    line: &[Move],
    kind: Kind,
    mut defends: impl FnMut(Move) -> Option<bool>,
) {
    let me = game.side_to_move();
    let pente = game.config.family == Family::Pente;
    let four = |mv: Move| game.threat(me, mv.square()).is_four();
    // A continuous-fours threat is stopped on its line (or by a four, or a capture).
    let may_defend = |mv: Move| {
        kind != Kind::Vcf
            || line.contains(&mv)
            || four(mv)
            || (pente && game.capture_mask(mv.square()) != 0)
    };
    moves.sort_by_key(|&mv| (std::cmp::Reverse(game.point_key(mv)), mv.square()));
    let mut defences = Vec::new();
    for (index, &mv) in moves.iter().enumerate() {
        if !may_defend(mv) {
            continue;
        }
        if four(mv) {
            defences.push(mv);
            continue;
        }
        match defends(mv) {
            Some(true) => defences.push(mv),
            Some(false) => {}
            None => {
                // Out of time: what was checked still counts, the rest stays in.
                if !defences.is_empty() {
                    defences.extend(moves[index..].iter().copied().filter(|&mv| may_defend(mv)));
                    *moves = defences;
                }
                return;
            }
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
            cap: u64::MAX,
            cap_time: None,
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
        if game.config.family == Family::Pente {
            return self
                .vct(&mut work, MAX_VCT_DEPTH)
                .map(|line| (line, Kind::Vct));
        }
        // Short wins come fastest from iterative deepening along the lines of the
        // attacker's last stone; long ones from the proof-number search.
        let now = std::time::Instant::now();
        let limit = self.stop.node_limit();
        self.cap = match (limit, self.stop.deadline()) {
            (u64::MAX, None) => self.nodes + SHORT_VCT_NODES,
            (u64::MAX, Some(_)) => u64::MAX,
            (limit, _) => self.nodes + limit.saturating_sub(self.nodes) / SHORT_VCT_SHARE,
        };
        self.cap_time = self
            .stop
            .deadline()
            .map(|deadline| now + deadline.saturating_duration_since(now) / SHORT_VCT_SHARE as u32);
        let short = self.vct(&mut work, MAX_VCT_DEPTH);
        self.cap = u64::MAX;
        self.cap_time = None;
        if short.is_some() {
            return short.map(|line| (line, Kind::Vct));
        }
        self.stopped = self.nodes >= self.stop.node_limit() || self.stop.check(self.nodes);
        if self.stopped {
            return None;
        }
        self.vct_proof_number(&mut work)
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
        if Self::fours_only(game, self.attacker) {
            return None;
        }
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

    /// Black under renju wins by fours only here: a black three may be false (its four
    /// point forbidden), and the defences a VCT lists assume every three is real.
    fn fours_only(game: &Gomoku, attacker: Side) -> bool {
        game.config.renju && attacker == Side::Black
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
        if self.nodes >= self.stop.node_limit().min(self.cap)
            || (self.nodes & 1023 == 0
                && (self.stop.check(self.nodes)
                    || self
                        .cap_time
                        .is_some_and(|time| std::time::Instant::now() >= time)))
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
        } else if !game.is_legal(replies[0]) {
            // Black may not block on a forbidden point (renju): any other move, then the
            // five.
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            return Some(match moves.first() {
                Some(&other) => vec![replies[0], other],
                None => Vec::new(),
            });
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

    /// Defender to move after an attacker's threat: every defence must lose.
    fn vct_defend(
        &mut self,
        game: &mut Gomoku,
        depth: u32,
        last: Option<usize>,
    ) -> Option<Vec<Move>> {
        match self.defences(game) {
            Defences::AttackerWins(line) => Some(line),
            Defences::NoThreat => None,
            Defences::Moves(replies) => self.all_replies_lose(
                game,
                &replies,
                &mut |solver: &mut Self, game: &mut Gomoku| solver.vct_attack(game, depth, last),
            ),
        }
    }

    /// Defender to move after an attacker's threat: a five to block, or an open four to
    /// stop (at the points where the attacker would make a four, or with a four of its
    /// own, or a capture at Pente).
    fn defences(&mut self, game: &mut Gomoku) -> Defences {
        if let Some(outcome) = game.outcome() {
            return if outcome.winner == Some(self.attacker) {
                Defences::AttackerWins(Vec::new())
            } else {
                Defences::NoThreat
            };
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if game.threat_count(defender, Threat::Five) > 0 {
            return Defences::NoThreat;
        }
        let pente = game.config.family == Family::Pente;
        let mut replies = Vec::new();
        game.threat_fields(attacker, Threat::Five, &mut replies);
        if replies.len() >= 2 && !pente {
            return Defences::AttackerWins(vec![replies[1], replies[0]]);
        }
        if replies.is_empty() {
            // Against an open-four threat only a four of its own helps the defender;
            // against a threatened VCF, so may a three whose forced blocks become fours.
            let mut counter = Threat::Four;
            if game.threat_count(attacker, Threat::OpenFour) == 0 {
                if game.threat_count(attacker, Threat::Four) == 0 {
                    return Defences::NoThreat;
                }
                game.pass_turn();
                let threat = self.vcf(game, QUIET_THREAT_VCF);
                game.pass_turn();
                let Some(line) = threat else {
                    return Defences::NoThreat;
                };
                replies = line;
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
        replies.retain(|&mv| game.is_legal(mv));
        Defences::Moves(replies)
    }
}

/// Proof and disproof numbers: `proof == 0` is a proven win for the attacker,
/// `disproof == 0` a position with no win by threats within the search's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u32,
    disproof: u32,
}

/// Larger than any real count; sums saturate at it.
const INFINITE: u32 = u32::MAX / 4;
const WON: Numbers = Numbers {
    proof: 0,
    disproof: INFINITE,
};
const NOT_WON: Numbers = Numbers {
    proof: INFINITE,
    disproof: 0,
};
const UNKNOWN: Numbers = Numbers {
    proof: 1,
    disproof: 1,
};

/// Positions the proof-number search remembers before it starts over: the most a map
/// of 2^20 buckets holds (about 25 MB).
const MAX_PROOF_ENTRIES: usize = 900_000;
/// Threats (fours and threes) the proof-number search allows before the five.
pub const MAX_PN_THREATS: u32 = 24;
/// Of those, how many first ones may be quiet threats (a three that threatens
/// continuous fours): later, only fours and open threes.
const QUIET_FIRST: u32 = 2;

fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INFINITE)
}

/// The attacker's choices, attacker to move.
enum Attacks {
    Won,
    NotWon,
    Moves(Vec<Move>, Forced),
}

/// Whether the attacker's only move is a forced block (which spends no threat).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Forced {
    Block,
    Threats,
}

impl ThreatSolver<'_> {
    /// A win by threats (fours and threes) found by depth-first proof-number search
    /// (df-pn): it follows the narrowest forcing lines first, so it reaches much longer
    /// wins than the iterative deepening of `vct`. Threats anywhere on the board are
    /// tried (see `QUIET_FIRST`). The line is a winning one, not necessarily the
    /// shortest. Gomoku only (no captures, so positions are keyed without making moves).
    pub fn vct_proof_number(&mut self, game: &mut Gomoku) -> Option<Vec<Move>> {
        if Self::fours_only(game, self.attacker) {
            return None;
        }
        debug_assert!(game.config.family != Family::Pente);
        let mut table = ProofTable::default();
        let root = Numbers {
            proof: INFINITE,
            disproof: INFINITE,
        };
        let numbers = self.mid(game, &mut table, true, root, MAX_PN_THREATS);
        if numbers.proof != 0 {
            return None;
        }
        self.proven_line(game, &table)
    }

    fn attacks(&mut self, game: &Gomoku, threats: u32) -> Attacks {
        if let Some(outcome) = game.outcome() {
            return if outcome.winner == Some(self.attacker) {
                Attacks::Won
            } else {
                Attacks::NotWon
            };
        }
        let me = self.attacker;
        if game.threat_count(me, Threat::Five) > 0 {
            return Attacks::Won;
        }
        let mut cells = Vec::new();
        game.threat_fields(me.opponent(), Threat::Five, &mut cells);
        match cells.len() {
            0 => {}
            1 if game.is_legal(cells[0]) => return Attacks::Moves(cells, Forced::Block),
            _ => return Attacks::NotWon,
        }
        if threats == 0 {
            return Attacks::NotWon;
        }
        let weakest = if threats + QUIET_FIRST > MAX_PN_THREATS {
            Threat::Three
        } else {
            Threat::OpenThree
        };
        game.threat_fields(me, weakest, &mut cells);
        cells.retain(|&mv| game.is_legal(mv));
        if cells.is_empty() {
            return Attacks::NotWon;
        }
        cells.sort_by_key(|&mv| {
            std::cmp::Reverse((game.threat(me, mv.square()), game.value(me, mv.square())))
        });
        Attacks::Moves(cells, Forced::Threats)
    }

    /// The df-pn "multiple iterative deepening" step: searches below `game` until its
    /// numbers reach `limit` (either of them), and stores them.
    fn mid(
        &mut self,
        game: &mut Gomoku,
        table: &mut ProofTable,
        attacker_to_move: bool,
        limit: Numbers,
        threats: u32,
    ) -> Numbers {
        let key = game.hash();
        if self.tick() {
            return table.numbers(key, threats);
        }
        let (moves, child_threats) = if attacker_to_move {
            match self.attacks(game, threats) {
                Attacks::Won => return table.store(key, WON, threats),
                Attacks::NotWon => return table.store(key, NOT_WON, threats),
                Attacks::Moves(moves, Forced::Block) => (moves, threats),
                Attacks::Moves(moves, Forced::Threats) => (moves, threats - 1),
            }
        } else {
            match self.defences(game) {
                Defences::AttackerWins(_) => return table.store(key, WON, threats),
                Defences::NoThreat => return table.store(key, NOT_WON, threats),
                Defences::Moves(moves) if moves.is_empty() => {
                    return table.store(key, NOT_WON, threats);
                }
                Defences::Moves(moves) => (moves, threats),
            }
        };
        loop {
            // The node's numbers from its children's: the attacker needs one child
            // proven, the defender one child disproven.
            let (mut sum, mut best, mut best_index, mut second) = (0, INFINITE + 1, 0, INFINITE);
            let mut best_child = UNKNOWN;
            for (index, &mv) in moves.iter().enumerate() {
                let child = table
                    .get(game.hash_after(mv), child_threats)
                    .unwrap_or_else(|| self.first_numbers(game, mv, attacker_to_move));
                let (chosen_by, summed) = if attacker_to_move {
                    (child.proof, child.disproof)
                } else {
                    (child.disproof, child.proof)
                };
                sum = add(sum, summed);
                if chosen_by < best {
                    second = best.min(INFINITE);
                    best = chosen_by;
                    best_index = index;
                    best_child = child;
                } else if chosen_by < second {
                    second = chosen_by;
                }
            }
            let numbers = if attacker_to_move {
                Numbers {
                    proof: best,
                    disproof: sum,
                }
            } else {
                Numbers {
                    proof: sum,
                    disproof: best,
                }
            };
            if numbers.proof >= limit.proof || numbers.disproof >= limit.disproof || self.stopped {
                return table.store(key, numbers, threats);
            }
            let (mv, child) = (moves[best_index], best_child);
            // The 1 + epsilon trick: a child keeps the search a little past the
            // point where its sibling would be as good, to avoid switching back and forth.
            let widened = add(second, second / 4 + 1);
            let child_limit = if attacker_to_move {
                Numbers {
                    proof: limit.proof.min(widened),
                    disproof: add(limit.disproof.saturating_sub(sum), child.disproof),
                }
            } else {
                Numbers {
                    proof: add(limit.proof.saturating_sub(sum), child.proof),
                    disproof: limit.disproof.min(widened),
                }
            };
            let undo = game.make(mv);
            self.mid(game, table, !attacker_to_move, child_limit, child_threats);
            game.unmake(mv, undo);
            if self.stopped {
                return table.numbers(key, threats);
            }
        }
    }

    /// A child's numbers before it is searched: a four leaves one reply, a three a few.
    fn first_numbers(&self, game: &Gomoku, mv: Move, attacker_to_move: bool) -> Numbers {
        if !attacker_to_move {
            return UNKNOWN;
        }
        let proof = match game.threat(self.attacker, mv.square()) {
            Threat::Five | Threat::OpenFour | Threat::Four | Threat::FourThree => 1,
            Threat::OpenThree | Threat::DoubleThree => 3,
            _ => 6,
        };
        Numbers { proof, disproof: 1 }
    }

    /// Follows the proven children from the root: the attacker's proven move, and any
    /// defence, to the five.
    fn proven_line(&mut self, game: &Gomoku, table: &ProofTable) -> Option<Vec<Move>> {
        let mut work = game.clone();
        let mut line = Vec::new();
        let mut threats = MAX_PN_THREATS;
        let proven = |work: &Gomoku, mv: Move| table.numbers(work.hash_after(mv), 0).proof == 0;
        loop {
            if work.outcome().is_some() {
                break;
            }
            let mv = if work.side_to_move() == self.attacker {
                let mut fives = Vec::new();
                work.threat_fields(self.attacker, Threat::Five, &mut fives);
                if let Some(&five) = fives.first() {
                    line.push(five);
                    break;
                }
                match self.attacks(&work, threats) {
                    Attacks::Moves(moves, forced) => {
                        if forced == Forced::Threats {
                            threats -= 1;
                        }
                        moves.into_iter().find(|&mv| proven(&work, mv))?
                    }
                    _ => return None,
                }
            } else {
                match self.defences(&mut work) {
                    Defences::AttackerWins(rest) => {
                        line.extend(rest);
                        break;
                    }
                    Defences::NoThreat => return None,
                    Defences::Moves(moves) => moves.into_iter().find(|&mv| proven(&work, mv))?,
                }
            };
            work.make(mv);
            line.push(mv);
        }
        Some(line)
    }
}

/// The proof-number search's positions: their numbers, and the threats that were left
/// when they were stored, since a position out of threats is not won but may be with more.
#[derive(Default)]
struct ProofTable {
    entries: HashMap<u64, (Numbers, u32), ZobristHasher>,
}

impl ProofTable {
    /// What is known of `key` with `threats` left.
    fn numbers(&self, key: u64, threats: u32) -> Numbers {
        self.get(key, threats).unwrap_or(UNKNOWN)
    }

    /// What is known of `key` with `threats` left, if anything: a position that ran out
    /// of fewer threats is not known.
    fn get(&self, key: u64, threats: u32) -> Option<Numbers> {
        match self.entries.get(&key) {
            Some(&(numbers, stored)) if numbers.disproof != 0 || stored >= threats => Some(numbers),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, numbers: Numbers, threats: u32) -> Numbers {
        if self.entries.len() >= MAX_PROOF_ENTRIES && !self.entries.contains_key(&key) {
            self.entries.clear();
        }
        self.entries.insert(key, (numbers, threats));
        numbers
    }
}

/// The defender's choices after an attacker's threat.
enum Defences {
    /// The attacker has won, or wins whatever the defender does (the line shows how).
    AttackerWins(Vec<Move>),
    /// No threat stands, or the defender wins first.
    NoThreat,
    /// Every one of these must lose for the threat to win.
    Moves(Vec<Move>),
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
        // The root's candidates, before the filter.
        let mut all = Vec::new();
        crate::game::gomoku::candidates::candidates(&game, &mut all);
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
    fn defences_checked_before_time_runs_out_still_count() {
        // The first puzzle's position with White to move: Black threatens a VCF.
        let game = position(15, FIRST_PUZZLE.0, FIRST_PUZZLE.1, Side::White);
        let mut black = game.clone();
        black.pass_turn();
        let (line, kind) = ThreatSolver::new(Side::Black, &Stop::never())
            .threat(&mut black)
            .expect("Black threatens continuous fours");
        assert_eq!(kind, Kind::Vcf);
        // The root's candidates, before the filter.
        let mut all = Vec::new();
        crate::game::gomoku::candidates::candidates(&game, &mut all);
        // Three candidates checked (the first said to defend), then the time is up.
        let mut checked = Vec::new();
        let mut moves = all.clone();
        filter_defences(&game, &mut moves, &line, kind, |mv| {
            checked.push(mv);
            match checked.len() {
                1 => Some(true),
                2 | 3 => Some(false),
                _ => None,
            }
        });
        assert_eq!(checked.len(), 4);
        assert_eq!(moves[0], checked[0], "the defence found comes first");
        for refuted in &checked[1..3] {
            assert!(
                !moves.contains(refuted),
                "a move shown not to defend is dropped"
            );
        }
        assert!(
            moves.contains(&checked[3]),
            "the move whose check ran out stays"
        );
        for &mv in &moves {
            let four = game.threat(Side::White, mv.square()).is_four();
            assert!(
                line.contains(&mv) || four,
                "off the VCF's line: {}",
                game.format_move(mv)
            );
        }
        // Checked best first: no unchecked candidate on the line ranks above a checked one.
        let key = |mv: Move| game.point_key(mv);
        let unchecked_best = moves[1..]
            .iter()
            .filter(|mv| !checked.contains(mv))
            .map(|&mv| key(mv))
            .max();
        assert!(unchecked_best.is_none_or(|best| checked.iter().all(|&mv| key(mv) >= best)));
        // No time at all for the first check: the candidates stay as they were.
        let mut moves = all.clone();
        filter_defences(&game, &mut moves, &line, kind, |_| None);
        let (mut before, mut after) = (all.clone(), moves.clone());
        before.sort_unstable();
        after.sort_unstable();
        assert_eq!(before, after);
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

    /// From arbor's game against Rapfi (classical) in which Rapfi announced a mate: a
    /// win of 19 plies that iterative deepening does not reach within 100,000 nodes.
    #[test]
    fn proof_number_search_reaches_a_long_win() {
        let black = [
            "i6", "g11", "h7", "i8", "j7", "i10", "k6", "k9", "l6", "n5", "j6", "i5", "i11", "g4",
            "f4", "j3", "j2", "g1", "e7", "h11", "j12",
        ];
        let white = [
            "k8", "j8", "j5", "j9", "l7", "i7", "h9", "l5", "m6", "k5", "h6", "h4", "i4", "g5",
            "j4", "i3", "h2", "f6", "j10", "j11", "i12",
        ];
        let game = position(15, &black, &white, Side::Black);
        let stop = Stop::never().with_node_limit(100_000);
        let mut deepening = ThreatSolver::new(Side::Black, &stop);
        assert!(deepening.vct(&mut game.clone(), MAX_VCT_DEPTH).is_none());
        let stop = Stop::never().with_node_limit(150_000);
        let mut solver = ThreatSolver::new(Side::Black, &stop);
        let line = solver
            .vct_proof_number(&mut game.clone())
            .expect("a win by threats");
        assert!(line.len() >= 15, "{} plies", line.len());
        check_line(&game, &line);
        // The whole solve finds it too, and says how.
        let (line, kind) = ThreatSolver::new(Side::Black, &stop).solve(&game).unwrap();
        assert_eq!(kind, Kind::Vct);
        check_line(&game, &line);
    }

    /// A proof-number win must hold against every reply, not only the defences the
    /// solver generates: after each, the attacker still wins. (Wine announced this one
    /// in a game against arbor.)
    #[test]
    fn proof_number_wins_hold_against_every_reply() {
        let game = position(
            15,
            &[
                "k11", "h7", "f9", "i9", "h13", "g8", "h8", "i6", "h11", "g13", "h9", "h5",
            ],
            &[
                "e10", "j11", "f11", "g12", "g9", "g11", "j10", "j5", "g10", "e12", "h10",
            ],
            Side::White,
        );
        let stop = Stop::never().with_node_limit(200_000);
        let line = ThreatSolver::new(Side::White, &stop)
            .vct_proof_number(&mut game.clone())
            .expect("a win by threats");
        check_line(&game, &line);
        let mut after = game.clone();
        after.make(line[0]);
        let mut replies = Vec::new();
        after.generate_moves(&mut replies);
        for reply in replies {
            let mut position = after.clone();
            position.make(reply);
            if position.outcome().is_some() {
                panic!("{} ends the game", game.format_move(reply));
            }
            let stop = Stop::never().with_node_limit(200_000);
            let (line, _) = ThreatSolver::new(Side::White, &stop)
                .solve(&position)
                .unwrap_or_else(|| panic!("{} escapes", game.format_move(reply)));
            check_line(&position, &line);
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
