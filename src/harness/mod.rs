//! `arbor match`: plays engine processes against each other as referee and clock, and
//! reports results, Elo and SPRT.

pub mod engine;
pub mod records;
pub mod referee;
pub mod stats;

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use self::engine::{EngineDriver, NativeEngine, Setup};
use self::referee::{Ending, GameRecord, TimeControl, apply_setup, play_game};
use self::stats::{Sprt, SprtVerdict, elo_estimate};
use crate::game::Side;
use crate::game::roles::SearchGame;
use crate::game::variant::{GameVisitor, Variant};

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: String,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub variant: Variant,
    pub control: TimeControl,
    /// Each opening is played twice per pairing, colours swapped.
    pub openings: Vec<Setup>,
    pub concurrency: usize,
    pub records: Option<PathBuf>,
    pub ggf: Option<PathBuf>,
    pub sprt: Option<Sprt>,
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    number: usize,
    pair: usize,
    black: usize,
    white: usize,
    setup: Setup,
}

/// A finished game with who played it.
#[derive(Clone, Debug)]
pub struct Played {
    pub number: usize,
    pub pair: usize,
    pub black: usize,
    pub white: usize,
    pub setup: Setup,
    pub record: GameRecord,
}

/// Per-engine totals.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_score: i64,
    pub time_forfeits: u32,
    pub illegal: u32,
    pub failures: u32,
}

/// Random openings: `plies` random legal moves from the start, `count` of them.
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Setup> {
    struct Build {
        count: usize,
        plies: usize,
        seed: u64,
    }
    impl GameVisitor for Build {
        type Output = Vec<Setup>;
        fn visit<G: SearchGame>(self, start: G) -> Vec<Setup> {
            let mut rng = StdRng::seed_from_u64(self.seed);
            let mut moves = Vec::new();
            (0..self.count)
                .map(|_| {
                    let mut game = start.clone();
                    let mut names = Vec::new();
                    for _ in 0..self.plies {
                        game.generate_moves(&mut moves);
                        // Never hand over a finished game.
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[rng.random_range(0..moves.len())];
                        let mut next = game.clone();
                        next.make(mv);
                        if next.outcome().is_some() {
                            break;
                        }
                        names.push(game.format_move(mv));
                        game = next;
                    }
                    Setup::Moves(names)
                })
                .collect()
        }
    }
    variant.visit(Build { count, plies, seed })
}

/// Reads an openings file: one per line, a move sequence (`f5d6c3`, `f5 d6 c3`) or a
/// board and side (`<cells> X`). Blank and `#` lines are skipped; each opening is
/// checked against the rules.
pub fn read_openings(text: &str, variant: Variant) -> Result<Vec<Setup>, String> {
    struct Check<'a>(&'a Setup);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<G: SearchGame>(self, mut game: G) -> Result<(), String> {
            apply_setup(&mut game, self.0)?;
            if game.outcome().is_some() {
                Err("the opening ends the game".into())
            } else {
                Ok(())
            }
        }
    }
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let setup = match words.as_slice() {
            [cells, side] if Side::parse(side).is_some() && cells.len() > 8 => {
                Setup::Board(line.to_string())
            }
            // `x,y` names (boards over 26 wide) are whole words.
            _ if line.contains(',') => Setup::Moves(words.iter().map(|w| w.to_string()).collect()),
            _ => Setup::Moves(split_moves(&words.concat())),
        };
        variant
            .visit(Check(&setup))
            .map_err(|e| format!("openings line {}: {e}", number + 1))?;
        openings.push(setup);
    }
    Ok(openings)
}

/// `f5d6c3` -> `f5 d6 c3`: a letter starts each move.
fn split_moves(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for c in text.chars() {
        if c.is_ascii_alphabetic() || moves.is_empty() {
            moves.push(String::new());
        }
        moves.last_mut().expect("pushed").push(c);
    }
    moves
}

struct PlayOne<'a> {
    job: &'a Job,
    spec: String,
    engines: [&'a mut dyn EngineDriver; 2],
    control: TimeControl,
}

impl GameVisitor for PlayOne<'_> {
    type Output = GameRecord;
    fn visit<G: SearchGame>(self, mut game: G) -> GameRecord {
        apply_setup(&mut game, &self.job.setup).expect("openings are checked when read");
        let game_forfeit_score = game.forfeit_score();
        play_game(
            game,
            &self.spec,
            &self.job.setup,
            self.engines,
            self.control,
            |g: &G| g.match_score(),
            game_forfeit_score,
        )
    }
}

