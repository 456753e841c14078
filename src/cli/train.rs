//! `arbor train`: fits the pattern evaluation (pattern.rs) on the WTHOR games, on games
//! arbor plays against itself, or on both, under the normal or the misère rule.
//!
//! Every position of every finished game is labelled with the game's final score from
//! the side to move's view (the disc margin, negated under misère). Each phase (a band
//! of `phase_empties` empties, 6 unless told) is a ridge regression of the label on the pattern
//! configurations, solved by conjugate gradients (CGLS); positions within `OVERLAP`
//! empties of a band also train it, which smooths the weights from one phase to the
//! next. Configurations that are mirror images within one pattern share a weight, so the
//! evaluation is the same in every orientation.
//! One game in `HOLDOUT_EVERY` is kept apart to measure the fit and to stop it.
//!
//! With `solve_empties` E, the labels come from the exact solver instead: each position
//! with E empties or fewer is labelled with its exact margin, and each earlier one with
//! the exact margin of its game's position at E empties. Human play loses many discs in
//! the endgame, so the final result is a noisy label for the positions before it.
//!
//! With `search_depth` D too, each position with more than E empties is also searched
//! D plies deep by the engine (with the weights before: the shipped ones, or a weights
//! file given), and its label is the mean of that score and the solved one. The
//! players' errors between the position and E empties stay out of half the label.
//!
//! Self-play games start with `SELFPLAY_OPENING_PLIES` random moves, then each side
//! searches `SELFPLAY_DEPTH` plies with the engine's evaluation, playing a random move
//! instead one time in `SELFPLAY_RANDOM_ONE_IN`: the games reach the positions the
//! engine's own play reaches, and stray from them enough to cover their neighbours. Game
//! N of seed S is the same whatever the thread count (ChaCha8 stream N of seed S, a table
//! cleared per game).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use std::time::Instant;

use crate::game::othello::bitboard::square_bit;
use crate::game::othello::endgame::{Solver, final_margin};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::bounds;
use crate::files::{Output, OutputError};
use crate::game::othello::book::canonical;
use crate::game::othello::eval::{self, disc_features};
use crate::game::othello::pattern::{
    self, DEFAULT_PHASE_EMPTIES, LAYOUT, Weights, band, evaluate_with, phases,
};
use crate::game::othello::search::DISC;
use crate::game::othello::symmetry::Symmetry;
use crate::game::othello::{Othello, Rule};
use crate::game::{Game, Move, Side};
use crate::search::Searcher;
use crate::search::limits::Limits;
use crate::stop::Stop;

use super::train_journal::{Journal, Kind, Shard};
use super::tune::{GamePosition, replay_wthor};
use super::{train_data, train_labels};

const HOLDOUT_EVERY: usize = 10;
const OVERLAP: u32 = 2;
const RIDGE: f64 = 2.0;
const MAX_ITERATIONS: usize = 300;
/// Memory of each labelling thread's searcher, MiB.
const SEARCH_MEGABYTES: usize = 4;
/// The share of a searched position's label that its search gives, unless
/// `--search-share` says otherwise.
pub const DEFAULT_SEARCH_SHARE: f32 = 0.5;
/// Self-play: random moves that open each game.
const SELFPLAY_OPENING_PLIES: u32 = 8;
/// Self-play: the depth of each move's search.
const SELFPLAY_DEPTH: u32 = 4;
/// Self-play: one move in this many (after the opening) is random instead.
const SELFPLAY_RANDOM_ONE_IN: u32 = 16;

/// A training position: the side to move's discs, the other side's, its label (final or
/// solved margin in discs from the side to move's view), whether it is held out, who
/// is to move and the source it came from (an index into the sources read).
#[derive(Clone, Debug)]
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    pub label: f32,
    pub holdout: bool,
    pub black_to_move: bool,
    pub source: u8,
}

impl Sample {
    fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }
}

/// The games `arbor train` learns from.
#[derive(Clone, Copy, Debug, Default)]
pub struct Corpus<'a> {
    /// A directory of WTHOR `<moves> <black disc difference>` files.
    pub wthor: Option<&'a Path>,
    /// Logistello's game book (`logbook.gam`, gzipped or not; see train_data.rs).
    pub logbook: Option<&'a Path>,
    /// Egaroucid's early self-play records (a file or a directory; see train_data.rs).
    pub egaroucid: Option<&'a Path>,
    /// Self-play games to play, under the labelling's rule.
    pub selfplay: usize,
    /// The seed of the self-play games.
    pub seed: u64,
    /// Openings the self-play games start from (an XOT file) instead of random moves.
    pub selfplay_openings: Option<&'a Path>,
    /// Keeps every position as often as the games reach it, instead of once per
    /// position up to the board's symmetries.
    pub keep_duplicates: bool,
}

/// The sources of a corpus, in the order they are read (a sample's `source` indexes it).
const SOURCE_NAMES: [&str; 4] = ["wthor", "logistello", "egaroucid", "selfplay"];

/// What was read from one source, and what the de-duplication removed from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceCounts {
    /// Games read.
    pub games: usize,
    /// Games skipped: records that stop before the end have no final score.
    pub unfinished: usize,
    /// Positions of the games kept.
    pub positions: usize,
    /// Positions dropped as the same position (up to symmetry) as one kept before, in
    /// this source or an earlier one.
    pub duplicates: usize,
}

/// How `arbor train` labels its positions.
#[derive(Clone, Copy, Debug)]
pub struct Labelling {
    /// The rule the labels and the weights are for.
    pub rule: Rule,
    /// Positions with this many empties or fewer are solved exactly; earlier positions
    /// take their game's solved score at this many empties. 0: the game's final result.
    pub solve_empties: u32,
    /// Positions with more empties than `solve_empties` are labelled by a search this
    /// deep with the weights before, blended with their solved label. 0: not searched.
    pub search_depth: u32,
    /// The search's share of such a label (0 to 1), the solved label having the rest.
    pub search_share: f32,
    /// Threads that solve and search.
    pub threads: usize,
}

/// For every weight index of a phase, the index of the weight it shares.
fn shared_index() -> Vec<u32> {
    let layout = &*LAYOUT;
    let mut shared: Vec<u32> = (0..layout.phase_len as u32).collect();
    // Self-maps of each pattern: symmetries that send its squares onto themselves.
    let mut seen_offsets = Vec::new();
    for instance in &layout.instances {
        let (squares, offset) = instance.parts();
        if seen_offsets.contains(&offset) {
            continue;
        }
        seen_offsets.push(offset);
        let set = squares.iter().fold(0u64, |bits, &s| bits | (1u64 << s));
        let mut permutations = Vec::new();
        for symmetry in Symmetry::ALL {
            let image = |s: u8| symmetry.apply(square_bit(s as usize), 8).trailing_zeros() as u8;
            if symmetry.apply(set, 8) != set {
                continue;
            }
            let permutation: Vec<usize> = squares
                .iter()
                .map(|&s| squares.iter().position(|&t| t == image(s)).unwrap())
                .collect();
            permutations.push(permutation);
        }
        let len = squares.len();
        for config in 0..3u32.pow(len as u32) {
            let digits: Vec<u32> = (0..len)
                .map(|k| config / 3u32.pow((len - 1 - k) as u32) % 3)
                .collect();
            let canonical = permutations
                .iter()
                .map(|permutation| {
                    let mut mapped = vec![0; len];
                    for (k, &to) in permutation.iter().enumerate() {
                        mapped[to] = digits[k];
                    }
                    mapped.iter().fold(0, |index, &d| index * 3 + d)
                })
                .min()
                .unwrap();
            shared[(offset + config) as usize] = offset + canonical;
        }
    }
    shared
}

/// Where labels are kept between runs: the labelled positions (`--labels`), and the
/// journal of a labelling run's finished solves and searches (`--label-journal`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LabelFiles<'a> {
    pub labels: Option<&'a Path>,
    /// Journals read in turn (other shards' beside this run's); new records go to the
    /// first.
    pub journals: &'a [PathBuf],
    /// Only this shard's solves and searches, into the first journal; no labels or fit.
    pub shard: Option<Shard>,
    /// Labels files of other runs (other sources or options) whose positions join these.
    pub added: &'a [PathBuf],
}

/// The weights file `train` writes unless told otherwise: a new file, never the shipped one.
pub const DEFAULT_OUT: &str = "trained.bin";

