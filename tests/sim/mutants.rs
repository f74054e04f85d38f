//! Every mutant in the catalogue fails the property it is listed under, from
//! the CLI (exit 1, property named), on each of several seeds.

use lbcheck::mutants::{Checker, Entry, CATALOGUE};

use super::lbcheck;

/// The run each mutant is shown on.
fn args_for(detector: &str) -> Vec<String> {
    let detector = if detector == "any" { "energy" } else { detector };
    let words = ["simulate", "--workload", "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1", "--pes", "16", "--termination"];
    words.iter().map(|s| s.to_string()).chain([detector.to_string()]).collect()
}

/// The one-wave bug needs an unlucky interleaving (about 1 run in 50 under
/// random polling, see `one_wave_fails_on_some_seeds`): these runs have one.
const ONE_WAVE: &[&str] = &[
    "simulate",
    "--workload",
    "synthetic:size=3000,atomic=1,split=uniform",
    "--pes",
    "4",
    "--t-split",
    "40",
    "--termination",
    "four-counter",
];

/// Seeds of the runs each mutant is shown failing on.
fn seeds(name: &str) -> Vec<u64> {
    if name == "four-counter-one-wave" {
        vec![17, 90]
    } else {
        vec![1, 2, 3]
    }
}

/// The mutants shown failing an invariant (the others fail a claim of
/// `lbcheck bounds`, tested in `tests/bounds/`).
fn invariant_mutants() -> impl Iterator<Item = &'static Entry> {
    CATALOGUE.iter().filter(|e| e.checker() == Checker::Invariant)
}

#[test]
fn every_mutant_fails_its_property() {
    for e in invariant_mutants() {
        for seed in seeds(e.name) {
            let mut args = match e.name {
                "four-counter-one-wave" => ONE_WAVE.iter().map(|s| s.to_string()).collect(),
                _ => args_for(e.detector),
            };
            args.extend(["--mutant".into(), e.name.into(), "--seed".into(), seed.to_string()]);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, _, err) = lbcheck(&refs);
            assert_eq!(code, 1, "mutant {} (seed {seed}) passed; stderr:\n{err}", e.name);
            assert!(err.contains(&format!("FAILED {}", e.fails)), "mutant {} should fail {}:\n{err}", e.name, e.fails);
        }
    }
}

#[test]
fn the_same_runs_pass_without_a_mutant() {
    for e in invariant_mutants() {
        let mut args = args_for(e.detector);
        args.extend(["--seed".into(), "1".into()]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = lbcheck(&refs);
        assert_eq!(code, 0, "{out}{err}");
    }
}

#[test]
fn mutants_command_lists_the_catalogue() {
    let (code, out, _) = lbcheck(&["mutants", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let thread_mutants = lbcheck::runtime::mutants::THREAD_CATALOGUE.len();
    assert_eq!(v.as_array().unwrap().len(), CATALOGUE.len() + thread_mutants);
    assert!(v.as_array().unwrap().iter().any(|e| e["name"] == "lost-wakeup" && e["checker"] == "loom"));
    assert!(v.as_array().unwrap().iter().any(|e| e["name"] == "request-dropped" && e["checker"] == "simulate+loom"));
}

/// The catalogue's `loom` flags match the loom suite: a protocol mutant is
/// flagged exactly when `tests/loom_threads.rs` has a test expecting loom to
/// report it (that suite only builds under `--cfg loom`, so read its text).
#[test]
fn loom_flags_match_the_loom_suite() {
    let suite = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/loom_threads.rs")).unwrap();
    for e in CATALOGUE {
        let variant = format!("Mutant::{:?}", e.mutant);
        let caught =
            suite.contains(&format!("mutant: Some({variant})")) || suite.contains(&format!("Some({variant});"));
        assert_eq!(e.loom, caught, "{}: catalogue says loom = {}, tests/loom_threads.rs disagrees", e.name, e.loom);
    }
}

/// The one-wave mutant fails on some of 200 fixed seeds, and the reference
/// (two waves) passes on all of them.
#[test]
fn one_wave_fails_on_some_seeds() {
    use lbcheck::mutants::Mutant;
    use lbcheck::sim::scenario::DetectorKind;
    let mut failed = 0;
    for seed in 0..200 {
        let mut s = super::scenario("synthetic:size=3000,atomic=1,split=uniform", DetectorKind::FourCounter, 4, seed);
        s.sim.t_split = 40;
        super::assert_all_pass(&s);
        s.polling.mutant = Some(Mutant::FourCounterOneWave);
        let r = s.run(None).unwrap();
        failed += r.check.failures().iter().any(|(name, _)| *name == "no_early_termination") as u32;
    }
    assert!(failed >= 2, "the one-wave mutant failed on only {failed} of 200 seeds");
}
