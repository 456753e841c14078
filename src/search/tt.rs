//! The transposition table: buckets of four entries, one cache line each, lock-free
//! (each entry stores `key ^ data` beside `data`, so a torn write reads as a miss).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Move;

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

const BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU64,
}

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).next_power_of_two() / 2;
        let buckets = buckets.max(1);
        let mut slots = Vec::with_capacity(buckets * BUCKET);
        slots.resize_with(buckets * BUCKET, Slot::default);
        TranspositionTable {
            slots,
            buckets,
            age: AtomicU64::new(0),
        }
    }

    /// Like `new`; an error instead of an abort when the memory cannot be had.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        Ok(TranspositionTable::new(megabytes))
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search: entries of older searches become the first to go.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let index = (key as usize & (self.buckets - 1)) * BUCKET;
        &self.slots[index..index + BUCKET]
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
        let buckets = table.buckets as u64;
        for i in 0..8u64 {
            let depth = if i == 0 { 30 } else { i as u8 };
            table.store(
                5 + i * buckets,
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
}
