//! Pattern evaluation for 8x8 Othello, in centi-discs from the side to move's view: the
//! sum of one learned weight per configuration of each of 46 square groups (edges,
//! corners, lines and diagonals, each with its rotations and reflections), one weight
//! table per phase, one set of tables per rule. `arbor train` fits the weights: the
//! shipped `weights/normal8.bin` on the WTHOR games, `weights/misere8.bin` on self-play.

use std::sync::{LazyLock, OnceLock};

use super::Rule;
use super::bitboard::{Squares, square_bit};
use super::symmetry::Symmetry;

/// Squares of each pattern in one orientation (a1 = 0, b1 = 1, ..., h8 = 63); the other
/// orientations are its images under the board's symmetries, sharing its weights.
const SHAPES: [&[u8]; 11] = [
    // Corner 3x3: a1 b1 c1 / a2 b2 c2 / a3 b3 c3.
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    // Corner 2x5: a1..e1 / a2..e2.
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    // Edge with both X squares: a1..h1, b2, g2.
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    // Second, third and fourth rows.
    &[8, 9, 10, 11, 12, 13, 14, 15],
    &[16, 17, 18, 19, 20, 21, 22, 23],
    &[24, 25, 26, 27, 28, 29, 30, 31],
    // Diagonals of 8 to 4 squares.
    &[0, 9, 18, 27, 36, 45, 54, 63],
    &[1, 10, 19, 28, 37, 46, 55],
    &[2, 11, 20, 29, 38, 47],
    &[3, 12, 21, 30, 39],
    &[4, 13, 22, 31],
];

/// The band of empties a table covers in weights files of the first format
/// (`ARBORPW1`): positions with this many empties or fewer share the first table, and so
/// on up. `arbor train --phase-empties` chooses it for new files.
pub const DEFAULT_PHASE_EMPTIES: u32 = 6;

/// How many tables weights with bands of `phase_empties` empties have (0 to 60 empties).
pub fn phases(phase_empties: u32) -> usize {
    61usize.div_ceil(phase_empties.max(1) as usize)
}

/// A weights file's contents: one table of `LAYOUT.phase_len` centi-disc weights per
/// band of `phase_empties` empties, with each empties count's table start at hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub values: Vec<i16>,
    pub phase_empties: u32,
    /// By empties (0 to 60): where its table starts in `values`.
    starts: [u32; 61],
    /// `LAYOUT.phase_len`, at hand.
    table_len: usize,
}

impl Weights {
    /// Weights of bands of `phase_empties` (1 to 61) empties; an error unless `values`
    /// holds exactly that many tables of this build's patterns.
    pub fn new(values: Vec<i16>, phase_empties: u32) -> Result<Weights, String> {
        if !(1..=61).contains(&phase_empties) {
            return Err(format!(
                "bands of {phase_empties} empties: 1 to 61 expected"
            ));
        }
        let len = LAYOUT.phase_len;
        let expected = phases(phase_empties) * len;
        if values.len() != expected {
            return Err(format!(
                "{} weights where this build's patterns in bands of {phase_empties} empties \
                 have {expected}",
                values.len()
            ));
        }
        let starts =
            std::array::from_fn(|empties| ((empties as u32 / phase_empties) as usize * len) as u32);
        Ok(Weights {
            values,
            phase_empties,
            starts,
            table_len: len,
        })
    }

    /// The table of positions with `empties` empty squares.
    #[inline]
    pub fn table(&self, empties: u32) -> &[i16] {
        let start = self.starts[empties.min(60) as usize] as usize;
        &self.values[start..start + self.table_len]
    }
}

/// The empties, lowest and highest, of table `phase` in bands of `phase_empties`.
pub fn band(phase_empties: u32, phase: usize) -> (u32, u32) {
    let low = phase as u32 * phase_empties;
    (low, (low + phase_empties - 1).min(60))
}

/// One placement of a shape: its squares in shape order and where its weights start.
#[derive(Clone, Copy)]
pub struct Instance {
    squares: [u8; 10],
    len: u8,
    offset: u32,
    /// The symmetry (index in `Symmetry::ALL`) that maps the board so that this
    /// instance lies on its shape's own squares (`mask`), in the same order.
    to_shape: u8,
    mask: u64,
}

