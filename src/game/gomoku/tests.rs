use super::*;
use crate::game::roles::Evaluate;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn game(config: Config) -> Gomoku {
    Gomoku::new(config).unwrap()
}

fn play(game: &mut Gomoku, moves: &str) {
    for name in moves.split_whitespace() {
        let mv = game.parse_move(name).unwrap();
        assert!(game.is_legal(mv), "{name} illegal\n{}", game.diagram());
        game.make(mv);
    }
}

fn winner(game: &Gomoku) -> Option<Option<Side>> {
    game.outcome().map(|o| o.winner)
}

#[test]
fn centre_opening_and_five_in_every_direction() {
    let g = game(Config::gomoku(15, false, Opening::Center));
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    assert_eq!(moves, vec![g.parse_move("h8").unwrap()]);
    assert!(!g.is_legal(g.parse_move("a1").unwrap()));
    // Row, column and both diagonals, black to complete.
    for (black, white, last) in [
        ("h8 i8 j8 k8", "a1 a2 a3 a4", "l8"),
        ("h8 h9 h10 h11", "a1 a2 a3 a4", "h12"),
        ("h8 i9 j10 k11", "a1 a2 a3 a4", "g7"),
        ("h8 g9 f10 e11", "a1 a2 a3 a4", "i7"),
    ] {
        let mut g = game(Config::gomoku(15, false, Opening::Center));
        for (b, w) in black.split(' ').zip(white.split(' ')) {
            play(&mut g, &format!("{b} {w}"));
        }
        assert_eq!(winner(&g), None);
        play(&mut g, last);
        assert_eq!(winner(&g), Some(Some(Side::Black)), "{black} {last}");
        g.check_consistency().unwrap();
    }
}

#[test]
fn overlines_win_only_under_freestyle() {
    for exact in [false, true] {
        let mut g = game(Config::gomoku(15, exact, Opening::Free));
        // Black: a1 b1 c1 e1 f1, then d1 makes six.
        play(&mut g, "a1 a5 b1 b5 c1 c5 e1 d5 f1 o15 d1");
        let expected = if exact { None } else { Some(Some(Side::Black)) };
        assert_eq!(winner(&g), expected, "exact={exact}");
    }
    // Exactly five still wins under exact.
    let mut g = game(Config::gomoku(15, true, Opening::Free));
    play(&mut g, "a1 a5 b1 b5 c1 c5 d1 d5 e1");
    assert_eq!(winner(&g), Some(Some(Side::Black)));
}

#[test]
fn pente_captures_in_all_eight_directions() {
    // Black on h8 captures a white pair in each direction at once.
    let mut g = game(Config::pente(19, Opening::Free));
    let mut cells = vec!['-'; 19 * 19];
    let at = |name: &str, g: &Gomoku| g.parse_move(name).unwrap().square();
    for (dr, dc) in [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ] {
        let (r, c) = (9i32, 9i32);
        cells[((r + dr) * 19 + c + dc) as usize] = 'O';
        cells[((r + 2 * dr) * 19 + c + 2 * dc) as usize] = 'O';
        cells[((r + 3 * dr) * 19 + c + 3 * dc) as usize] = 'X';
    }
    g.set_board(&cells.iter().collect::<String>(), Side::Black)
        .unwrap();
    let centre = Move::new((9 * 19 + 9) as u16);
    let before = g.clone();
    let undo = g.make(centre);
    assert_eq!(g.captures(Side::Black), 8);
    assert_eq!(g.stones(Side::White), 0);
    assert_eq!(winner(&g), Some(Some(Side::Black)));
    g.check_consistency().unwrap();
    g.unmake(centre, undo);
    assert_eq!(g.to_board_string(), before.to_board_string());
    assert_eq!(g.hash(), before.hash());
    g.check_consistency().unwrap();
    let _ = at;
}

