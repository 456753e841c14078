//! Large tables: zeroed by the system (large `calloc`s are fresh pages, mapped when first
//! touched, so a big table costs nothing until used), aligned to a cache line by hand
//! (an over-aligned `alloc_zeroed` would write every byte at once), and refused with an
//! error instead of an abort when the machine cannot provide them.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Table entries whose all-zero bit pattern is a valid, empty entry.
///
/// # Safety
/// Implementors must be valid when every byte is zero, must not implement `Drop`, and
/// must not need an alignment above 64.
pub unsafe trait Zeroable {}

/// The alignment every table gets: one cache line.
const LINE: usize = 64;

/// A fixed-length table of zero-initialised entries, its first entry on a cache line.
pub struct ZeroedTable<T: Zeroable> {
    entries: NonNull<T>,
    len: usize,
    /// What was allocated (with 16-byte alignment, so that the allocator may `calloc`).
    block: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the table owns its entries like a `Vec<T>` does.
unsafe impl<T: Zeroable + Send> Send for ZeroedTable<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for ZeroedTable<T> {}

impl<T: Zeroable> ZeroedTable<T> {
    /// `len` zeroed entries (at least one); `what` names the table in the error.
    pub fn new(len: usize, what: &str) -> Result<ZeroedTable<T>, String> {
        let len = len.max(1);
        let refuse = || {
            format!(
                "cannot allocate {} MiB for {what}",
                (len as u128 * std::mem::size_of::<T>() as u128).div_ceil(1 << 20)
            )
        };
        assert!(std::mem::align_of::<T>() <= LINE && std::mem::size_of::<T>() > 0);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|bytes| bytes.checked_add(LINE))
            .ok_or_else(refuse)?;
        let layout = Layout::from_size_align(bytes, 16).map_err(|_| refuse())?;
        // SAFETY: the layout has a non-zero size.
        let block = NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or_else(refuse)?;
        let offset = block.as_ptr().align_offset(LINE);
        // SAFETY: `offset < LINE`, and the block has `LINE` bytes beyond the entries.
        let entries = unsafe { NonNull::new_unchecked(block.as_ptr().add(offset) as *mut T) };
        advise_huge_pages(block.as_ptr(), bytes);
        Ok(ZeroedTable {
            entries,
            len,
            block,
            layout,
        })
    }
}

/// Size of a transparent huge page on x86-64 and most Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the block's whole huge pages with huge pages, where the system
/// leaves that to the program (`transparent_hugepage` set to `madvise`): a probe into a
/// table of hundreds of MiB then rarely misses the TLB. Advice only: a refusal changes
/// nothing but speed.
fn advise_huge_pages(block: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let start = block.align_offset(HUGE_PAGE);
        if bytes > start && bytes - start >= HUGE_PAGE {
            let length = (bytes - start) / HUGE_PAGE * HUGE_PAGE;
            // SAFETY: the range lies inside the block just allocated, starts on a page
            // boundary, and `madvise` with this advice neither moves nor frees memory.
            let refused =
                unsafe { libc::madvise(block.add(start).cast(), length, libc::MADV_HUGEPAGE) != 0 };
            if refused {
                log::debug!("no huge pages for a table of {} MiB", bytes >> 20);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (block, bytes, HUGE_PAGE);
}

impl<T: Zeroable> Deref for ZeroedTable<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` zeroed (hence valid, by `Zeroable`) entries, aligned, owned.
        unsafe { std::slice::from_raw_parts(self.entries.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.entries.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with exactly this layout; entries need no drop.
        unsafe { dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// Memory the system says it can still give (Linux: `MemAvailable`), MiB; `None` where
/// it does not say.
pub fn available_megabytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib >> 10)
}

/// Refuses a memory budget of `megabytes` MiB that the system cannot give (counting
/// `freed` MiB that will be released first), instead of letting the tables fill all
/// memory and the process be killed.
pub fn check_available(megabytes: usize, freed: usize) -> Result<(), String> {
    match available_megabytes() {
        Some(available) if megabytes > available.saturating_add(freed) => Err(format!(
            "cannot allocate {megabytes} MiB: the system has {} MiB available",
            available.saturating_add(freed)
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug)]
    #[repr(C, align(64))]
    struct Line([u64; 8]);
    unsafe impl Zeroable for Line {}

    #[test]
    fn tables_are_zeroed_aligned_and_refused_when_impossible() {
        let mut table: ZeroedTable<Line> = ZeroedTable::new(1000, "a test table").unwrap();
        assert_eq!(table.len(), 1000);
        assert_eq!(table.as_ptr() as usize % 64, 0);
        assert!(table.iter().all(|line| line.0 == [0; 8]));
        table[999].0[7] = 5;
        assert_eq!(table[999].0[7], 5);
        let error = ZeroedTable::<Line>::new(usize::MAX / 64, "a huge table")
            .err()
            .unwrap();
        assert!(error.starts_with("cannot allocate"), "{error}");
        assert!(ZeroedTable::<Line>::new(1 << 44, "a huge table").is_err());
    }

    #[test]
    fn budgets_beyond_the_available_memory_are_refused() {
        let Some(available) = available_megabytes() else {
            eprintln!("skipped: the system does not say how much memory is available");
            return;
        };
        assert!(check_available(1, 0).is_ok());
        let error = check_available(available + 1000, 0).unwrap_err();
        assert!(error.contains("available"), "{error}");
        assert!(check_available(available + 1000, 2000).is_ok());
    }
}