pub struct Layout {
    pub instances: Vec<Instance>,
    /// `ternary[len][bits]`: the index of the configuration with discs on `bits` (the
    /// shape's squares in ascending order, first square most significant).
    ternary: Vec<[u32; 1024]>,
    /// Weights per phase: every shape's configurations, then one bias.
    pub phase_len: usize,
}

pub static LAYOUT: LazyLock<Layout> = LazyLock::new(layout);

fn layout() -> Layout {
    let mut instances: Vec<Instance> = Vec::new();
    let mut sets: Vec<u64> = Vec::new();
    let mut offset = 0u32;
    for shape in SHAPES {
        let mask = shape
            .iter()
            .fold(0u64, |bits, &square| bits | square_bit(square as usize));
        for symmetry in Symmetry::ALL {
            let mut squares = [0u8; 10];
            let mut set = 0u64;
            for (k, &square) in shape.iter().enumerate() {
                let image = symmetry
                    .apply(square_bit(square as usize), 8)
                    .trailing_zeros();
                squares[k] = image as u8;
                set |= square_bit(image as usize);
            }
            // A shape that maps onto itself is counted once.
            if !sets.contains(&set) {
                sets.push(set);
                // A test board with no symmetry of its own finds the inverse.
                let probe = 0x0000_0000_0000_0107u64;
                let to_shape = (0..8)
                    .find(|&t| Symmetry::ALL[t].apply(symmetry.apply(probe, 8), 8) == probe)
                    .expect("a group");
                instances.push(Instance {
                    squares,
                    len: shape.len() as u8,
                    offset,
                    to_shape: to_shape as u8,
                    mask,
                });
            }
        }
        offset += 3u32.pow(shape.len() as u32);
    }
    let ternary = (0..=10)
        .map(|len: usize| {
            std::array::from_fn(|bits| {
                (0..len)
                    .filter(|k| bits >> k & 1 == 1)
                    .map(|k| 3u32.pow((len - 1 - k) as u32))
                    .sum()
            })
        })
        .collect();
    Layout {
        instances,
        ternary,
        phase_len: offset as usize + 1,
    }
}

impl Instance {
    /// The weight index of this placement's configuration within a phase: per square in
    /// shape order, 0 for empty, 1 for the mover's disc, 2 for the other's.
    #[inline]
    fn index(&self, player: u64, opponent: u64) -> u32 {
        let mut index = 0u32;
        for &square in &self.squares[..self.len as usize] {
            let cell = ((player >> square) & 1) + 2 * ((opponent >> square) & 1);
            index = index * 3 + cell as u32;
        }
        self.offset + index
    }

    /// Its squares in shape order and the start of its weights within a phase.
    pub fn parts(&self) -> (&[u8], u32) {
        (&self.squares[..self.len as usize], self.offset)
    }
}

impl Layout {
    /// The weight index of every instance for this position (`player` to move).
    pub fn indices(&self, player: u64, opponent: u64, out: &mut [u32]) {
        for (slot, instance) in out.iter_mut().zip(&self.instances) {
            *slot = instance.index(player, opponent);
        }
    }

    pub fn bias_index(&self) -> usize {
        self.phase_len - 1
    }
}

/// Pattern placements on the board.
pub const INSTANCES: usize = 46;

/// Every placement's configuration, kept up to date by the game's make and unmake: base
/// 3 as [`Instance::index`] but with 1 for Black's discs and 2 for White's, the board's
/// view rather than the mover's, so a move changes only the placements of the squares it
/// fills or flips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features([u16; LANES]);

/// [`INSTANCES`] rounded up to whole 128-bit vectors of u16.
const LANES: usize = 48;

/// What [`Features`] needs at run time: per square, the placements holding it and that
/// square's power of 3 in each; per placement, where its weights start.
struct Incremental {
    /// Per square, its power of 3 in every placement holding it (0 elsewhere).
    powers: [[u16; LANES]; 64],
    offsets: [u32; INSTANCES],
}