#[test]
fn pente_moving_into_a_bracket_is_safe_and_five_pairs_win() {
    let mut g = game(Config::pente(19, Opening::Free));
    // X O . X: white plays into the bracket at c1: no capture.
    play(&mut g, "a1 b1 d1 c1");
    assert_eq!(g.stones(Side::White), 2);
    assert_eq!(g.captures(Side::Black), 0);
    // Black captures pairs one by one on separate rows.
    let mut g = game(Config::pente(19, Opening::Free));
    for row in [3, 6, 9, 12] {
        play(&mut g, &format!("a{row} b{row} s{row} c{row} d{row}"));
        // White answers somewhere harmless.
        play(&mut g, &format!("s{}", row + 1));
    }
    assert_eq!(g.captures(Side::Black), 4);
    assert_eq!(winner(&g), None);
    assert_eq!(g.playing_details(), "captures black 4 white 0");
    play(&mut g, "a15 b15 s16 c15 d15");
    assert_eq!(g.captures(Side::Black), 5);
    assert_eq!(winner(&g), Some(Some(Side::Black)));
    assert_eq!(g.status_details(), "captures captures black 5 white 0");
}

#[test]
fn pente_tournament_opening() {
    let mut g = game(Config::pente(19, Opening::Tournament));
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    play(&mut g, "j10 k10");
    // Black's second stone: at least three points from the centre.
    assert!(!g.is_legal(g.parse_move("l12").unwrap()));
    assert!(!g.is_legal(g.parse_move("h8").unwrap()));
    assert!(g.is_legal(g.parse_move("g10").unwrap()));
    assert!(g.is_legal(g.parse_move("m13").unwrap()));
    g.generate_moves(&mut moves);
    assert_eq!(moves.len(), 19 * 19 - 2 - (5 * 5 - 2));
    play(&mut g, "g10");
    assert!(g.is_legal(g.parse_move("j11").unwrap()));
}

#[test]
fn full_boards_are_draws() {
    let mut g = game(Config::tictactoe(3, 3));
    play(&mut g, "b2 a1 c1 a3 a2 c2 b1 b3 c3");
    assert_eq!(winner(&g), Some(None));
    assert_eq!(g.status_details(), "board full");
    let mut g = game(Config::tictactoe(3, 3));
    play(&mut g, "a1 b1 a2 b2 a3");
    assert_eq!(winner(&g), Some(Some(Side::Black)));
}

#[test]
fn setboard_finds_winners_and_rejects_bad_boards() {
    let mut g = game(Config::gomoku(5, false, Opening::Free));
    assert!(
        g.set_board("XXXXX--------------------", Side::White)
            .is_ok()
    );
    assert_eq!(winner(&g), Some(Some(Side::Black)));
    assert!(
        g.set_board("XXXXXOOOOO---------------", Side::White)
            .is_err()
    );
    assert!(g.set_board("XX", Side::White).is_err());
    assert!(
        g.set_board("XXXXZ--------------------", Side::White)
            .is_err()
    );
}

#[test]
fn no_passes_and_names() {
    let g = game(Config::gomoku(15, false, Opening::Center));
    assert!(g.parse_move("pass").is_err());
    assert_eq!(g.format_move(Move::new(7 * 15 + 7)), "h8");
    let big = game(Config::gomoku(31, false, Opening::Center));
    assert_eq!(big.format_move(Move::new(31 + 2)), "2,1");
    assert_eq!(big.parse_move("2,1").unwrap(), Move::new(33));
}

/// Random games with undos keep the incremental state equal to a fresh build.
#[test]
fn random_games_keep_bookkeeping_consistent() {
    let mut rng = StdRng::seed_from_u64(5);
    for config in [
        Config::gomoku(15, false, Opening::Center),
        Config::gomoku(9, true, Opening::Center),
        Config::pente(9, Opening::Free),
        Config::tictactoe(7, 7),
        Config::tictactoe(4, 3),
    ] {
        for _ in 0..6 {
            let mut g = game(config);
            let mut history = Vec::new();
            let mut moves = Vec::new();
            let start = g.clone();
            while g.outcome().is_none() {
                g.generate_moves(&mut moves);
                // Keep games local so lines and captures happen.
                let near: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| g.is_near_stone(m.square()))
                    .collect();
                let pool = if near.is_empty() { &moves } else { &near };
                let mv = pool[rng.random_range(0..pool.len())];
                history.push((mv, g.make(mv)));
                if history.len() % 7 == 0 {
                    g.check_consistency().unwrap();
                }
            }
            g.check_consistency().unwrap();
            while let Some((mv, undo)) = history.pop() {
                g.unmake(mv, undo);
            }
            assert_eq!(g.hash(), start.hash());
            assert_eq!(g.to_board_string(), start.to_board_string());
            g.check_consistency().unwrap();
        }
    }
}

