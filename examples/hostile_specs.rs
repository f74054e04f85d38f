//! The commands of `scripts/hostile.sh`'s sweep: every catalogue mutant ×
//! `N` swarm runs of the `simulate` layer (the campaign's own generator,
//! `campaign::swarm`), a threaded run where the mutant acts on threads, and
//! the mutant's `explore` instance. One line per command:
//! `MUTANT<TAB>DRIVER<TAB>COMMAND` (COMMAND starts with `lbcheck`).
//!
//! ```text
//! cargo run --release --example hostile_specs -- 5 1   # N = 5 runs per mutant, seed 1
//! ```
//!
//! Each mutant's runs come from its own ChaCha stream of the seed: the
//! (balancer, detector) pairs it acts in, drawn, then one swarm run of
//! each drawn pair (the swarm draws the machine from the run's seed).

use lbcheck::base::rng::{derive_seed, stream, Purpose};
use lbcheck::base::Registered;
use lbcheck::campaign::{explore, swarm, Options};
use lbcheck::mutants::{Mutant, CATALOGUE};
use lbcheck::protocol::{BalancerKind, DetectorKind};
use rand::seq::IndexedRandom;
use rand::Rng;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("N and SEED are numbers")).collect();
    let (n, seed) = (args.first().copied().unwrap_or(5), args.get(1).copied().unwrap_or(1));
    for e in CATALOGUE {
        let m = e.mutant;
        let sim = pairs(m, false);
        let mut rng = stream(derive_seed(seed, &format!("hostile/{m}"), 0), 0, Purpose::Swarm);
        for _ in 0..if sim.is_empty() { 0 } else { n } {
            let (b, d) = *sim.choose(&mut rng).expect("a pair");
            let o = Options { seed: rng.random(), mutant: Some(m), ..Options::default() };
            let (_, spec) = swarm::swarm_specs(&o, &format!("{b}/{d}"), b, d).swap_remove(0);
            println!("{m}\tsimulate\t{}", spec.replay());
        }
        if let Some(&(b, d)) = pairs(m, true).choose(&mut rng) {
            let o = Options { seed: rng.random(), mutant: Some(m), ..Options::default() };
            if let Some((_, spec)) = swarm::thread_specs(&o, &format!("{b}/{d}"), b, d).first() {
                println!("{m}\trun\t{}", spec.replay());
            }
        }
        if let Some(&(b, d)) = sim.iter().find(|(b, _)| !b.phased()) {
            println!("{m}\texplore\t{}", explore::instance(b, d, Some(m)).1);
        }
    }
}

/// The (balancer, detector) pairs that ship and `m` acts in (on threads if `threaded`).
fn pairs(m: Mutant, threaded: bool) -> Vec<(BalancerKind, DetectorKind)> {
    let all = BalancerKind::ALL.iter().flat_map(|&b| DetectorKind::ALL.iter().map(move |&d| (b, d)));
    let shipping = all.filter(|(b, d)| b.phased() == d.phased());
    let on_threads = |b: &BalancerKind| !threaded || (!b.atomic() && !b.needs_model_time());
    shipping.filter(|(b, d)| on_threads(b) && m.not_applicable(*b, *d, threaded).is_none()).collect()
}