static INCREMENTAL: LazyLock<Incremental> = LazyLock::new(|| {
    let layout = &*LAYOUT;
    assert_eq!(layout.instances.len(), INSTANCES);
    let mut powers = [[0u16; LANES]; 64];
    let mut offsets = [0u32; INSTANCES];
    for (index, instance) in layout.instances.iter().enumerate() {
        offsets[index] = instance.offset;
        let len = instance.len as usize;
        for (k, &square) in instance.squares[..len].iter().enumerate() {
            powers[square as usize][index] = 3u16.pow((len - 1 - k) as u32);
        }
    }
    Incremental { powers, offsets }
});

/// A rule's weights as White to move reads them with [`Features`] (Black reads
/// [`WEIGHTS`]): each configuration's weight under its colour-swapped index. Indexed by
/// [`rule_index`].
static SWAPPED: PerRule<Weights> = [
    LazyLock::new(|| swapped(Rule::Normal)),
    LazyLock::new(|| swapped(Rule::Misere)),
];

fn swapped(rule: Rule) -> Weights {
    let layout = &*LAYOUT;
    let original = &*WEIGHTS[rule_index(rule)];
    let weights = &original.values;
    // Each shape's block of weights, once (its placements share it).
    let mut blocks: Vec<(usize, u32)> = layout
        .instances
        .iter()
        .map(|i| (i.offset as usize, 3u32.pow(i.len as u32)))
        .collect();
    blocks.dedup();
    let largest = blocks
        .iter()
        .map(|&(_, configurations)| configurations)
        .max();
    let swap: Vec<usize> = (0..largest.unwrap_or(0) as usize)
        .map(swap_colours)
        .collect();
    let mut swapped = original.clone();
    for phase in 0..phases(original.phase_empties) {
        let base = phase * layout.phase_len;
        for &(offset, configurations) in &blocks {
            for (index, &from) in swap[..configurations as usize].iter().enumerate() {
                swapped.values[base + offset + index] = weights[base + offset + from];
            }
        }
    }
    swapped
}

/// One lazily made value per rule, indexed by [`rule_index`].
type PerRule<T> = [LazyLock<T, fn() -> T>; 2];

fn rule_index(rule: Rule) -> usize {
    match rule {
        Rule::Normal => 0,
        Rule::Misere => 1,
    }
}

/// A configuration index with every 1 digit made 2 and every 2 made 1.
fn swap_colours(mut index: usize) -> usize {
    let (mut swapped, mut power) = (0, 1);
    while index > 0 {
        swapped += [0, 2, 1][index % 3] * power;
        index /= 3;
        power *= 3;
    }
    swapped
}

impl Default for Features {
    fn default() -> Features {
        Features([0; LANES])
    }
}

impl Features {
    /// The features of a board with `black`'s discs as digit 1 and `white`'s as 2 (the
    /// endgame solver gives the side to move's and the other's).
    pub fn new(black: u64, white: u64) -> Features {
        let layout = &*LAYOUT;
        let mut features = Features::default();
        #[cfg(target_arch = "x86_64")]
        if *USE_PEXT {
            // SAFETY: USE_PEXT is only true on a CPU with BMI2.
            unsafe { features.fill_bmi2(layout, black, white) };
            return features;
        }
        features.fill_portable(layout, black, white);
        features
    }

    fn fill_portable(&mut self, layout: &Layout, black: u64, white: u64) {
        for (slot, instance) in self.0.iter_mut().zip(&layout.instances) {
            *slot = (instance.index(black, white) - instance.offset) as u16;
        }
    }

