//! `arbor train --label-journal FILE`: the solves and searches of a labelling run, kept
//! as they finish, so that a run that is stopped (a session's end, `timeout`, a killed
//! job) resumes where it stopped instead of starting again. Deep searches of millions of
//! positions take longer than one sitting; with a journal they add up over runs, and the
//! labels come out the same bytes as from one uninterrupted run.
//!
//! The journal holds one record per finished job: a game's labels after its exact
//! solves, or a game's search scores (the positions it is the first to reach). Jobs are
//! numbered in the corpus's order, so the file belongs to one corpus and one set of
//! labelling options: its header carries the `--labels` key, and a journal made under
//! another key is refused, never overwritten.
//!
//! A labelling too long for one machine is split into shards (`--label-shard K/N`: the
//! jobs whose index leaves K when divided by N), each machine keeping its own journal;
//! a run that reads them all (`--label-journal` once per file) has every job and writes
//! the labels, the same bytes as one machine would.
//!
//! Layout, little-endian: `ARBORLJ1`; the key's length (u32) and UTF-8 bytes; the
//! FNV-1a digest (u64) of all before it. Then records, each: its kind (u8: 0 solved, 1
//! searched), the job's index (u32), the number of values (u32), the values (f32 each),
//! and the digest (u64) of the record's bytes before it. A record cut short or damaged
//! (the process stopped while writing it) ends the journal: it and anything after it
//! are dropped and written again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::train_labels::fnv1a;

const MAGIC: &[u8; 8] = b"ARBORLJ1";
/// A record's bytes besides its values: kind, index, count and digest.
const RECORD_OVERHEAD: usize = 1 + 4 + 4 + 8;

/// What a record holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A game's labels after its exact solves (every position of the game).
    Solved = 0,
    /// A game's search scores, one per position it is the first to reach.
    Searched = 1,
}

/// One of `count` shards of a labelling: the jobs whose index leaves `index` when
/// divided by `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether job `job` is this shard's.
    pub fn owns(&self, job: usize) -> bool {
        job % self.count == self.index
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, K from 0 to N - 1, N from 1 to 1,000,000.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}': a shard is K/N, K from 0 to N - 1, N from 1 to 1000000");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.parse().map_err(|_| bad())?;
        let count: usize = count.parse().map_err(|_| bad())?;
        if count == 0 || count > 1_000_000 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// An open journal: the records read from it (and from any other journals of the same
/// labelling read beside it), and the file to append new ones to.
pub struct Journal {
    path: PathBuf,
    file: File,
    records: HashMap<(Kind, u32), Vec<f32>>,
    /// Records appended since the last `sync`.
    pending: Vec<u8>,
    /// The jobs this run does, when it does only its shard's.
    shard: Option<Shard>,
}

