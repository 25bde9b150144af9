//! A transposition table's memory: zeroed slots straight from the system, in huge pages
//! where the system has them.
//!
//! A table of 64 MB filled by 4 KB pages costs 16,384 page faults on first touch, a
//! large share of a short match's or `compare`'s time (a fault each 4 KB, in the kernel).
//! Memory mapped by hand, aligned to 2 MB and marked for huge pages, takes 32 faults for
//! the same table, and the search's random probes miss the TLB far less. The kernel's
//! fresh pages are zero, so an empty table is never written before its first use.

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

/// A table slot: the key check word and the data word.
pub(crate) type Slot = [AtomicU64; 2];

/// The size of a huge page on x86-64 and most AArch64 systems: tables are aligned to it.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `len` zeroed slots that own their memory.
pub(crate) struct ZeroedSlots {
    start: NonNull<Slot>,
    len: usize,
}

// SAFETY: the memory is owned by this value alone and holds atomics, which any thread may
// read and write through a shared reference.
unsafe impl Send for ZeroedSlots {}
// SAFETY: as above: shared access only ever hands out `&[AtomicU64; 2]`.
unsafe impl Sync for ZeroedSlots {}

impl Default for ZeroedSlots {
    /// No slots (owns no memory).
    fn default() -> ZeroedSlots {
        ZeroedSlots {
            start: NonNull::dangling(),
            len: 0,
        }
    }
}

impl Deref for ZeroedSlots {
    type Target = [Slot];

    fn deref(&self) -> &[Slot] {
        // SAFETY: `start` points to `len` initialised slots this value owns (or is
        // dangling with `len` 0, which a slice allows); all-zero bytes are valid atomics.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl ZeroedSlots {
    /// `len` (> 0) zeroed slots, or `None` when the system refuses the memory.
    pub(crate) fn new(len: usize) -> Option<ZeroedSlots> {
        let bytes = len.checked_mul(std::mem::size_of::<Slot>())?;
        if bytes == 0 {
            return Some(ZeroedSlots::default());
        }
        let start = map_zeroed(bytes)?;
        Some(ZeroedSlots {
            start: start.cast(),
            len,
        })
    }

    fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<Slot>()
    }
}

impl Drop for ZeroedSlots {
    fn drop(&mut self) {
        if self.len > 0 {
            // SAFETY: the memory was mapped by `map_zeroed` with exactly this size and
            // is not used after this.
            unsafe { unmap(self.start.cast(), self.bytes()) };
        }
    }
}

/// `bytes` (> 0) of zeroed memory aligned to a huge page and marked for huge pages.
#[cfg(target_os = "linux")]
fn map_zeroed(bytes: usize) -> Option<NonNull<u8>> {
    let padded = bytes.checked_add(HUGE_PAGE)?;
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing
    // touches no existing memory.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            padded,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return None;
    }
    let base = base.cast::<u8>();
    let head = base.align_offset(HUGE_PAGE);
    let tail = padded - head - bytes;
    // SAFETY: `head` and `tail` (multiples of the page size: the mapping and HUGE_PAGE
    // are page-aligned) are the parts of the mapping before and after the aligned
    // `bytes`, which nothing uses; `start..start + bytes` lies inside the mapping.
    unsafe {
        let start = base.add(head);
        if head > 0 {
            libc::munmap(base.cast(), head);
        }
        if tail > 0 {
            libc::munmap(start.add(bytes).cast(), tail);
        }
        // Advice only: where the kernel has no huge pages the table uses small ones.
        libc::madvise(start.cast(), bytes, libc::MADV_HUGEPAGE);
        NonNull::new(start)
    }
}

/// # Safety
/// `start` and `bytes` must be a whole mapping made by `map_zeroed`, not used after.
#[cfg(target_os = "linux")]
unsafe fn unmap(start: NonNull<u8>, bytes: usize) {
    // SAFETY: the caller passes a mapping of exactly `bytes` at `start`.
    unsafe { libc::munmap(start.as_ptr().cast(), bytes) };
}

/// `bytes` (> 0) of zeroed memory from the global allocator (large zeroed allocations
/// come as pages the system fills on first touch).
#[cfg(not(target_os = "linux"))]
fn map_zeroed(bytes: usize) -> Option<NonNull<u8>> {
    let layout = layout_of(bytes)?;
    // SAFETY: the layout's size is not zero.
    NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
}

#[cfg(not(target_os = "linux"))]
fn layout_of(bytes: usize) -> Option<std::alloc::Layout> {
    std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<Slot>()).ok()
}

/// # Safety
/// `start` and `bytes` must be an allocation made by `map_zeroed`, not used after.
#[cfg(not(target_os = "linux"))]
unsafe fn unmap(start: NonNull<u8>, bytes: usize) {
    let layout = layout_of(bytes).expect("the layout it was allocated with");
    // SAFETY: the caller passes an allocation made with this layout.
    unsafe { std::alloc::dealloc(start.as_ptr(), layout) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn slots_start_empty_and_keep_what_is_stored() {
        let slots = ZeroedSlots::new(1 << 17).unwrap();
        assert_eq!(slots.len(), 1 << 17);
        assert!(slots
            .iter()
            .all(|s| s[0].load(Ordering::Relaxed) == 0 && s[1].load(Ordering::Relaxed) == 0));
        slots[12345][1].store(7, Ordering::Relaxed);
        assert_eq!(slots[12345][1].load(Ordering::Relaxed), 7);
        #[cfg(target_os = "linux")]
        assert_eq!(slots.as_ptr() as usize % HUGE_PAGE, 0);
    }

    #[test]
    fn no_slots_own_no_memory() {
        assert!(ZeroedSlots::new(0).unwrap().is_empty());
        assert!(ZeroedSlots::default().is_empty());
    }
}