/// Runs the match or round robin, printing a line per game and the final table.
pub fn run_match(config: &MatchConfig, out: &mut dyn Write) -> Result<Vec<Standing>, String> {
    let count = config.engines.len();
    if count < 2 {
        return Err("a match needs at least two engines".into());
    }
    let openings = if config.openings.is_empty() {
        vec![Setup::Moves(Vec::new())]
    } else {
        config.openings.clone()
    };
    let mut jobs = VecDeque::new();
    let mut pair = 0;
    for first in 0..count {
        for second in first + 1..count {
            for setup in &openings {
                for (black, white) in [(first, second), (second, first)] {
                    jobs.push_back(Job {
                        number: jobs.len() + 1,
                        pair,
                        black,
                        white,
                        setup: setup.clone(),
                    });
                }
                pair += 1;
            }
        }
    }
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(jobs));
    let stop = Arc::new(AtomicBool::new(false));
    let (results, finished) = mpsc::channel::<Result<Played, String>>();
    let spec = game_spec(config.variant);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let queue = Arc::clone(&queue);
            let stop = Arc::clone(&stop);
            let results = results.clone();
            let spec = spec.clone();
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(job) = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front()
                    else {
                        return;
                    };
                    let result = play_job(config, &spec, &job);
                    if results.send(result).is_err() {
                        return;
                    }
                }
            });
        }
        drop(results);
        report(config, total, finished, &stop, out)
    })
}

fn game_spec(variant: Variant) -> String {
    variant.to_string()
}

/// Starts fresh engine processes for one game (so a crash never carries over) and plays it.
fn play_job(config: &MatchConfig, spec: &str, job: &Job) -> Result<Played, String> {
    let start = |index: usize| {
        NativeEngine::start(&config.engines[index].name, &config.engines[index].command)
    };
    let mut black = start(job.black)?;
    let mut white = start(job.white)?;
    let record = config.variant.visit(PlayOne {
        job,
        spec: spec.to_string(),
        engines: [&mut black, &mut white],
        control: config.control,
    });
    black.quit();
    white.quit();
    Ok(Played {
        number: job.number,
        pair: job.pair,
        black: job.black,
        white: job.white,
        setup: job.setup.clone(),
        record,
    })
}