mod search {
    use super::*;
    use crate::game::roles::{Evaluate, Proof, ScoreValue, Solve, WIN, WIN_BOUND};
    use crate::search::limits::Limits;
    use crate::search::report::Report;

    use crate::search::{SearchResult, Searcher};
    use crate::stop::Stop;
    use std::time::{Duration, Instant};

    /// A fresh search to `depth`, each iteration's report given to `report`.
    fn think(game: &Gomoku, depth: u32, report: &mut dyn FnMut(Report)) -> SearchResult {
        let mut searcher = Searcher::new(game, 4).unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        searcher.search_to(game, &limits, &Stop::never(), report)
    }

    fn best_move(game: &Gomoku, depth: u32) -> (String, i32) {
        let result = think(game, depth, &mut |_| {});
        (game.format_move(result.best), result.score)
    }

    /// An exact solve with a fresh table.
    fn solve(game: &Gomoku) -> Proof {
        let mut table = game.solver_table(1 << 20).unwrap();
        let proof = game.solve_exact(&mut table, &Stop::never()).unwrap();
        assert!(proof.is_exact());
        proof
    }

    fn setup(size: usize, black: &str, white: &str, side: Side) -> Gomoku {
        let mut g = game(Config::gomoku(size, false, Opening::Free));
        let mut cells = vec!['-'; size * size];
        for (list, c) in [(black, 'X'), (white, 'O')] {
            for name in list.split_whitespace() {
                cells[g.parse_move(name).unwrap().square()] = c;
            }
        }
        g.set_board(&cells.iter().collect::<String>(), side)
            .unwrap();
        g
    }

    #[test]
    fn takes_a_five_and_blocks_a_four() {
        let g = setup(15, "d4 e4 f4 g4", "d6 e6 f6 a1", Side::Black);
        let (mv, score) = best_move(&g, 3);
        assert!(mv == "c4" || mv == "h4", "{mv}");
        assert_eq!(score, WIN - 1);
        // White to move must block black's four at c4 or h4... only one end is open.
        let g = setup(15, "b4 c4 d4 e4 k10", "a4 d6 e6 f6", Side::White);
        let (mv, _) = best_move(&g, 4);
        assert_eq!(mv, "f4");
    }

    #[test]
    fn open_four_wins_in_three_plies() {
        let g = setup(15, "e5 f5 g5", "a1 a3 o15", Side::Black);
        let (mv, score) = best_move(&g, 5);
        assert!(mv == "d5" || mv == "h5", "{mv}");
        assert_eq!(score, WIN - 3);
    }

    /// The search spends no depth on a reply that is forced: the block of a four, and
    /// only that (an open three leaves a choice of answers, a five of one's own wins).
    #[test]
    fn only_the_block_of_a_four_is_a_forced_reply() {
        // Black must stop White's five at i5, which makes Black's own four on column i.
        let g = setup(15, "d5 i6 i7 i8 a15", "e5 f5 g5 h5 i9", Side::Black);
        assert!(g.reply_is_forced(), "Black must stop the five");
        assert_eq!(best_move(&g, 2).0, "i5");
        let mut blocked = g.clone();
        blocked.make(g.parse_move("i5").unwrap());
        assert!(blocked.reply_is_forced(), "White must stop Black's four");
        let mut quiet = blocked.clone();
        quiet.make(g.parse_move("i4").unwrap());
        quiet.make(g.parse_move("a1").unwrap());
        assert!(
            !quiet.reply_is_forced(),
            "White, facing no four, has a choice"
        );
        let three = setup(15, "g8 h8 i8", "a1 a3", Side::White);
        assert!(
            three.must_answer() && !three.reply_is_forced(),
            "an open three"
        );
        let both = setup(15, "e5 f5 g5 h5", "e6 f6 g6 h6", Side::Black);
        assert!(!both.reply_is_forced(), "Black's own five comes first");
    }