    /// [`Features::new`] by PEXT, as [`sum_bmi2`] gathers the discs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn fill_bmi2(&mut self, layout: &Layout, black: u64, white: u64) {
        use std::arch::x86_64::_pext_u64;
        let boards = oriented(black, white);
        for (slot, instance) in self.0.iter_mut().zip(&layout.instances) {
            let (first, second) = boards[instance.to_shape as usize];
            let ternary = &layout.ternary[instance.len as usize];
            *slot = (ternary[_pext_u64(first, instance.mask) as usize]
                + 2 * ternary[_pext_u64(second, instance.mask) as usize])
                as u16;
        }
    }

    /// Black (`black` true) or White fills `square` and turns `flipped`: whole vectors
    /// of powers added, as Egaroucid does, rather than placement by placement.
    #[inline]
    pub fn play(&mut self, black: bool, square: usize, flipped: u64) {
        let powers = &INCREMENTAL.powers;
        let mut turned = [0u16; LANES];
        for square in Squares(flipped) {
            for (sum, power) in turned.iter_mut().zip(&powers[square]) {
                *sum = sum.wrapping_add(*power);
            }
        }
        // Filled: 0 -> 1 (Black) or 2 (White). Turned: 2 -> 1 or 1 -> 2. Wrapping: the
        // steps may leave an i16, every result fits a u16.
        let filled = &powers[square];
        for ((slot, fill), turn) in self.0.iter_mut().zip(filled).zip(&turned) {
            *slot = if black {
                slot.wrapping_add(*fill).wrapping_sub(*turn)
            } else {
                slot.wrapping_add(fill.wrapping_mul(2)).wrapping_add(*turn)
            };
        }
    }

    /// The evaluation under `rule` of this board with `empties` empty squares, Black or
    /// White to move: the same value as [`evaluate`] from the mover's discs.
    #[inline]
    pub fn evaluate(&self, rule: Rule, black_to_move: bool, empties: u32) -> i32 {
        let table = &*INCREMENTAL;
        let layout = &*LAYOUT;
        let rule = rule_index(rule);
        let view = if black_to_move {
            &WEIGHTS[rule]
        } else {
            &SWAPPED[rule]
        };
        let weights = view.table(empties);
        let mut total = weights[layout.bias_index()] as i32;
        for (&offset, &index) in table.offsets.iter().zip(&self.0) {
            total += weights[(offset + index as u32) as usize] as i32;
        }
        total
    }
}

/// Per rule ([`rule_index`]), weights that replace the shipped ones for this process
/// ([`load_weights`]).
static LOADED: [OnceLock<Weights>; 2] = [const { OnceLock::new() }; 2];

/// Per rule ([`rule_index`]), the weights the engine evaluates with: the shipped file's
/// unless others were loaded before first use.
static WEIGHTS: PerRule<Weights> = [
    LazyLock::new(|| rule_weights(Rule::Normal)),
    LazyLock::new(|| rule_weights(Rule::Misere)),
];

fn rule_weights(rule: Rule) -> Weights {
    if let Some(loaded) = LOADED[rule_index(rule)].get() {
        return loaded.clone();
    }
    decode(shipped_file(rule)).expect("shipped weights")
}

/// The weights file shipped for `rule`, as built into the engine.
pub fn shipped_file(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Normal => include_bytes!("weights/normal8.bin"),
        Rule::Misere => include_bytes!("weights/misere8.bin"),
    }
}

/// Makes the engine evaluate `rule` with the weights file `bytes` instead of the shipped
/// one, for the rest of the process (`arbor train --search-weights`); an error when the
/// file is not a weights file of this layout, or when that rule's evaluation has already
/// been used.
pub fn load_weights(rule: Rule, bytes: &[u8]) -> Result<(), String> {
    let weights = decode(bytes)?;
    let index = rule_index(rule);
    LOADED[index]
        .set(weights)
        .map_err(|_| "weights were already loaded".to_string())?;
    if *WEIGHTS[index] != *LOADED[index].get().expect("just set") {
        return Err("the evaluation was used before the weights were loaded".into());
    }
    Ok(())
}

/// The evaluation of an 8x8 position under `rule`, `player` to move.
#[inline]
pub fn evaluate(rule: Rule, player: u64, opponent: u64) -> i32 {
    evaluate_with(&WEIGHTS[rule_index(rule)], player, opponent)
}

/// The evaluation under `weights`.
#[inline]
pub fn evaluate_with(weights: &Weights, player: u64, opponent: u64) -> i32 {
    let layout = &*LAYOUT;
    let weights = phase_weights(weights, player, opponent);
    #[cfg(target_arch = "x86_64")]
    if *USE_PEXT {
        // SAFETY: USE_PEXT is only true on a CPU with BMI2.
        return unsafe { sum_bmi2(layout, weights, player, opponent) };
    }
    sum_portable(layout, weights, player, opponent)
}