fn report(
    config: &MatchConfig,
    total: usize,
    finished: mpsc::Receiver<Result<Played, String>>,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> Result<Vec<Standing>, String> {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let mut standings = vec![Standing::default(); names.len()];
    let mut pair_points: std::collections::HashMap<usize, (u32, f64)> = Default::default();
    let mut pentanomial = [0u32; 5];
    let mut done = 0;
    let io = |e: std::io::Error| e.to_string();
    let mut records = config
        .records
        .as_ref()
        .map(records::Appender::open)
        .transpose()?;
    let mut ggf = config
        .ggf
        .as_ref()
        .map(records::Appender::open)
        .transpose()?;
    for result in finished {
        let played = result?;
        done += 1;
        let record = &played.record;
        let (black, white) = (played.black, played.white);
        let black_points = match record.winner {
            Some(Side::Black) => 1.0,
            Some(Side::White) => 0.0,
            None => 0.5,
        };
        for (index, points, sign) in [(black, black_points, 1), (white, 1.0 - black_points, -1)] {
            let standing = &mut standings[index];
            match points {
                1.0 => standing.wins += 1,
                0.0 => standing.losses += 1,
                _ => standing.draws += 1,
            }
            standing.disc_score += (sign * record.black_score) as i64;
        }
        match &record.ending {
            Ending::Rules => {}
            Ending::TimeForfeit(side) => {
                standings[if *side == Side::Black { black } else { white }].time_forfeits += 1
            }
            Ending::Illegal(side, _) => {
                standings[if *side == Side::Black { black } else { white }].illegal += 1
            }
            Ending::Failure(side, _) => {
                standings[if *side == Side::Black { black } else { white }].failures += 1
            }
        }
        if let Some(appender) = records.as_mut() {
            appender.append(&records::text_line(&played, &names))?;
        }
        if let (Some(appender), Variant::Othello { size, rule }) = (ggf.as_mut(), config.variant) {
            appender.append(&records::ggf(&played, &names, size, rule, config.control))?;
        }
        writeln!(
            out,
            "game {done}/{total}: {} (black) - {} (white): {} {:+} ({})  [{}: {}]",
            names[black],
            names[white],
            result_text(record.winner),
            record.black_score,
            ending_text(record),
            names[0],
            score_line(&standings[0])
        )
        .map_err(io)?;
        // Pentanomial counts for the first engine, from completed pairs.
        if names.len() == 2 {
            let first_points = if black == 0 {
                black_points
            } else {
                1.0 - black_points
            };
            let entry = pair_points.entry(played.pair).or_insert((0, 0.0));
            entry.0 += 1;
            entry.1 += first_points;
            if entry.0 == 2 {
                pentanomial[(entry.1 * 2.0).round() as usize] += 1;
                if let Some(sprt) = config.sprt {
                    let (low, high) = sprt.bounds();
                    let llr = sprt.llr(&pentanomial);
                    writeln!(
                        out,
                        "sprt: llr {llr:.3} bounds [{low:.3}, {high:.3}] pairs {pentanomial:?}"
                    )
                    .map_err(io)?;
                    let verdict = sprt.verdict(&pentanomial);
                    if verdict != SprtVerdict::Continue {
                        writeln!(
                            out,
                            "sprt: {} accepted",
                            if verdict == SprtVerdict::H1 {
                                "H1"
                            } else {
                                "H0"
                            }
                        )
                        .map_err(io)?;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        out.flush().map_err(io)?;
    }
    let margin = match config.variant {
        Variant::Othello { .. } => "discs",
        Variant::KInRow(_) => "margin",
    };
    write!(out, "{}", table(&names, &standings, margin)).map_err(io)?;
    Ok(standings)
}

pub fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::Black) => "1-0",
        Some(Side::White) => "0-1",
        None => "1/2-1/2",
    }
}

pub fn ending_text(record: &GameRecord) -> String {
    match &record.ending {
        Ending::Rules => format!("over {}", record.status),
        Ending::TimeForfeit(side) => format!("{side} lost on time"),
        Ending::Illegal(side, text) => format!("{side} played an illegal move '{text}'"),
        Ending::Failure(side, text) => format!("{side} {text}"),
    }
}

fn score_line(standing: &Standing) -> String {
    let points = standing.wins as f64 + 0.5 * standing.draws as f64;
    format!(
        "{points}/{}",
        standing.wins + standing.draws + standing.losses
    )
}

/// The final table: one row per engine against the field. `margin` heads the column of
/// summed game scores (Othello: the exam's disc score; other games: wins minus losses).
pub fn table(names: &[&str], standings: &[Standing], margin: &str) -> String {
    let mut text = format!(
        "{:<16} {:>5} {:>5} {:>5} {:>5} {:>7} {:>8} {:>17} {:>6} {:>9} {:>7} {:>7} {:>8}\n",
        "engine",
        "games",
        "wins",
        "draws",
        "loss",
        "score",
        "elo",
        "95% interval",
        "los",
        margin,
        "time",
        "illegal",
        "failures"
    );
    for (name, s) in names.iter().zip(standings) {
        let games = s.wins + s.draws + s.losses;
        let estimate = elo_estimate(s.wins, s.draws, s.losses);
        let score = if games == 0 {
            0.0
        } else {
            100.0 * (s.wins as f64 + 0.5 * s.draws as f64) / games as f64
        };
        let _ = writeln!(
            text,
            "{:<16} {:>5} {:>5} {:>5} {:>5} {:>6.1}% {:>+8.1} {:>+8.1}..{:<+7.1} {:>5.1}% {:>9} {:>7} {:>7} {:>8}",
            name,
            games,
            s.wins,
            s.draws,
            s.losses,
            score,
            estimate.elo,
            estimate.low,
            estimate.high,
            100.0 * estimate.los,
            s.disc_score,
            s.time_forfeits,
            s.illegal,
            s.failures
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_files_take_moves_and_boards() {
        let variant = Variant::default();
        let text = "# openings\nf5d6c3\nf5 f6\n---------------------------OX------XO--------------------------- X\n";
        let openings = read_openings(text, variant).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(
            openings[0],
            Setup::Moves(vec!["f5".into(), "d6".into(), "c3".into()])
        );
        assert_eq!(openings[1], Setup::Moves(vec!["f5".into(), "f6".into()]));
        assert!(matches!(openings[2], Setup::Board(_)));
        assert!(read_openings("f5f5\n", variant).is_err());
        assert!(read_openings("a1\n", variant).is_err());
        let gomoku = Variant::parse("gomoku", []).unwrap();
        let openings = read_openings("h8h9i10\n7,7 7,8\n", gomoku).unwrap();
        assert_eq!(
            openings[0],
            Setup::Moves(vec!["h8".into(), "h9".into(), "i10".into()])
        );
        assert_eq!(openings[1], Setup::Moves(vec!["7,7".into(), "7,8".into()]));
        assert!(
            read_openings("h9\n", gomoku).is_err(),
            "the centre comes first"
        );
    }

    #[test]
    fn random_openings_are_legal_and_repeatable() {
        let variant = Variant::default();
        let a = random_openings(variant, 5, 8, 7);
        assert_eq!(a.len(), 5);
        for opening in &a {
            let Setup::Moves(moves) = opening else {
                panic!()
            };
            assert_eq!(moves.len(), 8);
        }
        let text: Vec<String> = a
            .iter()
            .map(|o| match o {
                Setup::Moves(m) => m.join(""),
                Setup::Board(b) => b.clone(),
            })
            .collect();
        assert!(read_openings(&text.join("\n"), variant).is_ok());
        let b = random_openings(variant, 5, 8, 7);
        assert_eq!(a, b);
    }
}