    #[test]
    fn deepening_stops_at_a_win_within_its_depth() {
        let g = setup(15, "e5 f5 g5", "a1 a3 o15", Side::Black);
        let mut depths = Vec::new();
        let result = think(&g, 60, &mut |report| depths.push(report.depth));
        assert_eq!(result.score, WIN - 3);
        assert_eq!(result.depth, 3, "{depths:?}");
        assert_eq!(depths, [1, 2, 3]);
    }

    /// Quiet middle-game positions from arena games against Carbon: the search's scores
    /// at odd and even depths agree (the side to move's tempo is worth what a stone
    /// adds). With a tempo of 100-400 the odd depths scored 290 higher on average.
    #[test]
    fn odd_and_even_depths_score_alike() {
        const GAMES: [&str; 4] = [
            "7,7 7,8 7,9 g9 j9 i8 j7 g10 g11 j8 e9 i6 i7 g8 g7 h7 f9 f10",
            "7,7 7,8 7,9 g8 i9 j10 i7 g9 f7 j8 j9 g7 g10 i10 g6 i6 e8 d9",
            "7,7 7,8 7,6 h6 g5 i8 j7 g8 i10 g7 f8 e7 l7 k7 g10 h10 h11 j9",
            "7,7 7,8 7,6 j8 g8 f9 g7 g9 i9 f6 f7 i7 e8 f8 e7 d7 g6 h5",
        ];
        let (mut bias, mut swings) = (0, Vec::new());
        for moves in GAMES {
            for plies in [11, 17] {
                let mut g = game(Config::gomoku(15, false, Opening::Free));
                for name in moves.split_whitespace().take(plies) {
                    g.make(g.parse_move(name).unwrap());
                }
                let mut scores = Vec::new();
                think(&g, 5, &mut |report| match report.lines[0].score {
                    ScoreValue::Eval { value, .. } => scores.push(value),
                    other => panic!("not a quiet position: {other:?}"),
                });
                assert_eq!(scores.len(), 5);
                for (depth, pair) in (1..).zip(scores.windows(2)) {
                    let odd_minus_even = if depth % 2 == 1 {
                        pair[0] - pair[1]
                    } else {
                        pair[1] - pair[0]
                    };
                    bias += odd_minus_even;
                    swings.push((pair[0] - pair[1]).abs());
                }
            }
        }
        let bias = bias / swings.len() as i32;
        swings.sort_unstable();
        let median = swings[swings.len() / 2];
        assert!(
            bias.abs() <= 120 && median <= 150,
            "bias {bias}, swings {swings:?}"
        );
    }

    /// A four-three: the four must be blocked, then the three becomes an open four.
    const FOUR_THREE: (&str, &str) = ("e5 f5 g5 h7 h8", "d5 a1 o15 a15");

    #[test]
    fn a_win_by_fours_below_the_leaves_is_found_at_depth_one() {
        let g = setup(15, FOUR_THREE.0, FOUR_THREE.1, Side::Black);
        let (mv, score) = best_move(&g, 1);
        assert_eq!(mv, "h5");
        // h5, the block at i5, h6 (an open four), a block, the five.
        assert_eq!(score, WIN - 5);
    }

    #[test]
    fn win_scores_keep_their_distance_through_the_table() {
        let g = setup(15, FOUR_THREE.0, FOUR_THREE.1, Side::Black);
        let stop = Stop::never();
        let mut searcher = Searcher::new(&g, 4).unwrap();
        let search = |searcher: &mut Searcher<Gomoku>, game: &Gomoku, depth| {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            searcher.search_to(game, &limits, &stop, &mut |_| {}).score
        };
        assert_eq!(search(&mut searcher, &g, 3), WIN - 5);
        // Read back from the table, at the root and two plies on.
        assert_eq!(search(&mut searcher, &g, 3), WIN - 5);
        let mut on = g.clone();
        for name in ["h5", "i5"] {
            on.make(on.parse_move(name).unwrap());
        }
        assert_eq!(search(&mut searcher, &on, 3), WIN - 3);
        // The defender's view: a loss at the same distance.
        let mut defender = g.clone();
        defender.make(defender.parse_move("h5").unwrap());
        assert_eq!(search(&mut searcher, &defender, 4), -(WIN - 4));
    }