/// The table of the position's phase.
#[inline]
fn phase_weights(weights: &Weights, player: u64, opponent: u64) -> &[i16] {
    weights.table(64 - (player | opponent).count_ones())
}

/// [`evaluate`] under the normal rule by the portable sum on any CPU, for benchmarks.
#[doc(hidden)]
pub fn evaluate_portable(player: u64, opponent: u64) -> i32 {
    let layout = &*LAYOUT;
    sum_portable(
        layout,
        phase_weights(&WEIGHTS[0], player, opponent),
        player,
        opponent,
    )
}

/// [`evaluate`] under the normal rule by PEXT even where it is microcoded, for
/// benchmarks; `None` without BMI2.
#[doc(hidden)]
pub fn evaluate_pext(player: u64, opponent: u64) -> Option<i32> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        let layout = &*LAYOUT;
        let weights = phase_weights(&WEIGHTS[0], player, opponent);
        // SAFETY: the CPU has BMI2, checked just above.
        return Some(unsafe { sum_bmi2(layout, weights, player, opponent) });
    }
    let _ = (player, opponent);
    None
}

/// Whether `ARBOR_PORTABLE` (any value but empty or `0`) keeps the fast paths chosen at
/// run time off (PEXT here, the endgame solver's instruction set), for testing.
pub fn portable_forced() -> bool {
    std::env::var_os("ARBOR_PORTABLE").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether to sum with PEXT, decided once: BMI2 present, PEXT not microcoded, and
/// `ARBOR_PORTABLE` unset.
#[cfg(target_arch = "x86_64")]
static USE_PEXT: LazyLock<bool> = LazyLock::new(|| {
    if portable_forced() || !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    use std::arch::x86_64::__cpuid;
    // SAFETY: every x86-64 CPU has CPUID with leaves 0 and 1. (Newer Rust declares
    // `__cpuid` safe; the block stays for the older compilers rust-version allows.)
    #[allow(unused_unsafe)]
    let (leaf0, leaf1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut vendor = [0u8; 12];
    for (chunk, word) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    !pext_is_microcoded(&vendor, leaf1.eax)
});

/// AMD (and Hygon) cores before Zen 3 (family 0x19) run PEXT in microcode, taking tens
/// to hundreds of cycles, so the table walk is faster there. `eax` is CPUID leaf 1's.
#[cfg(target_arch = "x86_64")]
fn pext_is_microcoded(vendor: &[u8; 12], eax: u32) -> bool {
    let base = (eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((eax >> 20) & 0xff)
    } else {
        base
    };
    matches!(vendor, b"AuthenticAMD" | b"HygonGenuine") && family < 0x19
}

/// Both sides' discs under each symmetry, indexed like [`Symmetry::ALL`]: an instance
/// reads the board mapped onto its shape.
#[inline]
fn oriented(first: u64, second: u64) -> [(u64, u64); 8] {
    std::array::from_fn(|s| {
        let symmetry = Symmetry::ALL[s];
        (symmetry.apply(first, 8), symmetry.apply(second, 8))
    })
}

/// Gathers each instance's discs with PEXT from the board mapped onto its shape.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn sum_bmi2(layout: &Layout, weights: &[i16], player: u64, opponent: u64) -> i32 {
    use std::arch::x86_64::_pext_u64;
    let boards = oriented(player, opponent);
    let mut total = weights[layout.bias_index()] as i32;
    for instance in &layout.instances {
        let (own, other) = boards[instance.to_shape as usize];
        let ternary = &layout.ternary[instance.len as usize];
        let index = ternary[_pext_u64(own, instance.mask) as usize]
            + 2 * ternary[_pext_u64(other, instance.mask) as usize];
        total += weights[(instance.offset + index) as usize] as i32;
    }
    total
}

fn sum_portable(layout: &Layout, weights: &[i16], player: u64, opponent: u64) -> i32 {
    let bias = weights[layout.bias_index()] as i32;
    layout.instances.iter().fold(bias, |total, instance| {
        total + weights[instance.index(player, opponent) as usize] as i32
    })
}

/// The first format: bands of [`DEFAULT_PHASE_EMPTIES`] empties.
const MAGIC_V1: &[u8; 8] = b"ARBORPW1";
const MAGIC: &[u8; 8] = b"ARBORPW2";

/// Weights file: a magic, the empties per band (one byte), the count, then zig-zag
/// varints where a 0 is followed by the length of a run of zeros (most configurations
/// never occur in real games). The first format (`ARBORPW1`) has no band byte.
pub fn encode(weights: &Weights) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(weights.phase_empties as u8);
    let weights = &weights.values;
    out.extend_from_slice(&(weights.len() as u32).to_le_bytes());
    let mut k = 0;
    while k < weights.len() {
        if weights[k] == 0 {
            let run = weights[k..].iter().take_while(|&&w| w == 0).count();
            push_varint(&mut out, 0);
            push_varint(&mut out, run as u32);
            k += run;
        } else {
            let w = weights[k] as i32;
            push_varint(&mut out, ((w << 1) ^ (w >> 31)) as u32);
            k += 1;
        }
    }
    out
}

