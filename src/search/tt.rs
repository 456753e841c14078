//! The transposition table: buckets of four entries, one cache line each, lock-free
//! (each entry stores `key ^ data` beside `data`, so a torn write reads as a miss).
//!
//! Geometry: a slot is two `u64`s (16 bytes), a bucket four slots aligned to 64 bytes,
//! so it is exactly one cache line. A table of N MiB holds N * 16384 buckets, any count
//! rather than a power of two, and a key picks its bucket by the high half of
//! `key * buckets` (128-bit product); the slot keeps the whole key to verify a hit.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Move;
use crate::memory::{Zeroable, ZeroedTable};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The score is at least the stored one (a beta cutoff).
    Lower,
    /// The score is at most the stored one (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub best: Move,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

const SLOTS: usize = 4;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four slots filling one cache line, so a probe touches a single line.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

// SAFETY: atomics of zero are empty slots (data 0 is never a stored entry).
unsafe impl Zeroable for Bucket {}

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
const _: () = assert!(BUCKET_BYTES == 64 && std::mem::align_of::<Bucket>() == 64);

pub struct TranspositionTable {
    buckets: ZeroedTable<Bucket>,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of exactly `megabytes` MiB; panics if that cannot be allocated.
    pub fn new(megabytes: usize) -> TranspositionTable {
        TranspositionTable::try_new(megabytes.max(1)).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A table of exactly `megabytes` MiB, or an error if the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let error = || format!("cannot allocate {megabytes} MiB for the transposition table");
        if megabytes == 0 {
            return Err("the transposition table needs at least 1 MiB".to_string());
        }
        let count = megabytes.checked_mul(1 << 20).ok_or_else(error)? / BUCKET_BYTES;
        let buckets = ZeroedTable::new(count, "the transposition table")?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU64::new(0),
        })
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    pub fn megabytes(&self) -> usize {
        self.bytes() >> 20
    }

    /// Empties every slot, writing every byte, so the whole table is then resident.
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|bucket| &bucket.slots) {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search: entries of older searches become the first to go.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The high bits of `key` times the bucket count: an even spread over any count.
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    fn bucket(&self, key: u64) -> &[Slot; SLOTS] {
        &self.buckets[self.index(key)].slots
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    pub fn store(&self, key: u64, entry: TtEntry) {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for (index, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            if data == 0 || slot.check.load(Ordering::Relaxed) ^ data == key {
                victim = index;
                break;
            }
            // Prefer to replace shallow entries and those of older searches.
            let stale = ((age + 64 - (data >> 58)) & 0x3f) as i32;
            let value = ((data >> 48) & 0xff) as i32 - 8 * stale;
            if value < victim_value {
                victim_value = value;
                victim = index;
            }
        }
        let data = pack(entry, age);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
        bucket[victim].data.store(data, Ordering::Relaxed);
    }
}

/// Bits: move 0..16, score 16..48 (i32), depth 48..56, bound 56..58, age 58..64.
/// Never zero: the bound code starts at 1.
fn pack(entry: TtEntry, age: u64) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    entry.best.to_bits() as u64
        | (entry.score as u32 as u64) << 16
        | (entry.depth as u64) << 48
        | bound << 56
        | age << 58
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        best: Move::from_bits(data as u16),
        score: (data >> 16) as u32 as i32,
        depth: (data >> 48) as u8,
        bound: match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        let entry = TtEntry {
            best: Move::new(19),
            score: -1234,
            depth: 7,
            bound: Bound::Lower,
        };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        let pass = TtEntry {
            best: Move::PASS,
            score: 6400,
            depth: 0,
            bound: Bound::Exact,
        };
        table.store(42, pass);
        assert_eq!(table.probe(42), Some(pass));
        table.clear();
        assert_eq!(table.probe(42), None);
    }

    #[test]
    fn full_buckets_keep_the_deepest() {
        let table = TranspositionTable::new(1);
        // Keys this close share a bucket (each covers 2^64 / 16384 keys).
        assert!((5..13).all(|key| table.index(key) == table.index(5)));
        for i in 0..8u64 {
            let depth = if i == 0 { 30 } else { i as u8 };
            table.store(
                5 + i,
                TtEntry {
                    best: Move::new(0),
                    score: 0,
                    depth,
                    bound: Bound::Exact,
                },
            );
        }
        assert_eq!(table.probe(5).map(|e| e.depth), Some(30));
    }

    #[test]
    fn sizes_are_exact_and_buckets_aligned() {
        for megabytes in [1, 3, 64] {
            let table = TranspositionTable::try_new(megabytes).unwrap();
            assert_eq!(table.bytes(), megabytes << 20);
            assert_eq!(table.megabytes(), megabytes);
            assert_eq!(table.buckets.as_ptr() as usize % 64, 0);
            // Every bucket is reachable, the last one included.
            assert_eq!(table.index(0), 0);
            assert_eq!(table.index(u64::MAX), table.buckets.len() - 1);
        }
    }

    #[test]
    fn impossible_sizes_are_errors() {
        let error = TranspositionTable::try_new(usize::MAX >> 20).err().unwrap();
        assert_eq!(
            error,
            format!(
                "cannot allocate {} MiB for the transposition table",
                usize::MAX >> 20
            )
        );
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        assert!(TranspositionTable::try_new(0).is_err());
        // Larger than any machine's memory, but a valid layout: the allocator says no.
        assert!(TranspositionTable::try_new(1 << 40).is_err());
    }
}
