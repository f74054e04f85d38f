//! The run specification is one serde type: flags → spec → trace header →
//! spec → replay command → spec is the identity (a proptest over random
//! valid specs), `--print-spec` / `--spec FILE` give the same run as the
//! flags, and bad specs are refused with exit 2.

use lbcheck::base::{Registered, Topology};
use lbcheck::event::{read_trace, write_event, Event};
use lbcheck::harness::replay::words;
use lbcheck::harness::{Driver, RunSpec};
use lbcheck::mutants::{Mutant, Site};
use lbcheck::problem::dfs::Strategy as Split;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::pacheco::{PachecoParams, Victim};
use lbcheck::protocol::poll_and_shuffle::{Adaptive, Method, PasParams, SyncMode, Trigger};
use lbcheck::protocol::random_polling::{Deactivation, QueueLimit, RandomPollingParams, Serve};
use lbcheck::protocol::{BalancerKind, BalancerSpec, BoundMode, DetectorKind};
use lbcheck::runtime::mpi::MpiConfig;
use lbcheck::runtime::threads::ThreadConfig;
use lbcheck::sim::atomic::{Arbiter, AtomicConfig};
use lbcheck::sim::{Schedule, Shape, SimConfig};
use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::lbcheck;

const WORKLOADS: &[&str] = &[
    "uts:default",
    "uts:args=-t 0 -b 30 -q 0.2 -m 4 -r 11",
    "synthetic:size=4096,atomic=2,split=uniform",
    "knapsack:items=20,seed=3",
    "loop:n=300,cost=heavy",
];

/// A random run specification drawn from `seed` (valid or not: the
/// caller keeps the valid ones).
fn random_spec(seed: u64) -> RunSpec {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let b = *BalancerKind::ALL.choose(&mut rng).unwrap();
    let driver = random_driver(&mut rng, b);
    let detector = match b.phased() {
        true => DetectorKind::Barrier,
        false => *DetectorKind::of_pes().collect::<Vec<_>>().choose(&mut rng).unwrap(),
    };
    let workload: lbcheck::problem::Workload = WORKLOADS.choose(&mut rng).unwrap().parse().unwrap();
    let bound = workload.prunes().then(|| *[BoundMode::Broadcast, BoundMode::FirstSolution].choose(&mut rng).unwrap());
    let mut spec = RunSpec { bound, ..RunSpec::new(workload, random_balancer(&mut rng, b), detector, driver) };
    spec.split = *[Split::BottomOne, Split::AllHalf, Split::Cutoff(3)].choose(&mut rng).unwrap();
    if rng.random_bool(0.4) {
        let m = *Mutant::ALL.choose(&mut rng).unwrap();
        spec = spec.with_mutant(Some(m));
        if let Driver::Threads(c) = &mut spec.driver {
            // As `lbcheck run` does: a threaded-driver mutant may deadlock, so
            // a run without --timeout gives up after 60 s (cli/run.rs).
            if m.entry().site == Site::ThreadedDriver && c.deadline.is_none() {
                c.deadline = Some(std::time::Duration::from_secs(60));
            }
        }
    }
    spec
}

fn random_balancer(rng: &mut ChaCha8Rng, b: BalancerKind) -> BalancerSpec {
    let mut spec = BalancerSpec::of(b);
    if let Some(p) = spec.polling_mut() {
        *p = RandomPollingParams {
            queue_limit: [None, Some(QueueLimit::Fixed(2)), Some(QueueLimit::Sqrt)].choose(rng).copied().flatten(),
            serve: [None, Some(Serve::All), Some(Serve::One)].choose(rng).copied().flatten(),
            slots: [None, Some(2)].choose(rng).copied().flatten(),
            deactivate: rng.random_bool(0.2).then_some(Deactivation { pe: 1, from: 5, to: 500 }),
        };
    }
    if let Some(p) = spec.pacheco_mut() {
        *p = PachecoParams {
            victim: [None, Some(Victim::LocalRr), Some(Victim::GlobalRr)].choose(rng).copied().flatten(),
        };
    }
    if let Some(p) = spec.pas_mut() {
        let adaptive = Adaptive { c: 8, ..Adaptive::PAPER };
        *p = PasParams {
            permutation: [None, Some(Method::Pseudo)].choose(rng).copied().flatten(),
            sync: [None, Some(SyncMode::Local)].choose(rng).copied().flatten(),
            trigger: [None, Some(Trigger::Adaptive(Adaptive::PAPER)), Some(Trigger::Adaptive(adaptive))]
                .choose(rng)
                .copied()
                .flatten(),
        };
    }
    spec
}