/// Reads a weights file of either format; an error unless it is whole and fits this
/// build's patterns.
pub fn decode(bytes: &[u8]) -> Result<Weights, String> {
    let (phase_empties, rest) = if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
        let (&band, rest) = rest.split_first().ok_or("truncated")?;
        (band as u32, rest)
    } else if let Some(rest) = bytes.strip_prefix(MAGIC_V1.as_slice()) {
        (DEFAULT_PHASE_EMPTIES, rest)
    } else {
        return Err("not an arbor weights file".into());
    };
    Weights::new(decode_values(rest)?, phase_empties)
}

/// The count and the varints of a weights file.
fn decode_values(rest: &[u8]) -> Result<Vec<i16>, String> {
    let count = u32::from_le_bytes(rest.get(..4).ok_or("truncated")?.try_into().unwrap());
    let mut input = &rest[4..];
    let mut weights = Vec::with_capacity(count as usize);
    while weights.len() < count as usize {
        let value = read_varint(&mut input)?;
        if value == 0 {
            let run = read_varint(&mut input)? as usize;
            if run == 0 || weights.len() + run > count as usize {
                return Err("bad run of zeros".into());
            }
            weights.resize(weights.len() + run, 0);
        } else {
            let w = ((value >> 1) as i32) ^ -((value & 1) as i32);
            weights.push(i16::try_from(w).map_err(|_| "weight out of range")?);
        }
    }
    if !input.is_empty() {
        return Err("trailing bytes".into());
    }
    Ok(weights)
}