    #[test]
    fn a_forced_block_is_searched_for_its_score_under_a_clock() {
        // White's four must be blocked at j8, which makes Black's open four j5-j8.
        let g = setup(15, "e8 j5 j6 j7 a1", "f8 g8 h8 i8 o15", Side::Black);
        let mut moves = Vec::new();
        g.root_moves(&mut moves, &Stop::never());
        assert_eq!(moves.len(), 1);
        for limits in [
            Limits {
                movetime: Some(Duration::from_millis(200)),
                ..Limits::default()
            },
            Limits {
                time: Some(Duration::from_millis(60_000)),
                ..Limits::default()
            },
        ] {
            let mut searcher = Searcher::new(&g, 4).unwrap();
            let _started = Instant::now();
            let result = searcher.search_to(&g, &limits, &Stop::never(), &mut |_| {});
            assert_eq!(g.format_move(result.best), "j8");
            // j8, a block at one end of the open four, the five at the other.
            assert_eq!(result.score, WIN - 3, "{limits:?}");
        }
    }

    #[test]
    fn threats_on_the_board_get_a_block_or_a_win() {
        // White's open three on row 8: Black, without a four, blocks it.
        let g = setup(15, "a1 c1 o15 h10", "g8 h8 i8 a15", Side::Black);
        let (mv, _) = best_move(&g, 4);
        assert!(["e8", "f8", "j8", "k8"].contains(&mv.as_str()), "{mv}");
        // White's split three: the same, at the gap or an end.
        let g = setup(15, "a1 c1 o15 h10", "f8 g8 i8 a15", Side::Black);
        let (mv, _) = best_move(&g, 4);
        assert!(["e8", "h8", "j8"].contains(&mv.as_str()), "{mv}");
        // A four is blocked at its one open end.
        let g = setup(15, "a1 c1 o15 h10 e8", "f8 g8 h8 i8 a15", Side::Black);
        let (mv, score) = best_move(&g, 4);
        assert_eq!(mv, "j8");
        assert!(score < WIN_BOUND, "{score}");
        // With its own open four to make against White's three, Black wins instead.
        let g = setup(15, "c3 d3 e3 o15", "g8 h8 i8 a15", Side::Black);
        let (mv, score) = best_move(&g, 3);
        assert!(["b3", "f3"].contains(&mv.as_str()), "{mv}");
        assert_eq!(score, WIN - 3);
    }

    /// A Gomocup match clock (10 s a game, 0.1 s added before every move, as
    /// c-gomoku-cli sends it in `INFO time_left`) over games of 12 to 40 moves a side:
    /// spending the whole hard budget every move never overruns it, and spending the soft
    /// budget (where the search stops deepening) uses most of it in a typical game.
    #[test]
    fn a_gomocup_match_clock_is_never_overrun_and_mostly_used() {
        use crate::search::time::budget;
        let overhead = Duration::from_millis(50);
        let (base, inc) = (Duration::from_millis(10_000), Duration::from_millis(100));
        for own_moves in [12u32, 18, 24, 40] {
            for spend_hard in [false, true] {
                let mut g = setup(15, "", "", Side::Black);
                let mut clock = base;
                let mut used = Duration::ZERO;
                let mut moves = Vec::new();
                let mut rng = StdRng::seed_from_u64(own_moves as u64);
                for _ in 0..own_moves {
                    clock += inc;
                    let limits = Limits {
                        time: Some(clock),
                        movetime: Some(base),
                        ..Limits::default()
                    };
                    let b = budget(&limits, g.moves_left(), overhead).unwrap();
                    let spent = if spend_hard { b.hard } else { b.soft } + overhead;
                    assert!(spent <= clock, "{own_moves} moves: {spent:?} of {clock:?}");
                    clock -= spent;
                    used += spent;
                    // This side's stone and the opponent's, anywhere near the others.
                    for _ in 0..2 {
                        g.search_moves(&mut moves);
                        g.make(moves[rng.random_range(0..moves.len())]);
                        if g.outcome().is_some() {
                            g = setup(15, "", "", Side::Black);
                        }
                    }
                }
                let share = used.as_secs_f64() / (base + inc * own_moves).as_secs_f64();
                if own_moves >= 18 && !spend_hard {
                    assert!(share >= 0.6, "{share:.2} of the clock used");
                }
            }
        }
    }