/// Labels the corpus's positions, trains all phases and writes the weights to `out_path`;
/// prints what each source gave, the held-out error per phase next to those of the
/// evaluation before (the engine's, or `search_weights`, which the labelling searches use
/// too) and the hand-written evaluation, and the same per source. An existing file is
/// replaced only with `replace`, and only once training has succeeded (see [`Output`]).
/// With `fit_weights` false it stops after the counts and the errors of the evaluations
/// before on the held-out positions, and writes nothing.
#[allow(clippy::too_many_arguments)]
pub fn train(
    corpus: Corpus,
    labelling: Labelling,
    search_weights: Option<&Path>,
    files: LabelFiles,
    phase_empties: u32,
    out_path: &Path,
    replace: bool,
    fit_weights: bool,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    // Checked before the work: a bad --out costs nothing.
    let output = if fit_weights {
        Some(Output::check(out_path, replace).map_err(|e| match e {
            OutputError::Exists(_) => format!(
                "{} exists: give --force to replace it, or another --out",
                out_path.display()
            ),
            other => other.to_string(),
        })?)
    } else {
        None
    };
    if let Some(shard) = files.shard {
        let problem = if files.journals.is_empty() {
            Some("needs --label-journal, where its work goes")
        } else if files.labels.is_some() || !files.added.is_empty() || fit_weights {
            Some("labels its share only: give --no-fit and no --labels or --add-labels")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(format!(
                "--label-shard {}/{}: {problem}",
                shard.index, shard.count
            ));
        }
    }
    if let Some(path) = search_weights {
        super::weights_args::load_file(labelling.rule, path)?;
    }
    if corpus.wthor.is_none()
        && corpus.logbook.is_none()
        && corpus.egaroucid.is_none()
        && corpus.selfplay == 0
    {
        return Err(
            "nothing to train on: give --wthor DIR, --logbook FILE, --egaroucid DIR, \
                    --selfplay GAMES or several"
                .into(),
        );
    }
    if corpus.selfplay_openings.is_some() && corpus.selfplay == 0 {
        return Err("--selfplay-openings needs --selfplay GAMES".into());
    }
    let journal_key = work_key(&corpus, labelling, search_weights)?;
    let key = labels_key(&journal_key, labelling);
    let (samples, counts) = match files.labels {
        Some(path) if std::fs::symlink_metadata(path).is_ok() => {
            let started = Instant::now();
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let (counts, samples) = train_labels::decode(&bytes, &key, SOURCE_NAMES.len())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            writeln!(
                out,
                "{} labelled positions read from {} in {:.1} s",
                samples.len(),
                path.display(),
                started.elapsed().as_secs_f64()
            )
            .map_err(io)?;
            (samples, counts)
        }
        _ => {
            // Checked before the labelling: its hour is not lost to a bad path.
            let labels_output = files
                .labels
                .map(|path| Output::check(path, false))
                .transpose()?;
            let mut journal = match files.journals.split_first() {
                Some((first, others)) => {
                    let mut journal = Journal::open(first, &journal_key)?;
                    for path in others {
                        journal.read_more(path, &journal_key)?;
                    }
                    journal.set_shard(files.shard);
                    Some(journal)
                }
                None => None,
            };
            let Some((samples, counts)) = label_corpus(corpus, labelling, journal.as_mut(), out)?
            else {
                let shard = files.shard.expect("labels are whole unless sharded");
                writeln!(
                    out,
                    "label shard {}/{} done: its solves and searches are in {}",
                    shard.index,
                    shard.count,
                    files.journals[0].display()
                )
                .map_err(io)?;
                return Ok(());
            };
            if let Some(output) = labels_output {
                output.write(&train_labels::encode(&key, &counts, &samples))?;
                writeln!(out, "labels written to {}", output.path().display()).map_err(io)?;
            }
            (samples, counts)
        }
    };
    let (samples, counts) = add_labels(samples, counts, files.added, &corpus, labelling.rule, out)?;
    report_counts(&counts, out)?;
    let games: usize = counts.iter().map(|c| c.games - c.unfinished).sum();
    let held_out = samples.iter().filter(|sample| sample.holdout).count();
    // Without a fit only the held-out positions are needed.
    let training = if output.is_some() { samples.len() } else { 0 };
    if held_out == 0 || held_out == training {
        return Err(format!(
            "{games} games are too few to train on (one in {HOLDOUT_EVERY} is held out)"
        ));
    }
    let Some(output) = output else {
        for line in source_errors(&samples, None, labelling.rule) {
            writeln!(out, "{line}").map_err(io)?;
        }
        return Ok(());
    };
    let (weights, reports) = fit(&samples, labelling.rule, phase_empties);
    for report in reports {
        writeln!(out, "{report}").map_err(io)?;
    }
    if counts.iter().filter(|c| c.games > c.unfinished).count() > 1 {
        for line in source_errors(&samples, Some(&weights), labelling.rule) {
            writeln!(out, "{line}").map_err(io)?;
        }
    }
    output.write(&pattern::encode(&weights))?;
    writeln!(out, "wrote {}", out_path.display()).map_err(io)?;
    Ok(())
}

/// The labelled positions and what each source gave.
type Labelled = (Vec<Sample>, Vec<SourceCounts>);

/// Reads the corpus's games, labels their positions and, unless told to keep them, merges
/// the duplicates: the positions and the counts per source; `None` when the journal's
/// shard is done and the labels are not whole.
fn label_corpus(
    corpus: Corpus,
    labelling: Labelling,
    journal: Option<&mut Journal>,
    out: &mut impl std::io::Write,
) -> Result<Option<Labelled>, String> {
    let io = |e: std::io::Error| e.to_string();
    let mut samples = Vec::new();
    let mut game_starts = Vec::new();
    let mut counts = vec![SourceCounts::default(); SOURCE_NAMES.len()];
    let rule_sign = if labelling.rule == Rule::Misere {
        -1
    } else {
        1
    };
    // One game in HOLDOUT_EVERY of each source is held out, counted within the source.
    let mut add_game = |source: usize, positions: &[GamePosition], black_diff: Option<i32>| {
        let counts = &mut counts[source];
        counts.games += 1;
        let Some(black_diff) = black_diff else {
            counts.unfinished += 1;
            return;
        };
        let holdout = (counts.games - counts.unfinished - 1) % HOLDOUT_EVERY == 0;
        counts.positions += positions.len();
        game_starts.push(samples.len());
        for position in positions {
            let diff = if position.black_to_move {
                black_diff
            } else {
                -black_diff
            };
            samples.push(Sample {
                player: position.player,
                opponent: position.opponent,
                label: (rule_sign * diff) as f32,
                holdout,
                black_to_move: position.black_to_move,
                source: source as u8,
            });
        }
    };
    if let Some(dir) = corpus.wthor {
        replay_wthor(dir, |positions, diff| add_game(0, positions, Some(diff)))?;
    }
    if let Some(path) = corpus.logbook {
        train_data::read_logbook(path, |game| add_game(1, &game.positions, game.black_margin))?;
    }
    if let Some(path) = corpus.egaroucid {
        train_data::read_egaroucid(path, |game| add_game(2, &game.positions, game.black_margin))?;
    }
    if corpus.selfplay > 0 {
        let started = Instant::now();
        let openings = corpus
            .selfplay_openings
            .map(train_data::read_xot)
            .transpose()?;
        let played = selfplay_games(corpus.selfplay, corpus.seed, openings.as_deref(), labelling)?;
        for (positions, black_diff) in &played {
            add_game(3, positions, Some(*black_diff));
        }
        let from = match (&openings, corpus.selfplay_openings) {
            (Some(openings), Some(path)) => {
                format!("from {} openings of {}", openings.len(), path.display())
            }
            _ => format!("from {SELFPLAY_OPENING_PLIES} random moves"),
        };
        writeln!(
            out,
            "{} self-play games ({} rule, seed {}, {from}) in {:.0} s",
            played.len(),
            labelling.rule.name(),
            corpus.seed,
            started.elapsed().as_secs_f64()
        )
        .map_err(io)?;
    }
    let games: usize = counts.iter().map(|c| c.games - c.unfinished).sum();
    writeln!(out, "{games} games, {} positions", samples.len()).map_err(io)?;
    if labelling.solve_empties > 0 {
        let started = std::time::Instant::now();
        let Some(solved) = solve_labels_journaled(&mut samples, &game_starts, labelling, journal)?
        else {
            return Ok(None);
        };
        let searched = match labelling.search_depth {
            0 => String::new(),
            depth => format!(", earlier positions also by searches {depth} plies deep"),
        };
        writeln!(
            out,
            "labelled by exact solves from {} empties{searched}: {solved} solves in {:.0} s",
            labelling.solve_empties,
            started.elapsed().as_secs_f64()
        )
        .map_err(io)?;
    }
    if !corpus.keep_duplicates {
        let started = Instant::now();
        samples = merge_duplicates(samples, &mut counts);
        writeln!(
            out,
            "{} positions once up to symmetry (duplicates merged in {:.1} s)",
            samples.len(),
            started.elapsed().as_secs_f64()
        )
        .map_err(io)?;
    }
    Ok(Some((samples, counts)))
}

/// Joins the positions of other runs' labels files (`--add-labels`) to these, with
/// their counts added per source; a position that is already here, up to symmetry, is
/// merged as the corpus's own repeats are (unless the corpus keeps them). Each file must
/// be for the same rule; its key, printed, says what else it was made from.
fn add_labels(
    mut samples: Vec<Sample>,
    mut counts: Vec<SourceCounts>,
    paths: &[PathBuf],
    corpus: &Corpus,
    rule: Rule,
    out: &mut impl std::io::Write,
) -> Result<Labelled, String> {
    if paths.is_empty() {
        return Ok((samples, counts));
    }
    let rule_prefix = format!("rule {};", rule.name());
    for path in paths {
        let error = |e: String| format!("{}: {e}", path.display());
        let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
        let (key, added_counts, added) =
            train_labels::decode_any(&bytes, SOURCE_NAMES.len()).map_err(error)?;
        if !key.starts_with(&rule_prefix) {
            return Err(error(format!(
                "labels for another rule than {} ({key})",
                rule.name()
            )));
        }
        writeln!(
            out,
            "{} labelled positions added from {} ({key})",
            added.len(),
            path.display()
        )
        .map_err(|e| e.to_string())?;
        for (total, added) in counts.iter_mut().zip(&added_counts) {
            total.games += added.games;
            total.unfinished += added.unfinished;
            total.positions += added.positions;
            total.duplicates += added.duplicates;
        }
        samples.extend(added);
    }
    if !corpus.keep_duplicates {
        samples = merge_duplicates(samples, &mut counts);
    }
    Ok((samples, counts))
}

