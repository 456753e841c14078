//! Micro-benchmarks of the hot paths: Othello move generation, flips and pattern
//! evaluation (from scratch, and kept by make/unmake), Gomoku make/unmake, transposition
//! table probe/store.
//! Run: `cargo bench --bench hot_paths`.

use std::hint::black_box;

use arbor::game::gomoku::{Config, Gomoku, Opening};
use arbor::game::othello::{Othello, Rule, bitboard, pattern};
use arbor::game::{Game, Move};
use arbor::search::tt::{Bound, TranspositionTable, TtEntry};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every ply of a few seeded random 8x8 games.
fn othello_games() -> Vec<Othello> {
    let mut rng = StdRng::seed_from_u64(1);
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for _ in 0..8 {
        let mut game = Othello::standard();
        loop {
            game.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            positions.push(game.clone());
            game.make(moves[rng.random_range(0..moves.len())]);
        }
    }
    positions
}

fn evaluate_all(positions: &[(u64, u64)], evaluate: impl Fn(u64, u64) -> i32) -> i32 {
    positions
        .iter()
        .fold(0, |acc, &(p, o)| acc ^ evaluate(black_box(p), black_box(o)))
}

fn othello(c: &mut Criterion) {
    let games = othello_games();
    let positions: Vec<(u64, u64)> = games.iter().map(|g| (g.player(), g.opponent())).collect();
    let mut group = c.benchmark_group("othello");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, &(p, o)| {
                acc ^ bitboard::legal_moves(black_box(p), black_box(o), !0)
            })
        })
    });

    let moves: Vec<(usize, u64, u64)> = positions
        .iter()
        .flat_map(|&(p, o)| {
            bitboard::Squares(bitboard::legal_moves(p, o, !0)).map(move |square| (square, p, o))
        })
        .collect();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            moves.iter().fold(0u64, |acc, &(square, p, o)| {
                acc ^ bitboard::flips(black_box(square), black_box(p), black_box(o))
            })
        })
    });

    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        group.bench_function("flips_avx2", |b| {
            b.iter(|| {
                moves.iter().fold(0u64, |acc, &(square, p, o)| {
                    // SAFETY: AVX2 was detected.
                    acc ^ unsafe {
                        bitboard::flips_avx2(black_box(square), black_box(p), black_box(o))
                    }
                })
            })
        });
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function("legal_moves_avx2", |b| {
            b.iter(|| {
                positions.iter().fold(0u64, |acc, &(p, o)| {
                    // SAFETY: AVX2 was detected.
                    acc ^ unsafe { bitboard::legal_moves_avx2(black_box(p), black_box(o), !0) }
                })
            })
        });
    }

    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("pattern_evaluate", |b| {
        b.iter(|| evaluate_all(&positions, |p, o| pattern::evaluate(Rule::Normal, p, o)))
    });
    group.bench_function("pattern_portable", |b| {
        b.iter(|| evaluate_all(&positions, pattern::evaluate_portable))
    });
    if pattern::evaluate_pext(0, 0).is_some() {
        group.bench_function("pattern_pext", |b| {
            b.iter(|| {
                evaluate_all(&positions, |p, o| {
                    pattern::evaluate_pext(p, o).unwrap_or_default()
                })
            })
        });
    }

    // Every legal move's child evaluated: by make, the kept features and unmake, as the
    // search does, and from scratch on the child's bitboards.
    let children: Vec<(Othello, Move)> = games
        .iter()
        .flat_map(|game| {
            bitboard::Squares(game.move_mask())
                .map(|square| (game.clone(), Move::new(square as u16)))
        })
        .collect();
    group.throughput(Throughput::Elements(children.len() as u64));
    group.bench_function("child_incremental", |b| {
        let mut children = children.clone();
        b.iter(|| {
            children.iter_mut().fold(0, |acc, (game, mv)| {
                let undo = game.make(black_box(*mv));
                let value = game.pattern_evaluation().unwrap_or_default();
                game.unmake(*mv, undo);
                acc ^ value
            })
        })
    });
    group.bench_function("child_scratch", |b| {
        b.iter(|| {
            children.iter().fold(0, |acc, (game, mv)| {
                let square = black_box(mv.square());
                let flipped = bitboard::flips(square, game.player(), game.opponent());
                let child_player = game.opponent() ^ flipped;
                let child_opponent = game.player() | flipped | bitboard::square_bit(square);
                acc ^ pattern::evaluate(Rule::Normal, child_player, child_opponent)
            })
        })
    });
    group.finish();
}

/// 15x15 freestyle Gomoku: a seeded random sequence of moves that does not end the game,
/// made and then unmade.
fn gomoku(c: &mut Criterion) {
    let start = Gomoku::new(Config::gomoku(15, false, Opening::Free)).expect("15x15 gomoku");
    let mut rng = StdRng::seed_from_u64(2);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut line: Vec<Move> = Vec::new();
    while line.len() < 60 {
        game.generate_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        let undo = game.make(mv);
        if game.outcome().is_some() {
            game.unmake(mv, undo);
        } else {
            line.push(mv);
        }
    }

    let mut group = c.benchmark_group("gomoku15");
    group.throughput(Throughput::Elements(line.len() as u64));
    let mut game = start;
    let mut undos = Vec::with_capacity(line.len());
    group.bench_function("make_unmake", |b| {
        b.iter(|| {
            for &mv in &line {
                undos.push(game.make(black_box(mv)));
            }
            for &mv in line.iter().rev() {
                game.unmake(mv, undos.pop().expect("one undo per move"));
            }
            game.hash()
        })
    });
    group.finish();
}

/// A 64 MiB table and a million random keys: as in a search, accesses spread over the
/// whole table, far beyond L2.
fn transposition_table(c: &mut Criterion) {
    let table = TranspositionTable::new(64);
    table.clear();
    let mut rng = StdRng::seed_from_u64(3);
    let keys: Vec<u64> = (0..1 << 20).map(|_| rng.random()).collect();
    let entry = |key: u64| TtEntry {
        best: Move::new((key % 64) as u16),
        score: (key >> 40) as i32 % 1000,
        depth: (key >> 8) as u8 % 20,
        bound: Bound::Exact,
    };

    let mut group = c.benchmark_group("tt64");
    group.sample_size(20);
    group.throughput(Throughput::Elements(keys.len() as u64));
    group.bench_function("store", |b| {
        b.iter(|| {
            for &key in &keys {
                table.store(black_box(key), entry(key));
            }
        })
    });
    group.bench_function("probe", |b| {
        b.iter(|| {
            keys.iter()
                .filter(|&&key| table.probe(black_box(key)).is_some())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, othello, gomoku, transposition_table);
criterion_main!(benches);
