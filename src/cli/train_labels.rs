//! `arbor train --labels FILE`: the labelled positions kept between runs, so that the
//! fit can be repeated without the hour of solves and searches that made its labels.
//!
//! The file holds the positions after labelling and de-duplication, with the counts per
//! source, under a key that names everything the labels depend on (the rule, the solve
//! and search settings, the digest of the weights the searches evaluate with, each
//! source's path and size, the self-play settings). A file made under another key is
//! refused, never overwritten.
//!
//! Layout, little-endian: `ARBORTL1`; the key's length (u32) and UTF-8 bytes; the number
//! of sources (u32) and, per source, games, unfinished, positions and duplicates (u64
//! each); the number of positions (u64) and, per position, the mover's discs (u64), the
//! other side's (u64), the label (f32) and one byte of flags (bit 0 held out, bit 1
//! Black to move, bits 2-7 the source); last, the FNV-1a digest (u64) of all before it.

use std::path::Path;

use super::train::{Sample, SourceCounts};

const MAGIC: &[u8; 8] = b"ARBORTL1";
const SAMPLE_BYTES: usize = 8 + 8 + 4 + 1;

/// FNV-1a, 64 bits: the check of a labels file and the digest of a weights file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The total size in bytes of a file, or of the files in a directory (one level down
/// too): part of a labels key, so that a source that changed is not taken for the same.
pub fn source_size(path: &Path) -> Result<u64, String> {
    let error = |e: std::io::Error| format!("{}: {e}", path.display());
    let metadata = std::fs::metadata(path).map_err(error)?;
    if !metadata.is_dir() {
        return Ok(metadata.len());
    }
    let mut total = 0;
    for entry in std::fs::read_dir(path).map_err(error)? {
        let entry = entry.map_err(error)?;
        let metadata = entry.metadata().map_err(error)?;
        total += if metadata.is_dir() {
            source_size(&entry.path())?
        } else {
            metadata.len()
        };
    }
    Ok(total)
}

/// The labels file's bytes.
pub fn encode(key: &str, counts: &[SourceCounts], samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + key.len() + samples.len() * SAMPLE_BYTES);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(key.len() as u32).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&(counts.len() as u32).to_le_bytes());
    for count in counts {
        for value in [
            count.games,
            count.unfinished,
            count.positions,
            count.duplicates,
        ] {
            out.extend_from_slice(&(value as u64).to_le_bytes());
        }
    }
    out.extend_from_slice(&(samples.len() as u64).to_le_bytes());
    for sample in samples {
        out.extend_from_slice(&sample.player.to_le_bytes());
        out.extend_from_slice(&sample.opponent.to_le_bytes());
        out.extend_from_slice(&sample.label.to_le_bytes());
        out.push(sample.holdout as u8 | (sample.black_to_move as u8) << 1 | sample.source << 2);
    }
    let digest = fnv1a(&out);
    out.extend_from_slice(&digest.to_le_bytes());
    out
}

/// Reads a labels file's bytes made under `key`: the counts per source and the
/// positions, or why the file is not one (damaged, cut short, or made under another key).
pub fn decode(
    bytes: &[u8],
    key: &str,
    sources: usize,
) -> Result<(Vec<SourceCounts>, Vec<Sample>), String> {
    let (stored, counts, samples) = decode_any(bytes, sources)?;
    if stored != key {
        return Err(format!(
            "made for other options or sources ({stored}), not these ({key}): give another \
             --labels file, or delete this one to label again"
        ));
    }
    Ok((counts, samples))
}

/// Reads a labels file whatever its key, returned with its counts and positions.
pub fn decode_any(
    bytes: &[u8],
    sources: usize,
) -> Result<(String, Vec<SourceCounts>, Vec<Sample>), String> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or("not an arbor labels file")?;
    let (body, digest) = body.split_last_chunk::<8>().ok_or("cut short: no digest")?;
    if fnv1a(&bytes[..bytes.len() - 8]) != u64::from_le_bytes(*digest) {
        return Err("damaged: the digest does not match".into());
    }
    let mut input = Reader(body);
    let key_len = input.u32()? as usize;
    let stored = std::str::from_utf8(input.take(key_len)?).map_err(|_| "bad key")?;
    if input.u32()? as usize != sources {
        return Err("wrong number of sources".into());
    }
    let mut counts = Vec::with_capacity(sources);
    for _ in 0..sources {
        counts.push(SourceCounts {
            games: input.u64()? as usize,
            unfinished: input.u64()? as usize,
            positions: input.u64()? as usize,
            duplicates: input.u64()? as usize,
        });
    }
    let len = input.u64()? as usize;
    if input.0.len() != len.checked_mul(SAMPLE_BYTES).ok_or("bad count")? {
        return Err(format!(
            "{len} positions announced, {} bytes of them",
            input.0.len()
        ));
    }
    let mut samples = Vec::with_capacity(len);
    for _ in 0..len {
        let (player, opponent) = (input.u64()?, input.u64()?);
        let label = f32::from_le_bytes(input.take(4)?.try_into().expect("4 bytes"));
        let flags = input.take(1)?[0];
        if player & opponent != 0 || !label.is_finite() || (flags >> 2) as usize >= sources {
            return Err("a position that cannot be".into());
        }
        samples.push(Sample {
            player,
            opponent,
            label,
            holdout: flags & 1 != 0,
            black_to_move: flags & 2 != 0,
            source: flags >> 2,
        });
    }
    Ok((stored.to_string(), counts, samples))
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], String> {
        if self.0.len() < len {
            return Err("cut short".into());
        }
        let (head, tail) = self.0.split_at(len);
        self.0 = tail;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        (0..50u64)
            .map(|k| Sample {
                player: k << 3,
                opponent: 1 << (k % 3),
                label: k as f32 * 0.5 - 7.0,
                holdout: k % 10 == 0,
                black_to_move: k % 3 == 0,
                source: (k % 4) as u8,
            })
            .collect()
    }

    fn counts() -> Vec<SourceCounts> {
        (0..4)
            .map(|k| SourceCounts {
                games: 10 + k,
                unfinished: k,
                positions: 600 + k,
                duplicates: 3 * k,
            })
            .collect()
    }

    #[test]
    fn labels_round_trip() {
        let bytes = encode("key", &counts(), &samples());
        let (counts_back, samples_back) = decode(&bytes, "key", 4).unwrap();
        assert_eq!(counts_back, counts());
        for (a, b) in samples_back.iter().zip(&samples()) {
            assert_eq!(
                (
                    a.player,
                    a.opponent,
                    a.label,
                    a.holdout,
                    a.black_to_move,
                    a.source
                ),
                (
                    b.player,
                    b.opponent,
                    b.label,
                    b.holdout,
                    b.black_to_move,
                    b.source
                )
            );
        }
        assert_eq!(samples_back.len(), 50);
    }

    #[test]
    fn other_keys_and_damage_are_refused() {
        let bytes = encode("rule normal", &counts(), &samples());
        let other = decode(&bytes, "rule misere", 4).unwrap_err();
        assert!(other.contains("made for other options"), "{other}");
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert!(
            decode(&flipped, "rule normal", 4)
                .unwrap_err()
                .contains("damaged")
        );
        let cut = &bytes[..bytes.len() - 30];
        assert!(decode(cut, "rule normal", 4).is_err());
        assert!(decode(b"ARBORPW1", "rule normal", 4).is_err());
        assert!(decode(&bytes, "rule normal", 3).is_err());
    }
}