fn random_driver(rng: &mut ChaCha8Rng, b: BalancerKind) -> Driver {
    let (pes, seed) = (*[1u32, 2, 4, 7, 16].choose(rng).unwrap(), rng.random::<u64>());
    let initial_split = *[InitialSplit::Root, InitialSplit::Bfs, InitialSplit::Random(3)].choose(rng).unwrap();
    match rng.random_range(0..4) {
        _ if b.atomic() => {
            let arbiter = *Arbiter::ALL.choose(rng).unwrap();
            let complete = rng.random_bool(0.3);
            let max_steps = [AtomicConfig::default().max_steps, 12345].choose(rng).copied().unwrap();
            Driver::Atomic(AtomicConfig { pes, seed, complete, arbiter, max_steps, ..AtomicConfig::default() })
        }
        0 => {
            let deadline = rng.random_bool(0.5).then(|| std::time::Duration::from_secs(30));
            Driver::Threads(ThreadConfig { pes, seed, dt: 7, initial_split, deadline, ..ThreadConfig::default() })
        }
        1 => Driver::Mpi(MpiConfig { pes, seed, dt: 9, initial_split, ..MpiConfig::default() }),
        _ => Driver::Sim(random_sim(rng, pes, seed, initial_split)),
    }
}

fn random_sim(rng: &mut ChaCha8Rng, pes: u32, seed: u64, initial_split: InitialSplit) -> SimConfig {
    let plain = rng.random_bool(0.5); // the phased machine takes none of 001's extras
    let topology = *[Topology::Crossbar, Topology::Hypercube, Topology::Mesh { r: 2 }].choose(rng).unwrap();
    SimConfig {
        pes,
        seed,
        dt: rng.random_range(1..50),
        t_rout: rng.random_range(1..50),
        t_split: rng.random_range(0..9),
        o: if plain { 0 } else { 2 },
        latency: (!plain).then_some((1, 40)),
        shape: if plain { Shape::Uniform } else { Shape::Bimodal { permille: 25 } },
        schedule: if plain { Schedule::Plain } else { Schedule::SlowWork },
        fifo_links: !plain,
        topology,
        slow: (!plain).then_some((1, 3)),
        initial_split: if plain { InitialSplit::Root } else { initial_split },
        max_steps: *[SimConfig::default().max_steps, 777_777].choose(rng).unwrap(),
        max_time: *[None, Some(987_654_321)].choose(rng).unwrap(),
        horizon: *[0, 123_456].choose(rng).unwrap(),
        ..SimConfig::default()
    }
}

