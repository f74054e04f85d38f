//! What the simulator benchmarks read of their own process (Linux `/proc`):
//! CPU seconds, the load average, the peak memory. Each bench includes it
//! with `mod common;` (not a bench target of its own).

#![allow(dead_code)] // each bench uses what it prints

/// CPU time of this process so far, all its threads (the online
/// checker's among them, `check::Online`) and those that ended, in seconds.
pub fn cpu_seconds() -> f64 {
    clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time of the calling thread so far, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// Clock `id` in seconds (0 if it cannot be read).
fn clock(id: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec for the call to fill in.
    let ok = unsafe { libc::clock_gettime(id, &mut ts) } == 0;
    if ok {
        ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
    } else {
        0.0
    }
}

/// The 1-minute load average (the machine may be shared).
pub fn loadavg() -> String {
    let l = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    l.split_whitespace().next().unwrap_or("?").to_string()
}

/// The process's peak resident memory (VmHWM), in MiB.
pub fn peak_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse().ok());
    kb.unwrap_or(0) / 1024
}
