//! Independent jobs on every core, their results in the jobs' order (so a
//! result never depends on the core count or on which thread ran a job).
//!
//! Each thread takes the next job no thread has taken yet (a shared
//! counter), so one long job does not leave a core idle behind a fixed
//! split; [`by_cost`] starts the longest jobs first (Graham's LPT rule),
//! which keeps the last job from running alone on a 2-core machine.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` over `jobs` on every core; results in `jobs`' order. A panic in a
/// job is resumed in the caller.
///
/// ```
/// assert_eq!(lbcheck::base::par::map(&[1, 2, 3], |x| x * 10), vec![10, 20, 30]);
/// ```
pub fn map<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    in_order(jobs, &(0..jobs.len()).collect::<Vec<_>>(), f)
}

/// [`map`], starting the jobs by decreasing `cost` (ties in job order).
///
/// ```
/// let r = lbcheck::base::par::by_cost(&[1u64, 5, 2], |&x| x as f64, |x| x + 1);
/// assert_eq!(r, vec![2, 6, 3]);
/// ```
pub fn by_cost<J: Sync, R: Send>(jobs: &[J], cost: impl Fn(&J) -> f64, f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| cost(&jobs[b]).total_cmp(&cost(&jobs[a])).then(a.cmp(&b)));
    in_order(jobs, &order, f)
}

/// The number of threads: the cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs job `order[0]`, `order[1]`, … as threads free up.
fn in_order<J: Sync, R: Send>(jobs: &[J], order: &[usize], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let threads = cores().min(jobs.len()).max(1);
    let next = AtomicUsize::new(0);
    let take = || {
        let mut done = Vec::new();
        while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            done.push((i, f(&jobs[i])));
        }
        done
    };
    let mut all: Vec<(usize, R)> = if threads == 1 {
        take()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(take)).collect();
            handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        })
    };
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_jobs_order_whatever_thread_ran_them() {
        let jobs: Vec<u64> = (0..200).collect();
        let slow = |&x: &u64| (0..(x % 7) * 1000).fold(x, |a, b| a.wrapping_add(b));
        assert_eq!(super::map(&jobs, slow), jobs.iter().map(slow).collect::<Vec<_>>());
        assert_eq!(super::by_cost(&jobs, |&x| (x % 5) as f64, slow), jobs.iter().map(slow).collect::<Vec<_>>());
    }
}