/// A line per source: what was read and what the de-duplication removed.
fn report_counts(counts: &[SourceCounts], out: &mut impl std::io::Write) -> Result<(), String> {
    for (name, counts) in SOURCE_NAMES.iter().zip(counts) {
        if counts.games == 0 {
            continue;
        }
        writeln!(
            out,
            "{name}: {} games read, {} unfinished skipped, {} positions, {} duplicates removed, \
             {} kept",
            counts.games,
            counts.unfinished,
            counts.positions,
            counts.duplicates,
            counts.positions - counts.duplicates
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// What the labels depend on, in words: the key of a `--labels` file. The search's
/// share is named only when it is not the default, so that files made before it was an
/// option keep their key.
fn labels_key(work_key: &str, labelling: Labelling) -> String {
    if labelling.search_share == DEFAULT_SEARCH_SHARE {
        work_key.to_string()
    } else {
        format!("{work_key}; search-share {}", labelling.search_share)
    }
}

/// What the solves and searches depend on, in words: the key of a label journal (which
/// keeps the searches' scores apart from the solved labels, so that labels with another
/// search share are made from the same journal).
fn work_key(
    corpus: &Corpus,
    labelling: Labelling,
    search_weights: Option<&Path>,
) -> Result<String, String> {
    let weights = match search_weights {
        Some(path) => std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => pattern::shipped_file(labelling.rule).to_vec(),
    };
    let mut key = format!(
        "rule {}; solve-empties {}; search-depth {}; search weights {:016x}; \
         keep-duplicates {}; selfplay {} seed {}",
        labelling.rule.name(),
        labelling.solve_empties,
        labelling.search_depth,
        train_labels::fnv1a(&weights),
        corpus.keep_duplicates,
        corpus.selfplay,
        corpus.seed,
    );
    for (name, path) in [
        ("wthor", corpus.wthor),
        ("logbook", corpus.logbook),
        ("egaroucid", corpus.egaroucid),
        ("selfplay-openings", corpus.selfplay_openings),
    ] {
        if let Some(path) = path {
            let size = train_labels::source_size(path)?;
            key += &format!("; {name} {} ({size} bytes)", path.display());
        }
    }
    Ok(key)
}

/// Keeps each position once up to the board's eight symmetries: the first occurrence
/// stays (its side, source and held-out mark), labelled by the mean of the labels of the
/// occurrences on its side of the held-out split; the others are dropped and counted as
/// duplicates of their own source. Held-out labels never reach a training position nor
/// the other way round. The result does not depend on anything but the samples' order.
pub fn merge_duplicates(samples: Vec<Sample>, counts: &mut [SourceCounts]) -> Vec<Sample> {
    use std::collections::hash_map::{Entry, HashMap};
    let mut first: HashMap<(u64, u64), u32> = HashMap::with_capacity(samples.len());
    let mut merged: Vec<Sample> = Vec::new();
    let mut sums: Vec<(f64, u32)> = Vec::new();
    for sample in samples {
        match first.entry(canonical(sample.player, sample.opponent)) {
            Entry::Occupied(entry) => {
                let index = *entry.get() as usize;
                if merged[index].holdout == sample.holdout {
                    sums[index].0 += sample.label as f64;
                    sums[index].1 += 1;
                }
                counts[sample.source as usize].duplicates += 1;
            }
            Entry::Vacant(entry) => {
                entry.insert(merged.len() as u32);
                sums.push((sample.label as f64, 1));
                merged.push(sample);
            }
        }
    }
    for (sample, (sum, count)) in merged.iter_mut().zip(sums) {
        sample.label = (sum / count as f64) as f32;
    }
    merged
}

/// The held-out RMS error per source and phase of `weights` (when given), the evaluation
/// before and the hand-written evaluation, a line each.
pub fn source_errors(samples: &[Sample], weights: Option<&Weights>, rule: Rule) -> Vec<String> {
    // Reported in bands of the default width, whatever the weights': comparable lines.
    const REPORT: u32 = DEFAULT_PHASE_EMPTIES;
    const REPORT_PHASES: usize = 61usize.div_ceil(REPORT as usize);
    // [source][phase]: (positions, squared errors: new, before, hand-written).
    let mut sums = vec![[(0usize, [0f64; 3]); REPORT_PHASES]; SOURCE_NAMES.len()];
    for sample in samples.iter().filter(|sample| sample.holdout) {
        let phase = (sample.empties() / REPORT) as usize;
        let label = sample.label as f64;
        let square = |centi: i32| (centi as f64 / 100.0 - label).powi(2);
        let (player, opponent) = (sample.player, sample.opponent);
        let entry = &mut sums[sample.source as usize][phase.min(REPORT_PHASES - 1)];
        entry.0 += 1;
        if let Some(weights) = weights {
            entry.1[0] += square(evaluate_with(weights, player, opponent));
        }
        entry.1[1] += square(eval::evaluate_discs(player, opponent, !0, rule));
        entry.1[2] += square(disc_features(player, opponent, !0).score(eval::weights(8, rule)));
    }
    let mut lines = Vec::new();
    for (name, phases) in SOURCE_NAMES.iter().zip(&sums) {
        for (phase, (count, squares)) in phases.iter().enumerate() {
            if *count == 0 {
                continue;
            }
            let rms = |k: usize| (squares[k] / *count as f64).sqrt();
            let (low, high) = band(REPORT, phase);
            let new = match weights {
                Some(_) => format!("new weights {:.2}, ", rms(0)),
                None => String::new(),
            };
            lines.push(format!(
                "{name} held out, phase {phase} ({low}-{high} empties): {count} positions, \
                 RMS error {new}evaluation before {:.2}, hand-written {:.2}",
                rms(1),
                rms(2)
            ));
        }
    }
    lines
}

/// Relabels the games (each starting at its index in `game_starts`) by exact solves, and
/// by searches when `labelling.search_depth` is set, as the module's header describes, on
/// `labelling.threads` threads; returns the number of positions solved, or why a solver
/// could not be had. The labels do not depend on the thread count.
pub fn solve_labels(
    samples: &mut [Sample],
    game_starts: &[usize],
    labelling: Labelling,
) -> Result<usize, String> {
    Ok(
        solve_labels_journaled(samples, game_starts, labelling, None)?
            .expect("every game is labelled without a shard"),
    )
}

/// [`solve_labels`], with the games and searches that `journal` holds taken from it and
/// each one finished written to it (see `train_journal.rs`): the same labels, whether
/// the work was done in one run or over several. `None` when the journal's shard is
/// done and the labels are not whole.
fn solve_labels_journaled(
    samples: &mut [Sample],
    game_starts: &[usize],
    labelling: Labelling,
    mut journal: Option<&mut Journal>,
) -> Result<Option<usize>, String> {
    let solved = journaled(
        split_games(samples, game_starts),
        Kind::Solved,
        journal.as_deref_mut(),
        labelling.threads,
        "games solved",
        |game| game.len(),
        || Solver::try_new(32 << 20),
        |solver, game| {
            label_game(solver, game, labelling);
            game.iter().map(|sample| sample.label).collect()
        },
    )?;
    if solved.iter().any(Option::is_none) {
        if labelling.search_depth > 0 {
            search_labels(samples, game_starts, labelling, journal)?;
        }
        return Ok(None);
    }
    let mut count = 0;
    for (game, labels) in split_games(samples, game_starts)
        .into_iter()
        .zip(solved.into_iter().flatten())
    {
        for (sample, label) in game.iter_mut().zip(labels) {
            sample.label = label;
        }
        count += game
            .iter()
            .position(|sample| sample.empties() <= labelling.solve_empties)
            .map_or(0, |first| game.len() - first);
    }
    if labelling.search_depth > 0 && !search_labels(samples, game_starts, labelling, journal)? {
        return Ok(None);
    }
    Ok(Some(count))
}

/// Games a journal's run works through between writes: a stopped run loses at most
/// this many games' work.
const JOURNAL_CHUNK: usize = 2000;

/// [`in_parallel`] for jobs whose results (`work`'s values, `len` of them for a job) a
/// journal keeps: the jobs it holds are not run again, and the others (of the journal's
/// shard) are run in chunks, each written to it as it finishes. Without a journal,
/// [`in_parallel`] itself. `None` for the jobs of other shards not in the journal.
#[allow(clippy::too_many_arguments)]
fn journaled<J: Send, S>(
    jobs: Vec<J>,
    kind: Kind,
    journal: Option<&mut Journal>,
    threads: usize,
    what: &str,
    len: impl Fn(&J) -> usize,
    state: impl Fn() -> Result<S, String> + Sync,
    work: impl Fn(&mut S, J) -> Vec<f32> + Sync,
) -> Result<Vec<Option<Vec<f32>>>, String> {
    let Some(journal) = journal else {
        let results = in_parallel(jobs, threads, what, state, work)?;
        return Ok(results.into_iter().map(Some).collect());
    };
    if journal
        .last_index(kind)
        .is_some_and(|last| last >= jobs.len())
    {
        return Err(format!(
            "the label journal has more jobs than these {} {what}: not this corpus's",
            jobs.len()
        ));
    }
    let total = jobs.len();
    let mut results: Vec<Option<Vec<f32>>> = Vec::with_capacity(total);
    let mut journaled = 0;
    let mut todo = Vec::new();
    for (index, job) in jobs.into_iter().enumerate() {
        match journal.get(kind, index) {
            Some(values) if values.len() == len(&job) => {
                results.push(Some(values.to_vec()));
                journaled += 1;
            }
            Some(values) => {
                return Err(format!(
                    "the label journal has {} values for job {index} of the {what}, not {}: \
                     not this corpus's",
                    values.len(),
                    len(&job)
                ));
            }
            None => {
                results.push(None);
                if journal.does(index) {
                    todo.push((index, job));
                }
            }
        }
    }
    if !todo.is_empty() {
        log::info!(
            "{journaled} of {total} {what} in the label journal, {} to go here",
            todo.len()
        );
    }
    let started = Instant::now();
    let mut done = journaled;
    let mut todo = todo.into_iter().peekable();
    while todo.peek().is_some() {
        let (indices, chunk): (Vec<usize>, Vec<J>) = todo.by_ref().take(JOURNAL_CHUNK).unzip();
        let values = in_parallel(chunk, threads, what, &state, &work)?;
        done += indices.len();
        for (index, values) in indices.into_iter().zip(values) {
            journal.append(kind, index, &values);
            results[index] = Some(values);
        }
        journal.sync()?;
        log::info!(
            "{done} of {total} {what} in the label journal, {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(results)
}

/// The games of `samples`, each from its start in `game_starts` to the next.
fn split_games<'a>(samples: &'a mut [Sample], game_starts: &[usize]) -> Vec<&'a mut [Sample]> {
    let mut games = Vec::with_capacity(game_starts.len());
    let ends = game_starts.iter().skip(1).copied().chain([samples.len()]);
    let mut rest = &mut samples[game_starts.first().copied().unwrap_or(0)..];
    for (&start, end) in game_starts.iter().zip(ends) {
        let (game, tail) = std::mem::take(&mut rest).split_at_mut(end - start);
        games.push(game);
        rest = tail;
    }
    games
}

/// `work` on every job, on `threads` threads that take the jobs in turn, each with its
/// own `state`; the results in the jobs' order. `what` names the jobs in the progress log.
fn in_parallel<J: Send, S, R: Send>(
    jobs: Vec<J>,
    threads: usize,
    what: &str,
    state: impl Fn() -> Result<S, String> + Sync,
    work: impl Fn(&mut S, J) -> R + Sync,
) -> Result<Vec<R>, String> {
    let total = jobs.len();
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate());
    let done = AtomicUsize::new(0);
    let started = Instant::now();
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (queue, done, state, work) = (&queue, &done, &state, &work);
                scope.spawn(move || {
                    let mut state = state()?;
                    let mut results = Vec::new();
                    loop {
                        // The lock is released before the job runs.
                        let next = queue.lock().expect("job queue").next();
                        let Some((index, job)) = next else { break };
                        results.push((index, work(&mut state, job)));
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if finished.is_multiple_of(5000) {
                            log::info!(
                                "{finished} of {total} {what}, {:.0} s",
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    Ok(results)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("labelling thread"))
            .collect::<Result<Vec<_>, String>>()
    })?
    .into_iter()
    .flatten()
    .collect();
    results.sort_unstable_by_key(|(index, _)| *index);
    Ok(results.into_iter().map(|(_, result)| result).collect())
}

/// Labels one game's positions from `solve_empties` empties on by their exact scores,
/// and the earlier ones by the first of those; returns the number solved. A game that
/// ends before `solve_empties` keeps its result.
fn label_game(solver: &mut Solver, game: &mut [Sample], labelling: Labelling) -> usize {
    let Some(first) = game
        .iter()
        .position(|sample| sample.empties() <= labelling.solve_empties)
    else {
        return 0;
    };
    for sample in &mut game[first..] {
        let solution = solver
            .solve(
                sample.player,
                sample.opponent,
                !0,
                labelling.rule,
                &Stop::never(),
            )
            .expect("a solve without a stop finishes");
        sample.label = solution.score as f32;
    }
    let (anchor, anchor_black) = (game[first].label, game[first].black_to_move);
    for sample in &mut game[..first] {
        sample.label = if sample.black_to_move == anchor_black {
            anchor
        } else {
            -anchor
        };
    }
    game.len() - first
}

/// Blends the label of each position beyond `solve_empties` with its score by a
/// `search_depth` search: `search_share` of the search's, the rest the solved label's.
/// A game that ends before `solve_empties` has no solved label (its final result carries
/// the players' errors), so its positions take the search's score alone.
///
/// `false` when the journal's shard is done and the labels are not whole.
///
/// Each position is searched once up to symmetry (the openings of a big corpus repeat
/// many times over): in the game that reaches it first, with the table cleared per game,
/// so the labels do not depend on which thread searched.
fn search_labels(
    samples: &mut [Sample],
    game_starts: &[usize],
    labelling: Labelling,
    journal: Option<&mut Journal>,
) -> Result<bool, String> {
    const NONE: u32 = u32::MAX;
    let searched = |sample: &Sample| sample.empties() > labelling.solve_empties;
    // Each position's index among the distinct ones, and those each game reaches first.
    let mut distinct: std::collections::HashMap<(u64, u64), u32> = Default::default();
    let mut ids = vec![NONE; samples.len()];
    let mut jobs: Vec<Vec<Othello>> = Vec::with_capacity(game_starts.len());
    let ends = game_starts.iter().skip(1).copied().chain([samples.len()]);
    for (&start, end) in game_starts.iter().zip(ends) {
        let mut firsts = Vec::new();
        for (k, sample) in samples[start..end].iter().enumerate() {
            if !searched(sample) {
                continue;
            }
            let next = distinct.len() as u32;
            let id = *distinct
                .entry(canonical(sample.player, sample.opponent))
                .or_insert(next);
            if id == next {
                firsts.push(Othello::from_sides_under(
                    labelling.rule,
                    sample.player,
                    sample.opponent,
                    sample.black_to_move,
                ));
            }
            ids[start + k] = id;
        }
        jobs.push(firsts);
    }
    drop(distinct);
    let limits = Limits {
        depth: Some(labelling.search_depth),
        ..Limits::default()
    };
    let per_game = journaled(
        jobs,
        Kind::Searched,
        journal,
        labelling.threads,
        "games searched",
        Vec::len,
        || {
            let start = Othello::new(8, labelling.rule).map_err(|e| e.to_string())?;
            Searcher::new(&start, SEARCH_MEGABYTES)
        },
        |searcher: &mut Searcher<Othello>, positions: Vec<Othello>| {
            searcher.clear();
            positions
                .iter()
                .map(|position| {
                    let result = searcher.search_to(position, &limits, &Stop::never(), &mut |_| {});
                    result.score as f32 / DISC as f32
                })
                .collect::<Vec<f32>>()
        },
    )?;
    if per_game.iter().any(Option::is_none) {
        return Ok(false);
    }
    let scores: Vec<f32> = per_game.into_iter().flatten().flatten().collect();
    for (k, game) in split_games(samples, game_starts).into_iter().enumerate() {
        let weight = if game.iter().any(|sample| !searched(sample)) {
            labelling.search_share
        } else {
            1.0
        };
        for (sample, &id) in game.iter_mut().zip(&ids[game_starts[k]..]) {
            if id != NONE {
                sample.label = (1.0 - weight) * sample.label + weight * scores[id as usize];
            }
        }
    }
    Ok(true)
}

/// Plays `count` self-play games under `labelling.rule` (see the module's header) on
/// `labelling.threads` threads: each game's positions with a move to play, and Black's
/// final disc margin (empties to the side with more discs). With `openings`, game N
/// starts from the opening its stream draws first, instead of from random moves.
pub fn selfplay_games(
    count: usize,
    seed: u64,
    openings: Option<&[Othello]>,
    labelling: Labelling,
) -> Result<Vec<(Vec<GamePosition>, i32)>, String> {
    let start = Othello::new(8, labelling.rule).map_err(|e| e.to_string())?;
    let openings: Option<Vec<Othello>> = openings.map(|openings| {
        openings
            .iter()
            .map(|opening| {
                Othello::from_sides_under(
                    labelling.rule,
                    opening.player(),
                    opening.opponent(),
                    opening.side_to_move() == Side::Black,
                )
            })
            .collect()
    });
    play_indexed(
        count,
        labelling.threads,
        5000,
        || Searcher::new(&start, SEARCH_MEGABYTES),
        |searcher, index| selfplay_game(searcher, &start, openings.as_deref(), seed, index),
    )
}

/// Plays games 0 to `count` on `threads` threads, each thread with its own `worker`
/// (a searcher), and returns them in game order whatever thread played which; logs
/// progress every `log_every` games.
pub(crate) fn play_indexed<W, T: Send>(
    count: usize,
    threads: usize,
    log_every: usize,
    worker: impl Fn() -> Result<W, String> + Sync,
    play: impl Fn(&mut W, usize) -> T + Sync,
) -> Result<Vec<T>, String> {
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    let mut played: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (next, worker, play) = (&next, &worker, &play);
                scope.spawn(move || {
                    let mut state = worker()?;
                    let mut games = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= count {
                            break;
                        }
                        games.push((index, play(&mut state, index)));
                        if (index + 1).is_multiple_of(log_every) {
                            log::info!(
                                "{} of {count} self-play games, {:.0} s",
                                index + 1,
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                    Ok::<_, String>(games)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("self-play thread"))
            .collect::<Result<Vec<_>, String>>()
            .map(|per_thread| per_thread.into_iter().flatten().collect())
    })?;
    played.sort_by_key(|(index, _)| *index);
    Ok(played.into_iter().map(|(_, game)| game).collect())
}

/// Self-play game `index` of `seed` from `start`, or from one of `openings`.
fn selfplay_game(
    searcher: &mut Searcher<Othello>,
    start: &Othello,
    openings: Option<&[Othello]>,
    seed: u64,
    index: usize,
) -> (Vec<GamePosition>, i32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    searcher.clear();
    let limits = Limits {
        depth: Some(SELFPLAY_DEPTH),
        ..Limits::default()
    };
    let (mut game, mut ply) = match openings {
        Some(openings) if !openings.is_empty() => (
            openings[rng.random_range(0..openings.len())].clone(),
            SELFPLAY_OPENING_PLIES,
        ),
        _ => (start.clone(), 0),
    };
    let (mut positions, mut moves) = (Vec::with_capacity(60), Vec::new());
    loop {
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        if moves[0] != Move::PASS {
            positions.push(GamePosition {
                player: game.player(),
                opponent: game.opponent(),
                black_to_move: game.side_to_move() == Side::Black,
            });
        }
        let random =
            ply < SELFPLAY_OPENING_PLIES || rng.random_range(0..SELFPLAY_RANDOM_ONE_IN) == 0;
        let mv = if random || moves.len() == 1 {
            moves[rng.random_range(0..moves.len())]
        } else {
            searcher
                .search_to(&game, &limits, &Stop::never(), &mut |_| {})
                .best
        };
        game.make(mv);
        ply += 1;
    }
    let black_diff = final_margin(game.discs(Side::Black), game.discs(Side::White), 64);
    (positions, black_diff)
}

/// Fits every phase, a band of `phase_empties` empties each, on `samples` of `rule`: the
/// weights and a report per phase.
pub fn fit(samples: &[Sample], rule: Rule, phase_empties: u32) -> (Weights, Vec<String>) {
    let shared = shared_index();
    let layout = &*LAYOUT;
    let count = phases(phase_empties);
    let mut weights = vec![0i16; count * layout.phase_len];
    let mut reports = Vec::new();
    let mut results: Vec<(usize, Vec<f64>, String)> = std::thread::scope(|scope| {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (samples, shared) = (samples, &shared);
                scope.spawn(move || {
                    (0..count)
                        .filter(|phase| phase % workers == worker)
                        .map(|phase| {
                            let bounds = band(phase_empties, phase);
                            let (fitted, report) =
                                train_phase(samples, shared, rule, phase, bounds);
                            (phase, fitted, report)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().expect("training thread"))
            .collect()
    });
    results.sort_by_key(|(phase, _, _)| *phase);
    for (phase, fitted, report) in results {
        reports.push(report);
        let base = phase * layout.phase_len;
        // The bias shares with itself, so it is copied here too.
        for (index, &target) in shared.iter().enumerate() {
            let centi = (fitted[target as usize] * 100.0).round();
            weights[base + index] = centi.clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
    }
    // A band whose fit stays at zeros (too few positions to improve on them: the first
    // plies, which the de-duplication leaves few of) takes the band below's tables, so
    // that its moves still differ.
    let len = layout.phase_len;
    for (phase, report) in reports.iter_mut().enumerate().skip(1) {
        let base = phase * len;
        if weights[base..base + len].iter().all(|&w| w == 0) {
            weights.copy_within(base - len..base, base);
            report.push_str(" (fit stayed at zeros: the band below's tables)");
        }
    }
    let weights = Weights::new(weights, phase_empties).expect("as many tables as bands");
    (weights, reports)
}

/// One phase: CGLS on the training positions, stopped where the held-out error is least.
fn train_phase(
    samples: &[Sample],
    shared: &[u32],
    rule: Rule,
    phase: usize,
    (low, high): (u32, u32),
) -> (Vec<f64>, String) {
    let layout = &*LAYOUT;
    let features = layout.instances.len() + 1;
    let in_band = |sample: &Sample, margin: u32| {
        let empties = sample.empties();
        empties + margin >= low && empties <= high + margin
    };
    let mut rows: Vec<u32> = Vec::new();
    let mut labels: Vec<f64> = Vec::new();
    let mut held_rows: Vec<u32> = Vec::new();
    let mut held_labels: Vec<f64> = Vec::new();
    let (mut hand_error, mut before_error) = (0.0, 0.0);
    let mut indices = vec![0u32; layout.instances.len()];
    for sample in samples {
        let (target_rows, target_labels) = if sample.holdout {
            if !in_band(sample, 0) {
                continue;
            }
            let hand =
                disc_features(sample.player, sample.opponent, !0).score(eval::weights(8, rule));
            hand_error += (hand as f64 / 100.0 - sample.label as f64).powi(2);
            let before = eval::evaluate_discs(sample.player, sample.opponent, !0, rule);
            before_error += (before as f64 / 100.0 - sample.label as f64).powi(2);
            (&mut held_rows, &mut held_labels)
        } else {
            if !in_band(sample, OVERLAP) {
                continue;
            }
            (&mut rows, &mut labels)
        };
        layout.indices(sample.player, sample.opponent, &mut indices);
        target_rows.extend(indices.iter().map(|&i| shared[i as usize]));
        target_rows.push(layout.bias_index() as u32);
        target_labels.push(sample.label as f64);
    }
    let n = layout.phase_len;
    let apply = |x: &[f64], rows: &[u32], out: &mut Vec<f64>| {
        out.clear();
        out.extend(
            rows.chunks(features)
                .map(|row| row.iter().map(|&i| x[i as usize]).sum::<f64>()),
        );
    };
    let apply_transposed = |r: &[f64], out: &mut [f64]| {
        out.fill(0.0);
        for (row, &value) in rows.chunks(features).zip(r) {
            for &i in row {
                out[i as usize] += value;
            }
        }
    };
    let held_error = |x: &[f64]| {
        let mut predictions = Vec::new();
        apply(x, &held_rows, &mut predictions);
        let sum: f64 = predictions
            .iter()
            .zip(&held_labels)
            .map(|(p, y)| (p - y).powi(2))
            .sum();
        (sum / held_labels.len().max(1) as f64).sqrt()
    };
    // CGLS for min |A x - y|^2 + RIDGE |x|^2.
    let mut x = vec![0.0; n];
    let mut residual = labels.clone();
    let mut s = vec![0.0; n];
    apply_transposed(&residual, &mut s);
    let mut p = s.clone();
    let mut gamma: f64 = s.iter().map(|v| v * v).sum();
    let mut q = Vec::new();
    let (mut best, mut best_error) = (x.clone(), held_error(&x));
    let mut since_best = 0;
    for _ in 0..MAX_ITERATIONS {
        apply(&p, &rows, &mut q);
        let delta: f64 =
            q.iter().map(|v| v * v).sum::<f64>() + RIDGE * p.iter().map(|v| v * v).sum::<f64>();
        if delta == 0.0 {
            break;
        }
        let alpha = gamma / delta;
        for (xi, pi) in x.iter_mut().zip(&p) {
            *xi += alpha * pi;
        }
        for (ri, qi) in residual.iter_mut().zip(&q) {
            *ri -= alpha * qi;
        }
        apply_transposed(&residual, &mut s);
        for (si, xi) in s.iter_mut().zip(&x) {
            *si -= RIDGE * xi;
        }
        let next: f64 = s.iter().map(|v| v * v).sum();
        let beta = next / gamma;
        gamma = next;
        for (pi, si) in p.iter_mut().zip(&s) {
            *pi = si + beta * *pi;
        }
        let error = held_error(&x);
        if error < best_error {
            (best, best_error) = (x.clone(), error);
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= 10 {
                break;
            }
        }
    }
    let held = held_labels.len().max(1) as f64;
    let report = format!(
        "phase {phase} ({low}-{high} empties): {} positions, held-out RMS error {:.2} discs \
         (evaluation before {:.2}, hand-written evaluation {:.2})",
        labels.len(),
        best_error,
        (before_error / held).sqrt(),
        (hand_error / held).sqrt()
    );
    (best, report)
}

/// An Othello rule on the command line: normal or misere.
pub fn parse_rule(text: &str) -> Result<Rule, String> {
    text.parse()
        .map_err(|e: crate::game::GameError| e.to_string())
}

/// `arbor train`'s command line.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// normal or misere: the rule the weights are for.
    #[arg(long, default_value = "normal", value_parser = parse_rule)]
    pub rule: Rule,
    /// Directory of WTHOR `<moves> <diff>` files.
    #[arg(long)]
    pub wthor: Option<std::path::PathBuf>,
    /// Logistello's game book, `logbook.gam` or `logbook.gam.gz` (or a directory of
    /// such files).
    #[arg(long)]
    pub logbook: Option<std::path::PathBuf>,
    /// Egaroucid's early self-play records: a `.txt` file or a directory of them.
    #[arg(long)]
    pub egaroucid: Option<std::path::PathBuf>,
    /// Self-play games to play and learn from too, 0 to 10 million (0: none).
    #[arg(long, default_value_t = 0, value_parser = bounds::selfplay_games)]
    pub selfplay: usize,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1, value_parser = bounds::number)]
    pub seed: u64,
    /// Openings file (XOT's `openingslarge.txt`: a move sequence a line) the self-play
    /// games start from, each game drawing one from its seeded stream, instead of 8
    /// random moves.
    #[arg(long)]
    pub selfplay_openings: Option<std::path::PathBuf>,
    /// Keeps a position as often as the games reach it (the shipped weights were fitted
    /// so), instead of once up to the board's symmetries.
    #[arg(long)]
    pub keep_duplicates: bool,
    /// Reads and labels the positions and prints the counts and the held-out error of
    /// the evaluation before, per source and phase, without fitting or writing weights.
    #[arg(long)]
    pub no_fit: bool,
    /// Weights file to write (the shipped ones are src/game/othello/weights/*.bin).
    #[arg(long, default_value = DEFAULT_OUT)]
    pub out: std::path::PathBuf,
    /// Replaces --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// Labels positions with this many empties or fewer by exact solves, and earlier
    /// ones by their game's solved score there (0: by the game's final result).
    #[arg(long, default_value_t = 0, value_parser = bounds::solve_empties)]
    pub solve_empties: u32,
    /// Also labels each position beyond --solve-empties by a search this deep, 0 to
    /// 20 (0: not searched); the label is the mean of the search's and the solved one.
    #[arg(long, default_value_t = 0, value_parser = bounds::search_depth)]
    pub search_depth: u32,
    /// The search's share of those labels, 0 to 1 (the solved label has the rest); a
    /// label journal serves every share.
    #[arg(long, default_value_t = DEFAULT_SEARCH_SHARE, value_parser = bounds::search_share)]
    pub search_share: f32,
    /// Weights file the labelling searches evaluate with (and the error report
    /// compares against) instead of the shipped one.
    #[arg(long)]
    pub search_weights: Option<std::path::PathBuf>,
    /// Keeps the labelled positions in this file: written after labelling when it does
    /// not exist, read instead of labelling when it does (if made with the same options
    /// and sources), so that a refit skips the solves and searches.
    #[arg(long)]
    pub labels: Option<std::path::PathBuf>,
    /// Keeps each solved game and searched game of the labelling in this file as it
    /// finishes, and takes those already there: a stopped run resumes where it stopped,
    /// with the same labels (the file must come from the same options and sources).
    /// Given several times, the journals of other shards are read beside the first
    /// (which alone is written).
    #[arg(long)]
    pub label_journal: Vec<std::path::PathBuf>,
    /// Does only this shard's share of the solves and searches, K/N (jobs whose number
    /// leaves K when divided by N), into --label-journal, for one machine of N; a run
    /// given every shard's journal writes the labels. Needs --no-fit and no --labels.
    #[arg(long)]
    pub label_shard: Option<Shard>,
    /// Adds the positions of a labels file made by another run (other sources or
    /// options, the same rule) to this one's, merging those already here; may be given
    /// several times.
    #[arg(long)]
    pub add_labels: Vec<std::path::PathBuf>,
    /// Empties per band of the weights (each band has its own table), 1 to 30.
    #[arg(long, default_value_t = DEFAULT_PHASE_EMPTIES, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub phase_empties: u32,
    /// Threads for the solves, 1 to 256 (the labels do not depend on it); all cores by
    /// default.
    #[arg(long, default_value_t = bounds::available_threads(), value_parser = bounds::threads)]
    pub threads: usize,
}

impl TrainArgs {
    /// Trains and writes the weights, printing the report to stdout.
    pub fn run(&self) -> Result<(), String> {
        train(
            Corpus {
                wthor: self.wthor.as_deref(),
                logbook: self.logbook.as_deref(),
                egaroucid: self.egaroucid.as_deref(),
                selfplay: self.selfplay,
                seed: self.seed,
                selfplay_openings: self.selfplay_openings.as_deref(),
                keep_duplicates: self.keep_duplicates,
            },
            Labelling {
                rule: self.rule,
                solve_empties: self.solve_empties,
                search_depth: self.search_depth,
                search_share: self.search_share,
                threads: self.threads,
            },
            self.search_weights.as_deref(),
            LabelFiles {
                labels: self.labels.as_deref(),
                journals: &self.label_journal,
                shard: self.label_shard,
                added: &self.add_labels,
            },
            self.phase_empties,
            &self.out,
            self.force,
            !self.no_fit,
            &mut std::io::stdout(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Othello;
    use crate::game::othello::pattern::evaluate_with;
    use crate::game::{Game, Move};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The exact margin by plain negamax (empties to the winner), independent of the solver.
    fn negamax(game: &mut Othello) -> i32 {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            let diff = game.immediate_score(game.side_to_move());
            return diff + diff.signum() * game.empties().count_ones() as i32;
        }
        moves
            .into_iter()
            .map(|mv| {
                let undo = game.make(mv);
                let score = -negamax(game);
                game.unmake(mv, undo);
                score
            })
            .max()
            .unwrap()
    }

    /// `count` random games from `seed` under `rule`: every position with a move to play
    /// (label 100), and the index where each game starts.
    fn random_games(rule: Rule, seed: u64, count: usize) -> (Vec<Sample>, Vec<usize>) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut moves: Vec<Move> = Vec::new();
        let (mut samples, mut starts) = (Vec::new(), Vec::new());
        for _ in 0..count {
            starts.push(samples.len());
            let mut game = Othello::new(8, rule).unwrap();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                if moves[0] != Move::PASS {
                    samples.push(Sample {
                        player: game.player(),
                        opponent: game.opponent(),
                        label: 100.0,
                        holdout: false,
                        black_to_move: game.side_to_move() == crate::game::Side::Black,
                        source: 0,
                    });
                }
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        (samples, starts)
    }

    #[test]
    fn solved_labels_are_exact_and_carried_back_to_earlier_positions() {
        for rule in [Rule::Normal, Rule::Misere] {
            solved_labels_are_exact_under(rule);
        }
    }

    fn solved_labels_are_exact_under(rule: Rule) {
        const SOLVE_EMPTIES: u32 = 7;
        let (samples, starts) = random_games(rule, 5, 40);
        let mut labelled = samples.clone();
        let labelling = Labelling {
            rule,
            solve_empties: SOLVE_EMPTIES,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 1,
        };
        let solved = solve_labels(&mut labelled, &starts, labelling).unwrap();
        let mut by_three = samples.clone();
        let threads = Labelling {
            threads: 3,
            ..labelling
        };
        assert_eq!(solve_labels(&mut by_three, &starts, threads), Ok(solved));
        let (mut exact, mut carried) = (0, 0);
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(samples.len());
            let game = &labelled[start..end];
            let first = game
                .iter()
                .position(|s| s.empties() <= SOLVE_EMPTIES)
                .unwrap();
            for (sample, three) in game.iter().zip(&by_three[start..end]) {
                assert_eq!(sample.label, three.label);
            }
            for sample in &game[first..] {
                let mut position = Othello::from_sides_under(
                    rule,
                    sample.player,
                    sample.opponent,
                    sample.black_to_move,
                );
                assert_eq!(sample.label, negamax(&mut position) as f32);
                exact += 1;
            }
            for sample in &game[..first] {
                let same_side = sample.black_to_move == game[first].black_to_move;
                let anchor = game[first].label;
                assert_eq!(sample.label, if same_side { anchor } else { -anchor });
                carried += 1;
            }
        }
        assert_eq!(solved, exact);
        assert!(exact >= 40 * SOLVE_EMPTIES as usize - 40 && carried > 40 * 40);
    }

    /// With `search_depth` 1, each position before the solved ones is labelled by the mean
    /// of its solved label and its best child's evaluation (or final margin), whichever
    /// thread labels its game.
    #[test]
    fn searched_labels_are_the_mean_of_a_search_and_the_solved_label() {
        use crate::game::roles::Evaluate;
        const SOLVE_EMPTIES: u32 = 10;
        let (samples, starts) = random_games(Rule::Normal, 9, 12);
        let mut moves: Vec<Move> = Vec::new();
        let solved_only = Labelling {
            rule: Rule::Normal,
            solve_empties: SOLVE_EMPTIES,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 1,
        };
        let searched = Labelling {
            search_depth: 1,
            ..solved_only
        };
        let mut anchors = samples.clone();
        solve_labels(&mut anchors, &starts, solved_only).unwrap();
        let mut labelled = samples.clone();
        solve_labels(&mut labelled, &starts, searched).unwrap();
        let mut by_two = samples.clone();
        solve_labels(
            &mut by_two,
            &starts,
            Labelling {
                threads: 2,
                ..searched
            },
        )
        .unwrap();
        let mut checked = 0;
        for ((sample, anchor), two) in labelled.iter().zip(&anchors).zip(&by_two) {
            assert_eq!(sample.label, two.label);
            if sample.empties() <= SOLVE_EMPTIES {
                assert_eq!(sample.label, anchor.label);
                continue;
            }
            let mut position =
                Othello::from_sides(sample.player, sample.opponent, sample.black_to_move);
            position.generate_moves(&mut moves);
            let best = moves
                .clone()
                .into_iter()
                .map(|mv| {
                    let undo = position.make(mv);
                    let mut replies = Vec::new();
                    position.generate_moves(&mut replies);
                    let child = if replies.is_empty() {
                        let diff = position.immediate_score(position.side_to_move());
                        (diff + diff.signum() * position.empties().count_ones() as i32) * 100
                    } else {
                        position.evaluate()
                    };
                    position.unmake(mv, undo);
                    -child
                })
                .max()
                .unwrap();
            let expected = 0.5 * anchor.label + 0.5 * best as f32 / 100.0;
            assert!(
                (sample.label - expected).abs() < 1e-4,
                "{} against {expected}",
                sample.label
            );
            checked += 1;
        }
        assert!(checked > 12 * 40, "{checked}");
    }

    /// Self-play games are legal, end where neither side can move, carry Black's final
    /// margin, and are the same whatever the thread count; another seed plays others.
    #[test]
    fn selfplay_games_are_legal_and_repeatable() {
        let labelling = Labelling {
            rule: Rule::Misere,
            solve_empties: 0,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 1,
        };
        let games = selfplay_games(6, 11, None, labelling).unwrap();
        let by_three = selfplay_games(
            6,
            11,
            None,
            Labelling {
                threads: 3,
                ..labelling
            },
        )
        .unwrap();
        let other_seed = selfplay_games(6, 12, None, labelling).unwrap();
        let boards = |games: &[(Vec<GamePosition>, i32)]| -> Vec<Vec<(u64, u64)>> {
            games
                .iter()
                .map(|(positions, _)| positions.iter().map(|p| (p.player, p.opponent)).collect())
                .collect()
        };
        assert_eq!(boards(&games), boards(&by_three));
        assert_ne!(boards(&games), boards(&other_seed));
        let mut moves: Vec<Move> = Vec::new();
        let state = |game: &Othello| (game.player(), game.opponent(), game.side_to_move());
        for (positions, black_diff) in &games {
            let mut previous = Othello::new(8, Rule::Misere).unwrap();
            for (k, position) in positions.iter().enumerate() {
                let here = Othello::from_sides_under(
                    Rule::Misere,
                    position.player,
                    position.opponent,
                    position.black_to_move,
                );
                if k > 0 {
                    // A legal move from the last position (and a pass if it leaves only one).
                    previous.generate_moves(&mut moves);
                    let follows = moves.iter().any(|&mv| {
                        let mut child = previous.clone();
                        child.make(mv);
                        if child.is_legal(Move::PASS) {
                            child.make(Move::PASS);
                        }
                        state(&child) == state(&here)
                    });
                    assert!(follows, "position {k} does not follow from the one before");
                } else {
                    assert_eq!(state(&here), state(&previous));
                }
                previous = here;
            }
            assert!(positions.len() >= 40, "{} positions", positions.len());
            let last = positions.last().unwrap();
            let end = Othello::from_sides_under(
                Rule::Misere,
                last.player,
                last.opponent,
                last.black_to_move,
            );
            // The last position's moves lead to the end, whose margin is the game's.
            end.generate_moves(&mut moves);
            let margins: Vec<i32> = moves
                .iter()
                .filter_map(|&mv| {
                    let mut child = end.clone();
                    child.make(mv);
                    let mut replies = Vec::new();
                    child.generate_moves(&mut replies);
                    replies.is_empty().then(|| {
                        let diff = child.discs(crate::game::Side::Black).count_ones() as i32
                            - child.discs(crate::game::Side::White).count_ones() as i32;
                        diff + diff.signum() * child.empties().count_ones() as i32
                    })
                })
                .collect();
            assert!(
                margins.contains(black_diff),
                "{black_diff} not in {margins:?}"
            );
        }
    }

    fn sample(player: u64, opponent: u64, label: f32, holdout: bool, source: u8) -> Sample {
        Sample {
            player,
            opponent,
            label,
            holdout,
            black_to_move: true,
            source,
        }
    }

    /// Mirror images are one position: the first stays, labelled by the mean over its side
    /// of the held-out split, and every other is counted against its own source.
    #[test]
    fn duplicates_up_to_symmetry_are_merged_within_the_split() {
        let start = Othello::standard();
        let mut after: Vec<Othello> = Vec::new();
        for name in ["d3", "c4", "f5", "e6"] {
            let mut game = start.clone();
            game.make(game.parse_move(name).unwrap());
            after.push(game);
        }
        // The four first moves lead to mirror images of one position.
        let key = |g: &Othello| canonical(g.player(), g.opponent());
        assert!(after.iter().all(|g| key(g) == key(&after[0])));
        let samples = vec![
            sample(start.player(), start.opponent(), 1.0, false, 0),
            sample(after[0].player(), after[0].opponent(), 2.0, false, 0),
            sample(after[1].player(), after[1].opponent(), 4.0, false, 1),
            // Held out: dropped, and its label stays out of the training position's.
            sample(after[2].player(), after[2].opponent(), 50.0, true, 1),
            sample(start.player(), start.opponent(), 3.0, true, 2),
            sample(after[3].player(), after[3].opponent(), 6.0, false, 2),
        ];
        let mut counts = vec![SourceCounts::default(); SOURCE_NAMES.len()];
        let merged = merge_duplicates(samples, &mut counts);
        assert_eq!(merged.len(), 2);
        // The start: its held-out occurrence (3.0) is dropped without a say.
        assert_eq!((merged[0].player, merged[0].label), (start.player(), 1.0));
        // After the first move: (2 + 4 + 6) / 3 from three sources, the first's kept.
        assert_eq!(
            (merged[1].player, merged[1].label),
            (after[0].player(), 4.0)
        );
        assert_eq!(merged[1].source, 0);
        assert!(!merged[0].holdout && !merged[1].holdout);
        let duplicates: Vec<usize> = counts.iter().map(|c| c.duplicates).collect();
        assert_eq!(duplicates, vec![0, 2, 2, 0]);
    }

    /// Self-play from openings: every game starts at one of them, the draw follows the
    /// seed, and the games are the same on any thread count.
    #[test]
    fn selfplay_games_start_from_the_openings_given() {
        let text = "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\n";
        let mut openings = Vec::new();
        train_data::read_lines(text, train_data::parse_xot_line, |g| openings.push(g)).unwrap();
        let labelling = Labelling {
            rule: Rule::Normal,
            solve_empties: 0,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 1,
        };
        let games = selfplay_games(12, 5, Some(&openings), labelling).unwrap();
        let by_two = selfplay_games(
            12,
            5,
            Some(&openings),
            Labelling {
                threads: 2,
                ..labelling
            },
        )
        .unwrap();
        let firsts = |games: &[(Vec<GamePosition>, i32)]| -> Vec<(u64, u64)> {
            games
                .iter()
                .map(|(positions, _)| (positions[0].player, positions[0].opponent))
                .collect()
        };
        let starts: Vec<(u64, u64)> = openings
            .iter()
            .map(|g| (g.player(), g.opponent()))
            .collect();
        for first in firsts(&games) {
            assert!(starts.contains(&first));
        }
        assert_eq!(firsts(&games), firsts(&by_two));
        // Twelve draws from three openings reach each of them.
        for start in &starts {
            assert!(firsts(&games).contains(start));
        }
        for (positions, _) in &games {
            assert!(positions.len() >= 30 && positions.len() <= 52);
            assert_eq!(
                (positions[0].player | positions[0].opponent).count_ones(),
                12
            );
        }
    }

    /// `train` reads every source, reports its counts and, without fitting, the held-out
    /// errors per source; de-duplication removes the positions games share.
    #[test]
    fn train_reports_each_source_and_merges_shared_positions() {
        let dir = std::env::temp_dir().join(format!("arbor-train-sources-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("wthor")).unwrap();
        let wthor = "f5d6c5f4e3c6d3f6e6d7g3c4g5c3f7d2e7f2e2f1c8f3c7h3b6g4c1e1h4d8e8a6b4a5b5b3d1c2g1f8g8b7b1g2a2h5a4a3g6a1b2h1h2h6a8g7b8a7h8h7 -2\n";
        std::fs::write(dir.join("wthor/WTH_1.txt"), wthor.repeat(3)).unwrap();
        let logbook = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10\n";
        std::fs::write(dir.join("logbook.gam"), logbook.repeat(2)).unwrap();
        let egaroucid = "f5f4e3f6d3e2f3d2g4g5f2h3e1d1f1c2c1c3g3c5e6d6b1h2b4g2d7g1h1c4b5c6b6a5a6a7h6h4f7e8h5e7f8a4c8g7d8c7h8a3g6g8h7b8a8b3a2b2a1b7 1\nf5d6c3d3 0\n";
        std::fs::write(dir.join("records.txt"), egaroucid).unwrap();
        let wthor_dir = dir.join("wthor");
        let (logbook_path, egaroucid_path) = (dir.join("logbook.gam"), dir.join("records.txt"));
        let corpus = Corpus {
            wthor: Some(&wthor_dir),
            logbook: Some(&logbook_path),
            egaroucid: Some(&egaroucid_path),
            ..Corpus::default()
        };
        let labelling = Labelling {
            rule: Rule::Normal,
            solve_empties: 0,
            search_depth: 0,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 1,
        };
        let out_path = dir.join("never-written.bin");
        let mut out = Vec::new();
        let result = train(
            corpus,
            labelling,
            None,
            LabelFiles::default(),
            6,
            &out_path,
            false,
            false,
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(result, Ok(()), "{text}");
        assert!(!out_path.exists());
        assert!(text.contains("6 games, 360 positions\n"), "{text}");
        // The WTHOR game three times: the second and third copies are all duplicates;
        // the logbook's second copy too, and its first shares two positions with WTHOR's
        // (the start, and d3 mirrors f5), as Egaroucid's does (the start, and f5).
        assert!(
            text.contains("wthor: 3 games read, 0 unfinished skipped, 180 positions, 120 duplicates removed, 60 kept"),
            "{text}"
        );
        assert!(
            text.contains("logistello: 2 games read, 0 unfinished skipped, 120 positions, 62 duplicates removed, 58 kept"),
            "{text}"
        );
        assert!(
            text.contains("egaroucid: 2 games read, 1 unfinished skipped, 60 positions, 2 duplicates removed, 58 kept"),
            "{text}"
        );
        // Each source's first game is held out: its errors are reported by phase.
        for name in ["wthor", "logistello", "egaroucid"] {
            assert!(
                text.contains(&format!("{name} held out, phase 0 (0-5 empties): ")),
                "{text}"
            );
        }
        let kept = Corpus {
            keep_duplicates: true,
            ..corpus
        };
        let mut out = Vec::new();
        train(
            kept,
            labelling,
            None,
            LabelFiles::default(),
            6,
            &out_path,
            false,
            false,
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("180 positions, 0 duplicates removed, 180 kept"),
            "{text}"
        );
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "f5d6 0\nf5d6c3 x\n").unwrap();
        let error = train(
            Corpus {
                egaroucid: Some(&bad),
                ..Corpus::default()
            },
            labelling,
            None,
            LabelFiles::default(),
            6,
            &out_path,
            false,
            false,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(error, format!("{}:2: bad score 'x'", bad.display()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `--labels`: the first run labels and keeps the positions, the second reads them
    /// and fits the same weights without labelling; other options are refused, the file
    /// kept.
    #[test]
    fn labels_file_is_written_then_read_for_the_same_options_only() {
        let dir = std::env::temp_dir().join(format!("arbor-train-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = random_records(30, 11);
        let records_path = dir.join("records.txt");
        std::fs::write(&records_path, records).unwrap();
        let corpus = Corpus {
            egaroucid: Some(&records_path),
            ..Corpus::default()
        };
        let labelling = Labelling {
            rule: Rule::Normal,
            solve_empties: 8,
            search_depth: 1,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 2,
        };
        let labels = dir.join("labels.bin");
        let run = |labelling: Labelling, out_name: &str| {
            let mut out = Vec::new();
            let out_path = dir.join(out_name);
            let result = train(
                corpus,
                labelling,
                None,
                LabelFiles {
                    labels: Some(&labels),
                    ..LabelFiles::default()
                },
                6,
                &out_path,
                false,
                true,
                &mut out,
            );
            let text = String::from_utf8(out).unwrap();
            result.map(|()| (text, std::fs::read(&out_path).unwrap()))
        };
        let (first, weights) = run(labelling, "first.bin").unwrap();
        assert!(
            first.contains("labelled by exact solves from 8 empties"),
            "{first}"
        );
        assert!(
            first.contains(&format!("labels written to {}", labels.display())),
            "{first}"
        );
        let kept = std::fs::read(&labels).unwrap();
        let (second, again) = run(labelling, "second.bin").unwrap();
        assert!(!second.contains("labelled by"), "{second}");
        assert!(second.contains("labelled positions read from"), "{second}");
        assert_eq!(again, weights);
        let other = Labelling {
            solve_empties: 10,
            ..labelling
        };
        let error = run(other, "third.bin").unwrap_err();
        assert!(error.contains("made for other options"), "{error}");
        assert_eq!(std::fs::read(&labels).unwrap(), kept);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `count` random games in Egaroucid's record format (moves, then the winner).
    fn random_records(count: usize, seed: u64) -> String {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut records = String::new();
        for _ in 0..count {
            let mut game = Othello::new(8, Rule::Normal).unwrap();
            let mut moves = Vec::new();
            let mut text = String::new();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                if mv != Move::PASS {
                    text += &game.format_move(mv);
                }
                game.make(mv);
            }
            let black = game.discs(crate::game::Side::Black).count_ones() as i32;
            let white = game.discs(crate::game::Side::White).count_ones() as i32;
            records += &format!("{text} {}\n", (black - white).signum());
        }
        records
    }

    /// `--label-journal`: a run stopped part way (its journal cut, as a stopped process
    /// leaves it) resumes from the journal, and the labels come out the bytes of a run
    /// without one; a finished journal labels without solving or searching again.
    #[test]
    fn a_label_journal_resumes_to_the_same_labels() {
        let dir = std::env::temp_dir().join(format!("arbor-train-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records_path = dir.join("records.txt");
        std::fs::write(&records_path, random_records(24, 5)).unwrap();
        let corpus = Corpus {
            egaroucid: Some(&records_path),
            ..Corpus::default()
        };
        let labelling = Labelling {
            rule: Rule::Normal,
            solve_empties: 8,
            search_depth: 2,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 2,
        };
        let journal = dir.join("journal.bin");
        let journals = [journal.clone()];
        let run_with = |labelling: Labelling, name: &str, journals: &[PathBuf]| {
            let labels = dir.join(name);
            let files = LabelFiles {
                labels: Some(&labels),
                journals,
                ..LabelFiles::default()
            };
            let out_path = dir.join("unused.bin");
            let mut out = Vec::new();
            train(
                corpus, labelling, None, files, 6, &out_path, false, false, &mut out,
            )
            .unwrap();
            std::fs::read(&labels).unwrap()
        };
        let run = |name: &str, journals: &[PathBuf]| run_with(labelling, name, journals);
        let plain = run("plain.bin", &[]);
        assert_eq!(run("journaled.bin", &journals), plain);
        let whole = std::fs::read(&journal).unwrap();
        // Stopped part way, among the solves and among the searches: the header and
        // some of the records, the last one cut.
        for (k, fifths) in [2, 4].into_iter().enumerate() {
            std::fs::write(&journal, &whole[..whole.len() * fifths / 5]).unwrap();
            assert_eq!(run(&format!("resumed-{k}.bin"), &journals), plain);
            assert_eq!(std::fs::read(&journal).unwrap().len(), whole.len());
        }
        let resumed = std::fs::read(&journal).unwrap();
        // Nothing left to do: the journal is read, not added to.
        assert_eq!(run("again.bin", &journals), plain);
        assert_eq!(std::fs::read(&journal).unwrap(), resumed);
        // Another search share: the same journal serves it without new work, and the
        // labels are those of a run with that share and no journal, under their own key.
        let all_search = Labelling {
            search_share: 1.0,
            ..labelling
        };
        let searched_only = run_with(all_search, "searched-only.bin", &journals);
        assert_eq!(std::fs::read(&journal).unwrap(), resumed);
        assert_eq!(
            run_with(all_search, "searched-plain.bin", &[]),
            searched_only
        );
        assert_ne!(searched_only, plain);
        let key = |bytes: &[u8]| {
            let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
            String::from_utf8(bytes[12..12 + len].to_vec()).unwrap()
        };
        assert_eq!(
            key(&searched_only),
            format!("{}; search-share 1", key(&plain))
        );
        // Other options: refused, the journal kept.
        let deeper = Labelling {
            search_depth: 3,
            ..labelling
        };
        let error = train(
            corpus,
            deeper,
            None,
            LabelFiles {
                journals: &journals,
                ..LabelFiles::default()
            },
            6,
            &dir.join("unused.bin"),
            false,
            false,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(error.contains("other options"), "{error}");
        assert_eq!(std::fs::read(&journal).unwrap(), resumed);

        // Three shards, one journal each as on three machines, then one run that reads
        // them all: the labels of one run, and nothing solved or searched again.
        let shards: Vec<PathBuf> = (0..3).map(|k| dir.join(format!("shard-{k}.bin"))).collect();
        for (k, path) in shards.iter().enumerate() {
            let mut out = Vec::new();
            let files = LabelFiles {
                journals: std::slice::from_ref(path),
                shard: Some(Shard { index: k, count: 3 }),
                ..LabelFiles::default()
            };
            train(
                corpus,
                labelling,
                None,
                files,
                6,
                &dir.join("unused.bin"),
                false,
                false,
                &mut out,
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.contains(&format!("label shard {k}/3 done")), "{text}");
            assert!(!text.contains("labelled by"), "{text}");
        }
        let sizes: Vec<u64> = shards
            .iter()
            .map(|path| std::fs::metadata(path).unwrap().len())
            .collect();
        assert!(
            sizes
                .iter()
                .all(|&size| size * 5 < resumed.len() as u64 * 2),
            "{sizes:?}"
        );
        let merged = dir.join("merged.bin");
        let all: Vec<PathBuf> = std::iter::once(merged.clone())
            .chain(shards.iter().cloned())
            .collect();
        assert_eq!(run("sharded.bin", &all), plain);
        // The shards' records were all there: the first journal got none.
        assert_eq!(
            std::fs::metadata(&merged).unwrap().len() as usize,
            8 + 4 + key_len(&all[1]) + 8
        );
        let sharded = LabelFiles {
            journals: &shards[..1],
            shard: Some(Shard { index: 0, count: 3 }),
            labels: Some(&merged),
            ..LabelFiles::default()
        };
        let error = train(
            corpus,
            labelling,
            None,
            sharded,
            6,
            &dir.join("unused.bin"),
            false,
            false,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(error.contains("give --no-fit and no --labels"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `--add-labels`: the positions of another run's labels file join this run's, the
    /// counts add up, positions in both are kept once, and a file of another rule is
    /// refused.
    #[test]
    fn labels_of_other_runs_join_the_fit() {
        let dir = std::env::temp_dir().join(format!("arbor-train-add-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let labelling = Labelling {
            rule: Rule::Normal,
            solve_empties: 8,
            search_depth: 2,
            search_share: DEFAULT_SEARCH_SHARE,
            threads: 2,
        };
        let run = |corpus: Corpus, files: LabelFiles, labelling: Labelling| {
            let mut out = Vec::new();
            let out_path = dir.join("unused.bin");
            train(
                corpus, labelling, None, files, 6, &out_path, false, false, &mut out,
            )
            .map(|()| String::from_utf8(out).unwrap())
        };
        let mut parts = Vec::new();
        for (k, (games, seed)) in [(20, 7), (30, 8)].into_iter().enumerate() {
            let records = dir.join(format!("records-{k}.txt"));
            std::fs::write(&records, random_records(games, seed)).unwrap();
            let labels = dir.join(format!("labels-{k}.bin"));
            let corpus = Corpus {
                egaroucid: Some(&records),
                ..Corpus::default()
            };
            let files = LabelFiles {
                labels: Some(&labels),
                ..LabelFiles::default()
            };
            run(corpus, files, labelling).unwrap();
            let bytes = std::fs::read(&labels).unwrap();
            let (_, counts, samples) =
                train_labels::decode_any(&bytes, SOURCE_NAMES.len()).unwrap();
            parts.push((records, labels, counts, samples));
        }
        let (records, labels, counts, samples) = &parts[0];
        let (_, added_labels, added_counts, added_samples) = &parts[1];
        let corpus = Corpus {
            egaroucid: Some(records),
            ..Corpus::default()
        };
        let added = [added_labels.clone()];
        let files = LabelFiles {
            labels: Some(labels),
            added: &added,
            ..LabelFiles::default()
        };
        let text = run(corpus, files, labelling).unwrap();
        assert!(
            text.contains(&format!(
                "{} labelled positions added from {}",
                added_samples.len(),
                added_labels.display()
            )),
            "{text}"
        );
        let source = SOURCE_NAMES
            .iter()
            .position(|&name| name == "egaroucid")
            .unwrap();
        let (ours, theirs) = (&counts[source], &added_counts[source]);
        let distinct: std::collections::HashSet<(u64, u64)> = samples
            .iter()
            .chain(added_samples)
            .map(|sample| canonical(sample.player, sample.opponent))
            .collect();
        assert!(
            distinct.len() < samples.len() + added_samples.len(),
            "the openings repeat"
        );
        let expected = format!(
            "egaroucid: {} games read, {} unfinished skipped, {} positions, {} duplicates \
             removed, {} kept",
            ours.games + theirs.games,
            ours.unfinished + theirs.unfinished,
            ours.positions + theirs.positions,
            ours.positions + theirs.positions - distinct.len(),
            distinct.len()
        );
        assert!(text.contains(&expected), "{expected}\n{text}");

        // Labels of another rule are refused, and so is a shard with added labels.
        let misere = dir.join("misere.bin");
        let misere_corpus = Corpus {
            selfplay: 12,
            seed: 3,
            ..Corpus::default()
        };
        let misere_labelling = Labelling {
            rule: Rule::Misere,
            search_depth: 0,
            ..labelling
        };
        let files = LabelFiles {
            labels: Some(&misere),
            ..LabelFiles::default()
        };
        run(misere_corpus, files, misere_labelling).unwrap();
        let refused = [misere.clone()];
        let files = LabelFiles {
            labels: Some(labels),
            added: &refused,
            ..LabelFiles::default()
        };
        let error = run(corpus, files, labelling).unwrap_err();
        assert!(
            error.contains("labels for another rule than normal"),
            "{error}"
        );
        let journals = [dir.join("journal.bin")];
        let files = LabelFiles {
            journals: &journals,
            shard: Some(Shard { index: 0, count: 2 }),
            added: &added,
            ..LabelFiles::default()
        };
        let error = run(corpus, files, labelling).unwrap_err();
        assert!(error.contains("give --no-fit and no --labels"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The length of the key in a journal's header.
    fn key_len(journal: &Path) -> usize {
        let bytes = std::fs::read(journal).unwrap();
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize
    }

    /// Every position of `games` random games, labelled by its disc difference; one game
    /// in ten held out.
    fn disc_difference_samples(games: usize) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(3);
        let mut moves: Vec<Move> = Vec::new();
        let mut samples = Vec::new();
        for game_index in 0..games {
            let mut game = Othello::standard();
            loop {
                game.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let (player, opponent) = (game.player(), game.opponent());
                samples.push(Sample {
                    player,
                    opponent,
                    label: player.count_ones() as f32 - opponent.count_ones() as f32,
                    holdout: game_index % 10 == 0,
                    black_to_move: game.side_to_move() == crate::game::Side::Black,
                    source: 0,
                });
                game.make(moves[rng.random_range(0..moves.len())]);
            }
        }
        samples
    }

    /// The disc difference is a sum over squares, so the patterns can express it: the fit
    /// must find it on held-out positions of random games, in every phase.
    #[test]
    fn learns_the_disc_difference() {
        let samples = disc_difference_samples(4000);
        let held: Vec<&Sample> = samples.iter().filter(|sample| sample.holdout).collect();
        // Bands of the default width, and narrower ones: the same fit in every band.
        for phase_empties in [DEFAULT_PHASE_EMPTIES, 3] {
            let (weights, reports) = fit(&samples, Rule::Normal, phase_empties);
            assert_eq!(reports.len(), phases(phase_empties));
            assert_eq!(weights.phase_empties, phase_empties);
            let squares: f64 = held
                .iter()
                .map(|sample| {
                    let predicted = evaluate_with(&weights, sample.player, sample.opponent);
                    (predicted as f64 / 100.0 - sample.label as f64).powi(2)
                })
                .sum();
            let rms = (squares / held.len() as f64).sqrt();
            eprintln!("bands of {phase_empties}: held-out RMS error {rms:.3} discs");
            assert!(
                rms < 0.5,
                "bands of {phase_empties}: held-out RMS error {rms} discs"
            );
        }
    }

    /// Bands no position falls in (here from 42 empties up) take the tables of the band
    /// below instead of zeros.
    #[test]
    fn bands_without_positions_take_the_band_below() {
        let samples: Vec<Sample> = disc_difference_samples(400)
            .into_iter()
            .filter(|sample| sample.empties() <= 40)
            .collect();
        let (weights, reports) = fit(&samples, Rule::Normal, DEFAULT_PHASE_EMPTIES);
        let len = LAYOUT.phase_len;
        let table = |phase: usize| &weights.values[phase * len..(phase + 1) * len];
        assert!(table(6).iter().any(|&w| w != 0));
        assert_eq!(reports.len(), phases(DEFAULT_PHASE_EMPTIES));
        for (phase, report) in reports.iter().enumerate().skip(7) {
            assert_eq!(table(phase), table(6), "band {phase}");
            assert!(report.contains("stayed at zeros"), "{report}");
        }
        assert!(!reports[6].contains("stayed at zeros"), "{}", reports[6]);
        // The start position's neighbours (59 empties) are evaluated, not 0.
        let mut game = Othello::standard();
        game.make(Move::new(37));
        assert_ne!(evaluate_with(&weights, game.player(), game.opponent()), 0);
    }
}
