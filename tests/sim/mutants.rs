//! Every mutant that a single checked run catches fails the property it is
//! listed under, from the CLI (exit 1, property named), on each of several
//! seeds; mutants are refused where they would have no effect, and a run
//! that cannot catch its mutant says so.

use lbcheck::base::Registered;
use lbcheck::mutants::{Catcher, Entry, Mutant, Site, CATALOGUE};
use lbcheck::protocol::BalancerKind;

use super::lbcheck;

/// The detector a mutant is shown with: the first it acts in, the phased
/// machine's barrier for poll-and-shuffle, else energy.
fn detector(e: &Entry) -> &'static str {
    match e.site {
        Site::Detectors(ds) => ds[0].name(),
        Site::Balancer(b) if b.phased() => "barrier",
        _ => "energy",
    }
}

const UTS: &str = "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1";

/// The run each mutant is shown on: random polling (or Pacheco's search,
/// global round robin for its mutants of it) on 001's machine, or
/// 004's atomic machine (random destinations, or branch-and-bound on a cost
/// tree) for the mutants of that model.
fn args_for(e: &Entry) -> Vec<String> {
    let atomic =
        |balancer, workload| ["simulate", "--machine", "atomic", "--balancer", balancer, "--workload", workload];
    let words: Vec<&str> = match e.site {
        Site::Balancer(BalancerKind::PriorityBnb) => atomic("priority-bnb", "kz:depth=10").to_vec(),
        Site::AtomicMachine | Site::Balancer(BalancerKind::RandomDestination) => {
            atomic("random-destination", "synthetic:size=4096").to_vec()
        }
        // Requests queue up at a busy PE, and PEs work long, on a large tree.
        _ if matches!(e.mutant, Mutant::ServiceOne | Mutant::GrrBusyDrops) => {
            vec!["simulate", "--balancer", "pacheco", "--workload", "synthetic:size=100000,split=uniform"]
        }
        _ if e.mutant == Mutant::RequestsUnread => {
            vec!["simulate", "--workload", "synthetic:size=100000,split=uniform"]
        }
        Site::Balancer(BalancerKind::Pacheco) => vec!["simulate", "--balancer", "pacheco", "--workload", UTS],
        Site::Balancer(BalancerKind::PollAndShuffle) => {
            let w = "synthetic:size=100000,split=uniform";
            vec!["simulate", "--balancer", "poll-and-shuffle", "--topology", "hypercube", "--workload", w]
        }
        Site::Balancer(BalancerKind::SimdPhase) => {
            vec!["simulate", "--balancer", "simd-phase", "--workload", "synthetic:size=100000,split=uniform"]
        }
        // Many requests meet at a busy PE only on a larger machine.
        Site::Balancer(BalancerKind::SyncRandomPolling) => {
            let w = "synthetic:size=200000,split=uniform";
            vec!["simulate", "--balancer", "sync-random-polling", "--workload", w, "--pes", "64"]
        }
        _ if e.mutant == Mutant::SplitDeepestSlot => {
            vec!["simulate", "--workload", "synthetic:size=100000,split=balanced", "--slots", "2"]
        }
        _ if e.mutant == Mutant::InactiveSilent => vec!["simulate", "--workload", UTS, "--deactivate", "1:0..100000"],
        // A busy PE asks, and gets work, often enough only on a larger tree.
        _ if e.mutant == Mutant::SlotOverwrite => vec!["simulate", "--workload", "uts:default", "--slots", "2"],
        // The last IDA* iteration: much work is left after the first solution.
        _ if e.mutant == Mutant::StopNotForwarded => {
            vec!["simulate", "--workload", "puzzle15:moves=40,seed=1", "--bound", "first-solution"]
        }
        _ if e.mutant == Mutant::PruneOffByOne => vec!["simulate", "--workload", "tsp:cities=12,seed=1"],
        _ if e.mutant == Mutant::HopsIgnored => vec!["simulate", "--workload", UTS, "--topology", "hypercube"],
        Site::BoundPropagation => vec!["simulate", "--workload", "knapsack:items=40,seed=1"],
        // 003 §14.7.4's Scatter divides energy by p = 3: not a float.
        _ if e.mutant == Mutant::EnergyFloat => {
            vec!["simulate", "--balancer", "pacheco", "--workload", UTS, "--pes", "3"]
        }
        _ => vec!["simulate", "--workload", UTS],
    };
    let victim = matches!(e.mutant, Mutant::GrrNoIncrement | Mutant::GrrBusyDrops).then_some(["--victim", "global-rr"]);
    let local = matches!(e.mutant, Mutant::NoPhaseWait | Mutant::WaitWrongDimension);
    let sync = local.then_some(["--sync", "local"]);
    let pes = (!words.contains(&"--pes")).then_some(["--pes", "16"]);
    let rest = [["--termination", detector(e)]].into_iter().chain(pes);
    let extra = victim.into_iter().chain(sync).flatten();
    words.into_iter().chain(rest.flatten()).chain(extra).map(str::to_string).collect()
}

