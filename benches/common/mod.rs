//! What the simulator benchmarks read of their own process (Linux `/proc`):
//! CPU seconds, the load average, the peak memory. Each bench includes it
//! with `mod common;` (not a bench target of its own).

#![allow(dead_code)] // each bench uses what it prints

/// CPU time of this (single-threaded) process so far, in seconds.
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
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