    #[test]
    fn late_moves_but_fours_are_searched_less_deeply() {
        let g = setup(15, "h8 i9 g9 j7 k10", "h9 i8 g8 h7 f10", Side::Black);
        assert!(!g.must_answer());
        // Every candidate, so that quiet moves and threats both come late.
        let mut moves = Vec::new();
        crate::game::gomoku::candidates::candidates(&g, &mut moves);
        let (mut quiet, mut threats) = (0, 0);
        for (index, &mv) in moves.iter().enumerate() {
            let me = g.side_to_move();
            let threat = Side::BOTH
                .into_iter()
                .map(|side| g.threat(side, mv.square()))
                .max()
                .unwrap();
            let r = g.reduction(mv, index, 6);
            let name = g.format_move(mv);
            if index < 2 || g.threat(me, mv.square()).is_four() {
                assert_eq!(r, 0, "{name} at {index}");
            } else {
                // ln(6) * ln(3) = 1.97: two plies from the third move on.
                assert!(r >= 2, "{name} at {index}: {r}");
                if threat >= pattern::Threat::OpenThree {
                    threats += 1;
                } else {
                    quiet += 1;
                }
            }
            assert_eq!(g.reduction(mv, index, 1), 0, "no reduction near the leaves");
        }
        assert!(quiet > 0 && threats > 0, "{quiet} quiet, {threats} threats");
        assert_eq!(g.reduction(moves[7], 7, 12), 5, "ln(12) * ln(8) = 5.17");
    }

    #[test]
    fn answers_to_a_three_are_reduced_only_when_quiet() {
        // Black's open three g8-i8 (White to move) must be answered.
        let g = setup(15, "g8 h8 i8 c3", "a1 a3 o15", Side::White);
        assert!(g.must_answer());
        let mut quiet_moves = Vec::new();
        g.generate_moves(&mut quiet_moves);
        let quiet = (quiet_moves.iter())
            .find(|&&mv| {
                Side::BOTH
                    .into_iter()
                    .all(|side| g.threat(side, mv.square()) < pattern::Threat::OpenThree)
            })
            .copied()
            .unwrap();
        let block = g.parse_move("j8").unwrap();
        assert_eq!(g.reduction(block, 5, 8), 0, "a block is searched in full");
        assert_eq!(
            g.reduction(quiet, 5, 8),
            2,
            "a quiet move keeps the old reduction"
        );
    }

    #[test]
    fn candidates_answer_an_open_three() {
        // White's open three on row 8: Black (no four of its own) must answer it.
        let g = setup(15, "a1 c1 o15", "g8 h8 i8", Side::Black);
        let mut moves = Vec::new();
        g.search_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
        names.sort();
        assert_eq!(names, ["e8", "f8", "j8", "k8"]);
    }

    #[test]
    fn a_three_or_a_four_must_be_answered() {
        // White's open three: Black, with no four of its own, must answer it.
        let three = setup(15, "a1 c1 o15", "g8 h8 i8", Side::Black);
        assert!(three.must_answer());
        // With a four to make, Black may answer with it instead: no forced answer.
        let counter = setup(15, "a1 b1 c1 o15", "g8 h8 i8 n14", Side::Black);
        assert!(!counter.must_answer());
        // White's four must be blocked even when Black could make a four.
        let four = setup(15, "a1 b1 c1 o15", "g8 h8 i8 j8", Side::Black);
        assert!(four.must_answer());
        let quiet = setup(15, "h8 a1", "g7 o15", Side::Black);
        assert!(!quiet.must_answer());
    }

