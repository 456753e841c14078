//! Large tables: allocated zeroed by the system (pages are mapped when first touched, so a
//! big table costs nothing until used), and refused with an error instead of an abort
//! when the machine cannot provide them.

use std::alloc::{Layout, alloc_zeroed};

/// Plain-data table entries whose all-zero bit pattern is a valid, empty entry.
///
/// # Safety
/// Implementors must be valid when every byte is zero and must not implement `Drop`.
pub unsafe trait Zeroable: Copy {}

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

/// `len` zeroed entries (at least one); `what` names the table in the error.
pub fn zeroed_table<T: Zeroable>(len: usize, what: &str) -> Result<Vec<T>, String> {
    let len = len.max(1);
    let refuse = || {
        format!(
            "cannot allocate {} MiB for {what}",
            (len as u128 * std::mem::size_of::<T>() as u128).div_ceil(1 << 20)
        )
    };
    let layout = Layout::array::<T>(len).map_err(|_| refuse())?;
    if layout.size() == 0 {
        return Err(refuse());
    }
    // SAFETY: the layout has a non-zero size; the pointer comes from the global allocator
    // with exactly this layout (what `Vec` frees with), and `T: Zeroable` makes zeroed
    // memory `len` valid values.
    unsafe {
        let pointer = alloc_zeroed(layout) as *mut T;
        if pointer.is_null() {
            return Err(refuse());
        }
        Ok(Vec::from_raw_parts(pointer, len, len))
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
        let table: Vec<Line> = zeroed_table(1000, "a test table").unwrap();
        assert_eq!(table.len(), 1000);
        assert_eq!(table.as_ptr() as usize % 64, 0);
        assert!(table.iter().all(|line| line.0 == [0; 8]));
        let error = zeroed_table::<Line>(usize::MAX / 64, "a huge table").unwrap_err();
        assert!(error.starts_with("cannot allocate"), "{error}");
        assert!(zeroed_table::<Line>(1 << 44, "a huge table").is_err());
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