/// The spec `lbcheck ARGS --print-spec` prints.
fn printed_spec(args: &[String]) -> RunSpec {
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.push("--print-spec");
    let (code, out, err) = lbcheck(&args);
    assert_eq!(code, 0, "lbcheck {}: {err}", args.join(" "));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The spec through a trace header written and read back as a trace line.
fn through_header(spec: &RunSpec) -> RunSpec {
    let mut line = Vec::new();
    write_event(&mut line, &Event::Header(Box::new(spec.header()))).unwrap();
    let read = read_trace(&line[..]).unwrap();
    let Event::Header(h) = &read[0].1 else { panic!("a header") };
    RunSpec::from_header(h).unwrap().expect("lbcheck's header has its spec")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// flags → spec → header → spec → replay command → spec is the identity.
    #[test]
    fn spec_header_replay_round_trip(spec in any::<u64>().prop_map(random_spec).prop_filter("valid", |s| s.validate().is_ok())) {
        let json = serde_json::to_string(&spec).unwrap();
        prop_assert_eq!(&serde_json::from_str::<RunSpec>(&json).unwrap(), &spec);
        let from_header = through_header(&spec);
        prop_assert_eq!(&from_header, &spec);
        let replay = from_header.replay();
        if let Some(cmd) = replay.strip_prefix("lbcheck ") {
            prop_assert_eq!(printed_spec(&words(cmd)), spec);
        } else {
            // mpirun -np P lbcheck mpi FLAGS: the binary needs MPI; its flags are a simulate-like line
            prop_assert!(replay.starts_with("mpirun --oversubscribe -np "), "{}", replay);
        }
    }
}

/// The commands: `--print-spec` then `--spec` gives the same event
/// stream as the flags, and the trace's header parses back into the spec.
#[test]
fn print_spec_then_spec_gives_the_same_stream() {
    let dir = std::env::temp_dir();
    let path = |name: &str| dir.join(format!("lbcheck-spec-{}-{name}", std::process::id())).display().to_string();
    let (s_json, t_flags, t_spec) = (path("s.json"), path("flags.jsonl"), path("spec.jsonl"));
    let flags = ["simulate", "--workload", "uts:default", "--pes", "16", "--seed", "3"];
    let (code, out, err) = lbcheck(&[&flags[..], &["--print-spec"]].concat());
    assert_eq!(code, 0, "{err}");
    std::fs::write(&s_json, &out).unwrap();
    assert_eq!(lbcheck(&[&flags[..], &["--trace", &t_flags]].concat()).0, 0);
    let (code, _, err) = lbcheck(&["simulate", "--spec", &s_json, "--trace", &t_spec]);
    assert_eq!(code, 0, "{err}");
    let (a, b) = (std::fs::read(&t_flags).unwrap(), std::fs::read(&t_spec).unwrap());
    assert!(a.len() > 1000);
    assert_eq!(a, b, "the same run from flags and from --spec");
    let spec: RunSpec = serde_json::from_str(&out).unwrap();
    let events = read_trace(&a[..]).unwrap();
    let Event::Header(h) = &events[0].1 else { panic!("a header") };
    assert_eq!(RunSpec::from_header(h).unwrap(), Some(spec));
}

/// A spec file that is not a run, or a run of another driver, or given
/// with the flags it replaces, exits 2 saying why.
#[test]
fn bad_specs_exit_2() {
    let dir = std::env::temp_dir();
    let file = |name: &str, text: &str| {
        let p = dir.join(format!("lbcheck-badspec-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let (_, good, _) = lbcheck(&["run", "--workload", "uts:default", "--print-spec"]);
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--spec".into(), file("nope.json", "{")], "is not a run specification"),
        (vec!["--spec".into(), file("unknown.json", &good.replace("\"split\"", "\"spilt\""))], "unknown field"),
        (vec!["--spec".into(), file("threads.json", &good)], "run it with `lbcheck run`"),
        (vec!["--spec".into(), file("t.json", &good), "--pes".into(), "3".into()], "cannot be used with"),
        (vec!["--spec".into(), file("w.json", &good), "--workload".into(), "uts:T1".into()], "cannot be used with"),
        (vec!["--spec".into(), "/nonexistent/s.json".into()], "cannot read --spec"),
    ];
    for (extra, says) in cases {
        let args: Vec<&str> = std::iter::once("simulate").chain(extra.iter().map(String::as_str)).collect();
        let (code, _, err) = lbcheck(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let invalid = good.replace("\"threads\": 2", "\"threads\": 0");
    let (code, _, err) = lbcheck(&["run", "--spec", &file("zero.json", &invalid)]);
    assert_eq!((code, err.contains("--threads = 0 is out of range")), (2, true), "{err}");
}

/// Every run a mutant is shown on (`campaign::demos`, the `mutants` layer's
/// and the campaign's runs) is a valid run in which the mutant acts:
/// `RunSpec::with_mutant` gave it what the mutant needs (global round
/// robin for Pacheco's `grr-*`, two slots, a deactivated worker, …), which
/// the CLI instead asks for by flag.
#[test]
fn a_mutants_demo_runs_have_what_it_needs() {
    use lbcheck::campaign::demos;
    use lbcheck::mutants::{Catcher, CATALOGUE};
    for e in CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Run)) {
        for spec in demos::of(e.mutant) {
            let name = e.info.name;
            assert_eq!(spec.validate().map_err(|err| err.to_string()), Ok(()), "mutant {name}");
            for &need in e.needs {
                assert!(spec.holds(need), "mutant {name}'s demo lacks {need:?}");
            }
        }
    }
}