    #[test]
    fn below_the_root_only_the_most_valuable_points_are_searched() {
        let g = setup(15, "h8 i9 g9 j7", "h9 i8 g8 h7", Side::Black);
        let mut all = Vec::new();
        g.root_moves(&mut all, &Stop::never());
        let mut searched = Vec::new();
        g.search_moves(&mut searched);
        assert!(all.len() > searched.len(), "{} candidates", all.len());
        let best = all.iter().map(|&mv| g.point_key(mv)).max().unwrap();
        let worst_kept = searched.iter().map(|&mv| g.point_key(mv)).min().unwrap();
        assert!(searched.iter().all(|mv| all.contains(mv)));
        assert!(searched.iter().any(|&mv| g.point_key(mv) == best));
        let dropped = all.iter().filter(|mv| !searched.contains(mv));
        assert!(dropped.into_iter().all(|&mv| g.point_key(mv) <= worst_kept));
    }

    #[test]
    fn small_boards_solve_exactly() {
        let three = game(Config::tictactoe(3, 3));
        assert_eq!(solve(&three).lower, 0, "3x3 is a draw");
        let four = game(Config::tictactoe(4, 4));
        assert_eq!(solve(&four).lower, 0, "4x4 is a draw");
        // 4x4 with three in a row: the first player wins.
        let small = game(Config::tictactoe(4, 3));
        let exact = solve(&small);
        assert!(exact.lower > WIN - 16, "{}", exact.lower);
        let mut line = small.clone();
        for &mv in &exact.pv {
            line.make(mv);
        }
        assert_eq!(winner(&line), Some(Some(Side::Black)));
    }

    /// 2 and 4 threads give the single thread's exact values, and lines that reach them.
    #[test]
    fn threads_give_the_same_exact_values() {
        let mut rng = StdRng::seed_from_u64(17);
        for config in [
            Config::tictactoe(4, 4),
            Config::tictactoe(4, 3),
            Config::tictactoe(3, 3),
            Config::pente(5, Opening::Free),
            Config::gomoku(5, false, Opening::Free),
        ] {
            for round in 0..4 {
                let mut g = game(config);
                let mut moves = Vec::new();
                let opening = if round == 0 {
                    0
                } else {
                    rng.random_range(2..8)
                };
                for _ in 0..opening {
                    g.generate_moves(&mut moves);
                    g.make(moves[rng.random_range(0..moves.len())]);
                    if g.outcome().is_some() {
                        break;
                    }
                }
                if g.outcome().is_some() || g.exact_size().is_none_or(|size| size > 14) {
                    continue;
                }
                let expected = solve(&g).lower;
                // Jamboree: 3 moves of a node searched alone before the split.
                for (threads, jamboree) in [(2, 1), (4, 1), (2, 3)] {
                    let mut table = g.solver_table(1 << 20).unwrap();
                    Gomoku::set_solver_threads(&mut table, threads);
                    Gomoku::set_solver_jamboree(&mut table, jamboree);
                    table.split_from(6);
                    let proof = g.solve_exact(&mut table, &Stop::never()).unwrap();
                    assert_eq!(proof.lower, expected, "{threads} threads\n{}", g.diagram());
                    let mut line = g.clone();
                    for &mv in &proof.pv {
                        assert!(line.is_legal(mv));
                        line.make(mv);
                    }
                    assert!(line.outcome().is_some(), "the line ends the game");
                }
            }
        }
    }

    /// The proven line of 4x4 tic-tac-toe (a draw) plays the game out, though the table
    /// sized to the board cannot keep all of it.
    #[test]
    fn the_proven_line_plays_the_game_out() {
        let g = game(Config::tictactoe(4, 4));
        for threads in [1, 2] {
            let mut table = g.solver_table(48 << 20).unwrap();
            Gomoku::set_solver_threads(&mut table, threads);
            let proof = g.solve_exact(&mut table, &Stop::never()).unwrap();
            assert_eq!(proof.lower, 0);
            let mut line = g.clone();
            for &mv in &proof.pv {
                assert!(line.is_legal(mv));
                line.make(mv);
            }
            assert_eq!(
                line.outcome().map(|o| o.winner),
                Some(None),
                "{:?}",
                proof.pv
            );
        }
    }