fn push_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(input: &mut &[u8]) -> Result<u32, String> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let (&byte, rest) = input.split_first().ok_or("truncated")?;
        *input = rest;
        value |= ((byte & 0x7f) as u32) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("varint too long".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::symmetry::Symmetry;

    #[test]
    fn layout_has_the_46_placements() {
        let layout = &*LAYOUT;
        assert_eq!(layout.instances.len(), 46);
        // Every square is covered.
        let covered = layout
            .instances
            .iter()
            .flat_map(|i| i.squares[..i.len as usize].iter())
            .fold(0u64, |bits, &s| bits | square_bit(s as usize));
        assert_eq!(covered, !0);
    }

    #[test]
    fn weights_file_round_trips() {
        let len = LAYOUT.phase_len;
        for phase_empties in [1, 2, 3, 6, 61] {
            let values: Vec<i16> = (0..phases(phase_empties) * len)
                .map(|k| match k % 7 {
                    0 => i16::MAX,
                    1 => i16::MIN,
                    2 | 3 => 0,
                    _ => (k % 1000) as i16 - 500,
                })
                .collect();
            let weights = Weights::new(values, phase_empties).unwrap();
            let bytes = encode(&weights);
            assert_eq!(decode(&bytes).unwrap(), weights);
            let mut truncated = bytes.clone();
            truncated.pop();
            assert!(decode(&truncated).is_err());
            // Another band with the same values: the count no longer fits.
            let mut other = bytes.clone();
            other[8] = if phase_empties == 6 { 5 } else { 6 };
            assert!(decode(&other).is_err());
        }
        assert!(decode(b"nonsense").is_err());
        assert!(Weights::new(vec![0; 10], 6).is_err());
        assert!(Weights::new(vec![0; 62 * len], 0).is_err());
        // The first format has bands of 6 empties and no band byte.
        let six = Weights::new(vec![3; phases(6) * len], 6).unwrap();
        let v1 = [&b"ARBORPW1"[..], &encode(&six)[9..]].concat();
        let old = decode(&v1).unwrap();
        assert_eq!((old.phase_empties, old.values.len()), (6, 11 * len));
    }

    /// Each empties count reads its band's table.
    #[test]
    fn tables_follow_the_bands() {
        let len = LAYOUT.phase_len;
        let values: Vec<i16> = (0..phases(4))
            .flat_map(|phase| vec![phase as i16; len])
            .collect();
        let weights = Weights::new(values, 4).unwrap();
        for empties in 0..=64 {
            assert_eq!(weights.table(empties)[0] as u32, empties.min(60) / 4);
            assert_eq!(weights.table(empties).len(), len);
        }
        assert_eq!(band(4, 15), (60, 60));
        assert_eq!(band(4, 2), (8, 11));
    }

    /// Positions of random games, from the start to near the end.
    fn random_positions(seed: u64, count: usize) -> Vec<(u64, u64)> {
        use crate::game::othello::Othello;
        use crate::game::{Game, Move};
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut moves: Vec<Move> = Vec::new();
        (0..count)
            .map(|_| {
                let mut game = Othello::standard();
                for _ in 0..rng.random_range(0..60) {
                    game.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    game.make(moves[rng.random_range(0..moves.len())]);
                }
                (game.player(), game.opponent())
            })
            .collect()
    }

    /// Both ways of computing the sum agree.
    #[test]
    fn pext_and_portable_sums_agree() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let layout = &*LAYOUT;
            for (p, o) in random_positions(9, 300) {
                for rule_weights in &WEIGHTS {
                    let weights = rule_weights.table(64 - (p | o).count_ones());
                    // SAFETY: BMI2 checked above.
                    let fast = unsafe { sum_bmi2(layout, weights, p, o) };
                    assert_eq!(fast, sum_portable(layout, weights, p, o));
                }
            }
        }
    }

    /// Features from scratch: PEXT and the portable walk agree.
    #[test]
    fn pext_and_portable_features_agree() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let layout = &*LAYOUT;
            for (p, o) in random_positions(11, 300) {
                let (mut fast, mut portable) = (Features::default(), Features::default());
                // SAFETY: BMI2 checked above.
                unsafe { fast.fill_bmi2(layout, p, o) };
                portable.fill_portable(layout, p, o);
                assert_eq!(fast, portable);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pext_is_avoided_where_microcoded() {
        // CPUID leaf 1 eax of a Zen 2, a Zen 3, a Hygon Dhyana, an Intel and an old AMD.
        assert!(pext_is_microcoded(b"AuthenticAMD", 0x0087_0f10));
        assert!(!pext_is_microcoded(b"AuthenticAMD", 0x00a2_0f10));
        assert!(pext_is_microcoded(b"HygonGenuine", 0x0090_0f02));
        assert!(!pext_is_microcoded(b"GenuineIntel", 0x0009_06ea));
        assert!(pext_is_microcoded(b"AuthenticAMD", 0x0000_0662));
    }

    /// The evaluation does not depend on the board's orientation.
    #[test]
    fn evaluation_is_symmetric() {
        for rule in [Rule::Normal, Rule::Misere] {
            for (p, o) in random_positions(7, 100) {
                let value = evaluate(rule, p, o);
                for symmetry in Symmetry::ALL {
                    let (p, o) = (symmetry.apply(p, 8), symmetry.apply(o, 8));
                    assert_eq!(evaluate(rule, p, o), value);
                }
            }
        }
    }

    /// Each rule evaluates with its own weights: the rule's shipped file.
    #[test]
    fn each_rule_has_its_own_weights() {
        assert_ne!(*WEIGHTS[0], *WEIGHTS[1]);
        let files = [
            &include_bytes!("weights/normal8.bin")[..],
            &include_bytes!("weights/misere8.bin")[..],
        ];
        for (weights, file) in WEIGHTS.iter().zip(files) {
            assert_eq!(**weights, decode(file).unwrap());
        }
    }
}