impl Journal {
    /// Opens the journal at `path` made under `key`, or starts one there; a damaged tail
    /// (a record cut short) is dropped from the file. An error if the file is not a
    /// journal or was made under another key.
    pub fn open(path: &Path, key: &str) -> Result<Journal, String> {
        let error = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(error)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(error)?;
        let header = header(key);
        let mut records = HashMap::new();
        if bytes.is_empty() {
            file.write_all(&header).map_err(error)?;
            file.sync_data().map_err(error)?;
        } else {
            if !bytes.starts_with(MAGIC) {
                return Err(format!("{}: not an arbor label journal", path.display()));
            }
            if !bytes.starts_with(&header) {
                return Err(format!(
                    "{}: a label journal of other options or sources; give another \
                     --label-journal file, or delete this one to start again",
                    path.display()
                ));
            }
            let (read, good) = read_records(&bytes[header.len()..]);
            records = read;
            let end = (header.len() + good) as u64;
            if end < bytes.len() as u64 {
                log::warn!(
                    "{}: {} bytes of a record cut short dropped",
                    path.display(),
                    bytes.len() as u64 - end
                );
                file.set_len(end).map_err(error)?;
            }
            file.seek(SeekFrom::Start(end)).map_err(error)?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            records,
            pending: Vec::new(),
            shard: None,
        })
    }

    /// Adds the records of the journal at `path` (another shard's, made under the same
    /// `key`) without writing to it; a record cut short there ends what is read.
    pub fn read_more(&mut self, path: &Path, key: &str) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let header = header(key);
        if !bytes.starts_with(MAGIC) {
            return Err(format!("{}: not an arbor label journal", path.display()));
        }
        if !bytes.starts_with(&header) {
            return Err(format!(
                "{}: a label journal of other options or sources",
                path.display()
            ));
        }
        let (records, good) = read_records(&bytes[header.len()..]);
        if header.len() + good < bytes.len() {
            log::warn!(
                "{}: a record cut short, and what follows it, not read",
                path.display()
            );
        }
        self.records.extend(records);
        Ok(())
    }

    /// From now on this run does only `shard`'s jobs (all with `None`).
    pub fn set_shard(&mut self, shard: Option<Shard>) {
        self.shard = shard;
    }

    /// Whether this run does job `job`.
    pub fn does(&self, job: usize) -> bool {
        self.shard.is_none_or(|shard| shard.owns(job))
    }

    /// The values of job `index` of this kind, if a run finished it.
    pub fn get(&self, kind: Kind, index: usize) -> Option<&[f32]> {
        let index = u32::try_from(index).ok()?;
        self.records.get(&(kind, index)).map(Vec::as_slice)
    }

    /// The highest job index of this kind in the journal.
    pub fn last_index(&self, kind: Kind) -> Option<usize> {
        self.records
            .keys()
            .filter(|(k, _)| *k == kind)
            .map(|&(_, index)| index as usize)
            .max()
    }

    /// Adds job `index`'s values; they reach the file at the next `sync`.
    pub fn append(&mut self, kind: Kind, index: usize, values: &[f32]) {
        let start = self.pending.len();
        self.pending.push(kind as u8);
        self.pending
            .extend_from_slice(&(index as u32).to_le_bytes());
        self.pending
            .extend_from_slice(&(values.len() as u32).to_le_bytes());
        for value in values {
            self.pending.extend_from_slice(&value.to_le_bytes());
        }
        let digest = fnv1a(&self.pending[start..]);
        self.pending.extend_from_slice(&digest.to_le_bytes());
        self.records.insert((kind, index as u32), values.to_vec());
    }

    /// Writes the records appended since the last call and waits for the disk.
    pub fn sync(&mut self) -> Result<(), String> {
        let error = |e: std::io::Error| format!("{}: {e}", self.path.display());
        self.file.write_all(&self.pending).map_err(error)?;
        self.file.sync_data().map_err(error)?;
        self.pending.clear();
        Ok(())
    }
}

fn header(key: &str) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(key.len() as u32).to_le_bytes());
    bytes.extend_from_slice(key.as_bytes());
    let digest = fnv1a(&bytes);
    bytes.extend_from_slice(&digest.to_le_bytes());
    bytes
}

