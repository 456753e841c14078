//! Exact solving of small boards (tic-tac-toe, 5x5 Gomoku): alpha-beta over every legal
//! move with a transposition table. Only provably forced moves are pruned: a point that
//! wins at once, or blocking the opponent's only winning point.

use super::Gomoku;
use super::pattern::Threat;
use crate::game::roles::{Evaluate, Proof, Score, WIN, win_from_node, win_to_node};
use crate::game::{Game, Move};
use crate::memory::{Zeroable, ZeroedTable};
use crate::stop::Stop;

/// 16 bytes, aligned so that no entry straddles two cache lines.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Entry {
    key: u64,
    /// Distance-free: a win scores `WIN - plies from this node`.
    score: Score,
    bound: u8,
    best: u16,
}

// SAFETY: integers only; all zero is an empty entry (`bound` 0).
unsafe impl Zeroable for Entry {}

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

/// The exact solver's table, kept from one solve to the next (entries are keyed by the
/// whole position hash and hold distance-free scores).
pub struct ExactTable(ZeroedTable<Entry>);

impl ExactTable {
    /// A table of `bytes` (16 per entry, at least one entry), or an error when the
    /// memory cannot be had.
    pub fn try_new(bytes: usize) -> Result<ExactTable, String> {
        let entries = bytes / std::mem::size_of::<Entry>();
        let table = ZeroedTable::new(entries, "the exact solver's table")?;
        Ok(ExactTable(table))
    }

    pub fn clear(&mut self) {
        self.0.fill(Entry::default());
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.0.len() as u128) >> 64) as usize
    }
}

struct Solver<'a> {
    table: &'a mut ExactTable,
    nodes: u64,
    stop: &'a Stop,
    stopped: bool,
    buffers: Vec<Vec<Move>>,
}

pub(super) fn solve(game: &Gomoku, table: &mut ExactTable, stop: &Stop) -> Option<Proof> {
    let mut solver = Solver {
        table,
        nodes: 0,
        stop,
        stopped: false,
        buffers: vec![Vec::new(); game.empties() as usize + 2],
    };
    let mut work = game.clone();
    let score = solver.negamax(&mut work, -WIN - 1, WIN + 1, 0);
    if solver.stopped {
        return None;
    }
    let pv = solver.principal_variation(game);
    Some(Proof::exact(score, pv, solver.nodes))
}

impl Solver<'_> {
    fn negamax(&mut self, game: &mut Gomoku, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.stop.check(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if game.outcome().is_some() {
            return game.final_score();
        }
        let me = game.side_to_move();
        if game.threat_count(me, Threat::Five) > 0 {
            return WIN - 1;
        }
        let key = game.hash();
        let slot = self.table.slot(key);
        let entry = self.table.0[slot];
        let mut tt_move = None;
        if entry.key == key && entry.bound != 0 {
            let cut = match entry.bound {
                EXACT => true,
                LOWER => entry.score >= beta,
                _ => entry.score <= alpha,
            };
            if cut {
                return entry.score;
            }
            tt_move = Some(Move::from_bits(entry.best));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let them = me.opponent();
        if game.config.family != super::Family::Pente && game.threat_count(them, Threat::Five) > 0 {
            game.threat_fields(them, Threat::Five, &mut moves);
            moves.retain(|&mv| game.is_legal(mv));
        } else {
            game.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            game.generate_moves(&mut moves);
        }
        moves.sort_by_key(|&mv| {
            if Some(mv) == tt_move {
                i32::MIN
            } else {
                -game.order_key(mv)
            }
        });
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for &mv in moves.iter() {
            let undo = game.make(mv);
            // The child's window and score, one ply further from the wins and losses.
            let child = self.negamax(game, -win_to_node(beta, 1), -win_to_node(alpha, 1), ply + 1);
            let score = -win_from_node(child, 1);
            game.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            LOWER
        } else if best <= original_alpha {
            UPPER
        } else {
            EXACT
        };
        self.table.0[slot] = Entry {
            key,
            score: best,
            bound,
            best: best_move.to_bits(),
        };
        best
    }

    fn principal_variation(&self, game: &Gomoku) -> Vec<Move> {
        let mut game = game.clone();
        let mut pv = Vec::new();
        while game.outcome().is_none() {
            let me = game.side_to_move();
            let mv = if game.threat_count(me, Threat::Five) > 0 {
                let mut fives = Vec::new();
                game.threat_fields(me, Threat::Five, &mut fives);
                fives[0]
            } else {
                let entry = self.table.0[self.table.slot(game.hash())];
                let mv = Move::from_bits(entry.best);
                if entry.key != game.hash() || !game.is_legal(mv) {
                    break;
                }
                mv
            };
            pv.push(mv);
            game.make(mv);
        }
        pv
    }
}
