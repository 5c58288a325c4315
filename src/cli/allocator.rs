//! How the allocator keeps the memory a `check` run frees: set once when
//! `miauc` starts, so that the process's resident memory follows what its
//! searches hold and count (`docs/limits.md`, "Memory of a check run").
//!
//! glibc's defaults keep freed memory for reuse: a large block freed raises
//! the size from which blocks get pages of their own (up to 32 MiB), so the
//! tables that grow after it come from the heap and stay there once freed,
//! and every thread may get an arena of its own that keeps what its
//! searches freed. A search frees its tables when it ends, and the next
//! search of the run allocates its own, often on another thread. Blocks
//! from 256 KiB on (the searches' tables, vectors and buffers) therefore
//! always get pages of their own, given back when freed; the smaller ones
//! share two arenas, trimmed once 1 MiB at their top is free.

#![allow(unsafe_code, reason = "mallopt, with a SAFETY note per call")]

/// Blocks of this many bytes or more are mapped on their own and unmapped
/// when freed (a fixed threshold: glibc's own rises with the blocks freed).
const MAP_FROM: i32 = 256 << 10;

/// Arenas for the smaller blocks, whatever the number of threads.
const ARENAS: i32 = 2;

/// Free memory at the top of an arena past which it is given back.
const TRIM_FROM: i32 = 1 << 20;

/// Sets the allocator's thresholds for the run (a no-op off glibc).
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt changes the allocator's parameters only; called
        // at start, before the run's threads, with documented options.
        unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MAP_FROM) };
        // SAFETY: as above.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, ARENAS) };
        // SAFETY: as above.
        unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_FROM) };
    }
}