/// The records of `bytes` up to the first that is cut short or damaged, and the length
/// of the good part.
fn read_records(bytes: &[u8]) -> (HashMap<(Kind, u32), Vec<f32>>, usize) {
    let mut records = HashMap::new();
    let mut at = 0;
    while let Some(rest) = bytes.get(at..) {
        let Some(&[kind, i0, i1, i2, i3, n0, n1, n2, n3]) = rest.first_chunk::<9>() else {
            break;
        };
        let kind = match kind {
            0 => Kind::Solved,
            1 => Kind::Searched,
            _ => break,
        };
        let count = u32::from_le_bytes([n0, n1, n2, n3]) as usize;
        let Some(len) = count
            .checked_mul(4)
            .and_then(|values| values.checked_add(RECORD_OVERHEAD))
        else {
            break;
        };
        let Some(record) = rest.get(..len) else { break };
        let (body, digest) = record.split_at(len - 8);
        if fnv1a(body) != u64::from_le_bytes(digest.try_into().expect("8 bytes")) {
            break;
        }
        let values: Vec<f32> = body[9..]
            .chunks_exact(4)
            .map(|v| f32::from_le_bytes(v.try_into().expect("4 bytes")))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            break;
        }
        records.insert((kind, u32::from_le_bytes([i0, i1, i2, i3])), values);
        at += len;
    }
    (records, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbor-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn records_survive_reopening_and_a_torn_tail_is_dropped() {
        let path = temp("torn");
        let mut journal = Journal::open(&path, "key a").unwrap();
        journal.append(Kind::Solved, 0, &[1.0, -2.5]);
        journal.append(Kind::Searched, 3, &[0.25]);
        journal.sync().unwrap();
        journal.append(Kind::Solved, 1, &[7.0, 8.0, 9.0]);
        journal.sync().unwrap();
        drop(journal);
        let whole = std::fs::metadata(&path).unwrap().len();
        let journal = Journal::open(&path, "key a").unwrap();
        assert_eq!(journal.get(Kind::Solved, 0), Some(&[1.0, -2.5][..]));
        assert_eq!(journal.get(Kind::Searched, 3), Some(&[0.25][..]));
        assert_eq!(journal.get(Kind::Searched, 0), None);
        assert_eq!(journal.last_index(Kind::Solved), Some(1));
        drop(journal);
        // The last record cut short, as a stopped process leaves it.
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(whole - 5).unwrap();
        drop(file);
        let mut journal = Journal::open(&path, "key a").unwrap();
        assert_eq!(journal.get(Kind::Solved, 1), None);
        assert_eq!(journal.get(Kind::Searched, 3), Some(&[0.25][..]));
        journal.append(Kind::Solved, 1, &[7.0, 8.0, 9.0]);
        journal.sync().unwrap();
        drop(journal);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        let journal = Journal::open(&path, "key a").unwrap();
        assert_eq!(journal.get(Kind::Solved, 1), Some(&[7.0, 8.0, 9.0][..]));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn other_keys_and_other_files_are_refused_and_left_alone() {
        let path = temp("key");
        let mut journal = Journal::open(&path, "rule normal").unwrap();
        journal.append(Kind::Searched, 0, &[1.0]);
        journal.sync().unwrap();
        drop(journal);
        let before = std::fs::read(&path).unwrap();
        let error = Journal::open(&path, "rule misere").err().unwrap();
        assert!(error.contains("other options"), "{error}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        std::fs::write(&path, b"ARBORTL1 a labels file").unwrap();
        let error = Journal::open(&path, "rule normal").err().unwrap();
        assert!(error.contains("not an arbor label journal"), "{error}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn shards_parse_and_split_the_jobs() {
        let shard: Shard = "2/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 2, count: 3 });
        assert_eq!(
            (0..9).filter(|&job| shard.owns(job)).collect::<Vec<_>>(),
            [2, 5, 8]
        );
        assert!("0/1".parse::<Shard>().unwrap().owns(7));
        for bad in ["3/3", "1/0", "-1/2", "1", "a/b", "1/2/3", "0/1000001", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn other_journals_are_read_beside_without_being_written() {
        let (first, second) = (temp("first"), temp("second"));
        let mut journal = Journal::open(&second, "k").unwrap();
        journal.append(Kind::Searched, 1, &[4.0]);
        journal.sync().unwrap();
        drop(journal);
        let kept = std::fs::read(&second).unwrap();
        let mut journal = Journal::open(&first, "k").unwrap();
        journal.read_more(&second, "k").unwrap();
        assert_eq!(journal.get(Kind::Searched, 1), Some(&[4.0][..]));
        assert!(journal.read_more(&second, "other").is_err());
        journal.append(Kind::Searched, 0, &[3.0]);
        journal.sync().unwrap();
        assert_eq!(std::fs::read(&second).unwrap(), kept);
        std::fs::remove_file(&first).unwrap();
        std::fs::remove_file(&second).unwrap();
    }

    #[test]
    fn a_damaged_record_ends_the_journal() {
        let path = temp("damaged");
        let mut journal = Journal::open(&path, "k").unwrap();
        for index in 0..4 {
            journal.append(Kind::Solved, index, &[index as f32; 3]);
        }
        journal.sync().unwrap();
        drop(journal);
        let mut bytes = std::fs::read(&path).unwrap();
        let header = header("k").len();
        let record = RECORD_OVERHEAD + 12;
        bytes[header + 2 * record + 10] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let journal = Journal::open(&path, "k").unwrap();
        assert_eq!(journal.last_index(Kind::Solved), Some(1));
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            header + 2 * record
        );
        std::fs::remove_file(&path).unwrap();
    }
}