    /// The exact solver agrees with plain minimax on random small positions.
    #[test]
    fn exact_solver_equals_minimax() {
        fn minimax(g: &mut Gomoku) -> i32 {
            if g.outcome().is_some() {
                return g.final_score();
            }
            let mut moves = Vec::new();
            g.generate_moves(&mut moves);
            let mut best = -WIN - 1;
            for mv in moves {
                let undo = g.make(mv);
                let s = -minimax(g);
                g.unmake(mv, undo);
                let s = if s > 0 {
                    s - 1
                } else if s < 0 {
                    s + 1
                } else {
                    0
                };
                best = best.max(s);
            }
            best
        }
        let mut rng = StdRng::seed_from_u64(9);
        for config in [
            Config::tictactoe(4, 3),
            Config::tictactoe(4, 4),
            Config::pente(5, Opening::Free),
        ] {
            for _ in 0..20 {
                let mut g = game(config);
                let mut moves = Vec::new();
                for _ in 0..rng.random_range(6..12) {
                    g.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    g.make(moves[rng.random_range(0..moves.len())]);
                }
                if g.outcome().is_some() || g.empties() > 9 {
                    continue;
                }
                let expected = minimax(&mut g.clone());
                assert_eq!(solve(&g).lower, expected, "{}", g.diagram());
            }
        }
    }
}

/// The tuner's linear model is the evaluation: in every quiet position of random local
/// games, the features scored by the rule's shipped tables are what `evaluate` returns
/// (under renju too, whose tables differ by colour).
#[test]
fn eval_features_score_as_the_evaluation() {
    let mut rng = StdRng::seed_from_u64(23);
    let mut quiet = 0;
    for config in [
        Config::gomoku(15, false, Opening::Center),
        Config::gomoku(15, true, Opening::Center),
        Config::renju(15, Opening::Center),
    ] {
        let shipped = EvalTables::shipped(config.renju);
        for _ in 0..20 {
            let mut g = game(config);
            let mut moves = Vec::new();
            while g.outcome().is_none() {
                if let Some(features) = g.eval_features() {
                    quiet += 1;
                    assert_eq!(
                        features.score(&shipped),
                        g.evaluate() as f64,
                        "\n{}",
                        g.diagram()
                    );
                }
                g.generate_moves(&mut moves);
                moves.retain(|m| g.is_near_stone(m.square()));
                if moves.is_empty() {
                    g.generate_moves(&mut moves);
                }
                g.make(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    assert!(quiet > 450, "{quiet} quiet positions");
    // A position with a five to block is not quiet.
    let mut g = game(Config::gomoku(15, false, Opening::Center));
    play(&mut g, "h8 a1 i8 a3 j8 a5 k8");
    assert!(g.eval_features().is_none());
}

/// Evaluations stay below the sure-win score on every size: the line sums grow with the
/// board (99x99 tic-tac-toe with k=3 reached 137,000, above the search's sure win), so
/// they are bounded by `MAX_EVAL`.
#[test]
fn evaluations_stay_below_sure_wins_on_every_size() {
    let configs = [
        Config::tictactoe(99, 3),
        Config::tictactoe(99, 4),
        Config::tictactoe(40, 3),
        Config::gomoku(99, false, Opening::Free),
        Config::pente(99, Opening::Free),
    ];
    let mut rng = StdRng::seed_from_u64(7);
    let mut largest = 0;
    for config in configs {
        for _ in 0..8 {
            let mut g = game(config);
            let mut moves = Vec::new();
            for _ in 0..40 {
                if g.outcome().is_some() {
                    break;
                }
                let score = g.evaluate();
                largest = largest.max(score.abs());
                use crate::game::gomoku::search::{MAX_EVAL, SURE_WIN};
                assert!(
                    score.abs() <= MAX_EVAL || [SURE_WIN, SURE_WIN - 1].contains(&score.abs()),
                    "{score} on {config:?}\n{}",
                    g.diagram()
                );
                g.generate_moves(&mut moves);
                // Within a few points of the centre, where the line sums pile up.
                let centre = (config.size / 2) as i64;
                moves.retain(|&mv| {
                    let (x, y) = (mv.square() % config.size, mv.square() / config.size);
                    (x as i64 - centre).abs() <= 3 && (y as i64 - centre).abs() <= 3
                });
                if moves.is_empty() {
                    break;
                }
                g.make(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
    eprintln!("largest evaluation {largest}");
    assert!(largest > 1000, "{largest}");
}
