//! 000 §1.2's randomised initialisation (COVERAGE S-24, 000-10;
//! `--initial-split random:K`): every PE splits the root into K·P pieces by
//! one random split sequence of the run's seed and keeps those with index
//! ≡ its rank (mod P). The pieces partition the root (`work_conserved` on
//! every run), their energies sum to one (`energy_conserved`), the run is
//! determined by its seed, its trace header replays it, and bad values
//! exit 2. The partition itself (every PE computes the same one) is
//! tested in `src/protocol/initial.rs`.

use lbcheck::event::{read_trace, Event};
use lbcheck::harness::RunSpec;
use lbcheck::mutants::Mutant;
use lbcheck::protocol::initial::InitialSplit;
use lbcheck::protocol::BalancerKind;

use super::{assert_all_pass, lbcheck, scenario, sim, DETECTORS};

const WORKLOADS: [&str; 3] = [
    "synthetic:size=20000,atomic=1,split=uniform",
    "synthetic:size=3000,atomic=4,split=alpha:0.3",
    "loop:n=500,cost=heavy",
];

fn random(workload: &str, d: lbcheck::protocol::DetectorKind, pes: u32, k: u32, seed: u64) -> RunSpec {
    let mut s = scenario(workload, d, pes, seed);
    sim(&mut s).initial_split = InitialSplit::Random(k);
    s
}

/// P = 3, 5, 7, K = 1, 4, 16, every detector, one and two slots: every
/// property holds (work_conserved: the pieces partition the root;
/// energy_conserved: their shares sum to one).
#[test]
fn random_initialisation_passes_every_property() {
    for (i, w) in WORKLOADS.iter().enumerate() {
        for d in DETECTORS {
            for (pes, k) in [(3, 1), (5, 4), (7, 16)] {
                for slots in [1, 2] {
                    let mut s = random(w, d, pes, k, 10 * i as u64 + u64::from(pes));
                    s.balancer.polling_mut().unwrap().slots = Some(slots);
                    assert_all_pass(&s);
                }
            }
        }
    }
}

/// A balancer that keeps `Balancer::resume`'s default (synchronous random
/// polling, 001 §1.3) takes its next piece when its subproblem runs out:
/// every property holds (`work_conserved`: no piece is dropped). Kills
/// cargo-mutants' `resume` default → `()` (every piece after the first
/// lost; random polling, which overrides it, was the only balancer run
/// with `random:K`).
#[test]
fn a_balancer_with_the_default_resume_takes_its_next_pieces() {
    for (i, w) in WORKLOADS.iter().enumerate() {
        for d in DETECTORS {
            let mut s = random(w, d, 5, 4, 10 * i as u64 + 5);
            s.balancer = BalancerKind::SyncRandomPolling.into();
            assert_all_pass(&s);
        }
    }
}

/// Every PE starts busy when the root splits into at least P pieces, and
/// the K·P pieces' shares held at t = 0 add up to exactly one.
#[test]
fn every_pe_starts_with_its_pieces() {
    let s = random(WORKLOADS[0], DETECTORS[0], 7, 4, 1);
    let (mut busy, mut held) = (vec![false; 7], lbcheck::base::Fraction::zero());
    s.run_observed(None, &mut |e| match e {
        Event::Busy { t: 0, pe } => busy[*pe as usize] = true,
        Event::Energy { t: 0, held: h, .. } => held = &held + h,
        _ => {}
    })
    .unwrap();
    assert!(busy.iter().all(|&b| b), "{busy:?}");
    assert!(held.is_one(), "{held}");
}

/// Same seed ⇒ same event stream; another seed ⇒ another partition.
#[test]
fn the_seed_determines_the_run() {
    let events = |seed| {
        let mut out = Vec::new();
        random(WORKLOADS[0], DETECTORS[2], 5, 8, seed).run_observed(None, &mut |e| out.push(e.clone())).unwrap();
        out
    };
    assert_eq!(events(3), events(3));
    assert_ne!(events(3), events(4));
}

/// The header records K (`run.initial_random`) and turns back into the run.
#[test]
fn the_trace_header_replays_the_run() {
    let s = random(WORKLOADS[1], DETECTORS[1], 5, 3, 9);
    let mut buf = Vec::new();
    s.run(Some(&mut buf)).unwrap();
    let Event::Header(h) = &read_trace(&buf[..]).unwrap()[0].1 else { panic!("a header first") };
    assert_eq!(h.spec.as_ref().unwrap()["driver"]["initial_split"], "random:3");
    let back = RunSpec::from_header(h).unwrap().expect("lbcheck's header");
    assert_eq!(back.replay(), s.replay());
    assert!(s.replay().contains("--initial-split random:3"), "{}", s.replay());
    let path = std::env::temp_dir().join(format!("lbcheck-initial-random-{}.jsonl", std::process::id()));
    std::fs::write(&path, &buf).unwrap();
    let (code, out, err) = lbcheck(&["check-trace", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("--initial-split random:3"), "check-trace prints the replay: {out}");
}

/// The pieces are real parts of the tree: a server that keeps what it
/// sends (`split-duplicates`) fails `work_conserved` with the randomised
/// start too.
#[test]
fn split_duplicates_fails_work_conserved() {
    let s = random(WORKLOADS[0], DETECTORS[0], 5, 4, 2);
    let s = s.with_mutant(Some(Mutant::SplitDuplicates));
    let r = s.run(None).unwrap();
    let failed: Vec<_> = r.check.failures().into_iter().map(|(n, _)| n).collect();
    assert!(failed.contains(&"work_conserved"), "{failed:?}");
}

/// `random:0`, `random:x`, `random:65`, `foo` exit 2 naming the valid
/// forms; the bare flag and `bfs` are 002 §3's split; explore refuses it.
#[test]
fn bad_values_exit_2() {
    let run = |mode: &str| {
        let w = "synthetic:size=500,atomic=1";
        lbcheck(&["simulate", "--workload", w, "--pes", "5", "--initial-split", mode])
    };
    for bad in ["random:0", "random:x", "random:65", "foo"] {
        let (code, _, err) = run(bad);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("random:K") && err.contains("1..=64"), "{bad}: {err}");
    }
    let (code, out, err) = run("bfs");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("--initial-split") && !out.contains("random:"), "{out}");
    let w = "synthetic:size=500,atomic=1";
    let (code, _, err) = lbcheck(&["simulate", "--workload", w, "--initial-split", "--pes", "5"]);
    assert_eq!(code, 0, "the bare flag before another: {err}");
    let (code, _, err) = lbcheck(&["simulate", "--workload", w, "--pes", "1048576", "--initial-split", "random:64"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2^24"), "{err}");
    let (code, _, err) = lbcheck(&["explore", "--workload", w, "--pes", "2", "--initial-split", "random:2"]);
    assert_eq!(code, 2, "{err}");
}