/// The mutants a single checked run catches (the others are shown in
/// `tests/bounds/` and `tests/loom_threads.rs`).
fn run_mutants() -> impl Iterator<Item = &'static Entry> {
    CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Run))
}

#[test]
fn every_mutant_fails_its_property() {
    for e in run_mutants() {
        for seed in [1, 2, 3] {
            let mut args = args_for(e);
            args.extend(["--mutant".into(), e.info.name.into(), "--seed".into(), seed.to_string()]);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = lbcheck(&refs);
            let name = e.info.name;
            assert_eq!(code, 1, "mutant {name} (seed {seed}) passed; stderr:\n{err}");
            let fails = e.fails_under(Catcher::Run).unwrap();
            assert!(err.contains(&format!("FAILED {fails}")), "mutant {name} should fail {fails}:\n{err}");
        }
    }
}

#[test]
fn the_same_runs_pass_without_a_mutant() {
    for e in run_mutants() {
        let mut args = args_for(e);
        args.extend(["--seed".into(), "1".into()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = lbcheck(&refs);
        assert_eq!(code, 0, "{out}{err}");
    }
}

/// A mutant that is correct but wasteful (`split-deepest-slot`, 002 §3): every
/// property passes on every run (`optimum_found` is not fooled), and
/// `lbcheck compare` finds its runs worse than the reference's in the
/// quantity it is listed under.
#[test]
fn wasteful_mutants_pass_every_property_and_compare_worse() {
    for e in CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Compare)) {
        let dir = std::env::temp_dir().join(format!("lbcheck-compare-{}-{}", e.info.name, std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut traces = vec![];
        for seed in 1..=20 {
            let trace = dir.join(format!("{seed}.jsonl")).to_string_lossy().into_owned();
            let mut args = args_for(e);
            args.extend(["--mutant", e.info.name, "--seed", &seed.to_string(), "--trace", &trace].map(String::from));
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, out, err) = lbcheck(&refs);
            assert_eq!(code, 0, "{} seed {seed} must pass every property:\n{out}{err}", e.info.name);
            traces.push(trace);
        }
        let mut args = vec!["compare".to_string()];
        args.extend(traces);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = lbcheck(&refs);
        let quantity = e.fails_under(Catcher::Compare).unwrap();
        assert_eq!(code, 1, "{}: compare should find it worse:\n{out}{err}", e.info.name);
        assert!(out.contains(&format!("({quantity}:")), "{}: worse in {quantity}:\n{out}", e.info.name);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A mutant where it has no effect exits 2 and says where it acts.
#[test]
fn inapplicable_mutants_are_refused() {
    let sim = ["simulate", "--workload", "uts:default", "--pes", "4"];
    let cases: &[(&[&str], &str)] = &[
        (&["--mutant", "energy-not-split", "--termination", "four-counter"], "--termination energy or energy-tree"),
        (&["--mutant", "four-counter-one-wave", "--termination", "energy"], "--termination four-counter"),
        (&["--mutant", "lost-wakeup"], "lbcheck run"),
        (&["--mutant", "formula-no-square"], "lbcheck bounds"),
        (&["--mutant", "two-receives"], "--machine atomic"),
        (&["--mutant", "expand-twice"], "random-destination balancer"),
        (&["--mutant", "prune-unachieved"], "pruning workload"),
    ];
    for (extra, says) in cases {
        let (code, _, err) = lbcheck(&[&sim[..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(says) && err.contains("no effect"), "{extra:?}: {err}");
    }
    let (code, _, err) = lbcheck(&["bounds", "--quick", "--mutant", "lost-wakeup"]);
    assert_eq!(code, 2, "{err}");
}

/// A run that cannot catch its mutant says which checker does.
#[test]
fn runs_that_cannot_catch_the_mutant_say_so() {
    let (code, _, err) =
        lbcheck(&["simulate", "--workload", "uts:default", "--mutant", "poll-neighbour", "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("note: mutant `poll-neighbour` is caught by bounds (`t_par`)"), "{err}");
    // On real threads the lost wakeup's window is rarely hit: the exit code is not the point.
    let args = ["run", "--workload", "uts:default", "--mutant", "lost-wakeup", "--check", "--timeout", "30"];
    let (_, _, err) = lbcheck(&args);
    assert!(err.contains("note: mutant `lost-wakeup` is caught by loom"), "{err}");
}

#[test]
fn mutants_command_lists_the_catalogue() {
    let (code, out, _) = lbcheck(&["mutants", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), CATALOGUE.len());
    assert!(v.as_array().unwrap().iter().any(|e| e["name"] == "lost-wakeup" && e["checker"] == "loom"));
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["name"] == "request-dropped" && e["checker"] == "simulate+loom+explore"));
}

/// The catalogue's loom entries match the loom suite: a mutant lists loom
/// exactly when the suite ([`lbcheck::loom::tests`], run by
/// `tests/loom_threads.rs`) has a test `NAME_is_caught` (the name the
/// campaign's adequacy cell runs) expecting loom to report what the
/// catalogue lists.
#[test]
fn loom_entries_match_the_loom_suite() {
    let suite = lbcheck::loom::tests(&lbcheck::loom::Profile::QUICK);
    for e in CATALOGUE {
        let test = lbcheck::loom::caught_name(e.mutant);
        let caught = suite.iter().filter(|t| t.name.ends_with(&test)).collect::<Vec<_>>();
        let listed = e.caught_by(Catcher::Loom);
        assert_eq!(
            listed,
            !caught.is_empty(),
            "{}: catalogue says loom = {listed}, the loom suite disagrees",
            e.info.name
        );
        assert!(caught.iter().all(|t| t.case.mutant == Some(e.mutant)), "{}: {caught:?}", e.info.name);
    }
}

/// The one-wave mutant fails on some of 200 fixed seeds, and the reference
/// (two waves) passes on all of them.
#[test]
fn one_wave_fails_on_some_seeds() {
    use lbcheck::protocol::DetectorKind;
    let mut failed = 0;
    for seed in 0..200 {
        let mut s = super::scenario("synthetic:size=3000,atomic=1,split=uniform", DetectorKind::FourCounter, 4, seed);
        super::sim(&mut s).t_split = 40;
        super::assert_all_pass(&s);
        s.mutant = Some(Mutant::FourCounterOneWave);
        let r = s.run(None).unwrap();
        failed += r.check.failures().iter().any(|(name, _)| *name == "no_early_termination") as u32;
    }
    assert!(failed >= 2, "the one-wave mutant failed on only {failed} of 200 seeds");
}

/// Swarm schedules (`simulate --swarm`: Δt, latencies, T_split, slow PEs
/// and initial split drawn from the seed), with the detector chosen by the
/// mutant: `four-counter-one-wave` fails on every seed tried, and the
/// reference passes on the same schedules.
#[test]
fn one_wave_is_caught_under_swarm_schedules() {
    for seed in 1..=20 {
        let seed = seed.to_string();
        let base = ["simulate", "--workload", "uts:default", "--pes", "16", "--seed", &seed, "--swarm"];
        let (code, _, err) = lbcheck(&[&base[..], &["--mutant", "four-counter-one-wave"]].concat());
        assert_eq!(code, 1, "seed {seed}: {err}");
        assert!(err.contains("FAILED detector_conformance") && err.contains("--termination four-counter"), "{err}");
        let (code, out, err) = lbcheck(&[&base[..], &["--termination", "four-counter"]].concat());
        assert_eq!(code, 0, "seed {seed}: {out}{err}");
    }
}

/// The mutants that pause in model time are refused on real threads.
#[test]
fn pausing_mutants_are_refused_on_threads() {
    for m in ["wave-pause", "energy-tree-busy-forward-late"] {
        let (code, _, err) = lbcheck(&["run", "--workload", "uts:default", "--mutant", m, "--check"]);
        assert_eq!(code, 2, "{m}: {err}");
        assert!(err.contains("pauses in model time"), "{err}");
    }
}
