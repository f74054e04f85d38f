//! Message lengths and routing (000 §6.1, `--routing`, `--msg-len`): every
//! property holds under both routings, a work message's `send` states its
//! length, the transfer times are those of the routing (exactly: the
//! bounds claim `routing_time`, failed by `routing-additive`), the
//! request cost of 001 Lemma 1.1 (`request_cost`, failed by
//! `split-probe`), and bad input exits 2.

use lbcheck::bounds::plan::Profile;
use lbcheck::bounds::{request_cost, routing};
use lbcheck::mutants::Mutant;

use super::{lbcheck, passing};

const UTS: &str = "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1";

/// Both routings keep every property; lengths are stated on work
/// messages only and vary with a UTS stack; longer transfers cost time.
#[test]
fn routed_runs_pass_and_state_their_lengths() {
    let trace = std::env::temp_dir().join(format!("lbcheck-routing-{}.jsonl", std::process::id()));
    let trace = trace.to_str().unwrap();
    let mut t_par = Vec::new();
    for routing in [None, Some("cut-through"), Some("packet")] {
        let mut args = vec!["--workload", UTS, "--pes", "16", "--seed", "1", "--topology", "mesh:2", "--trace", trace];
        args.extend(routing.map(|r| ["--routing", r, "--msg-len", "4"]).into_iter().flatten());
        t_par.push(passing(&args)["t_par"].as_u64().unwrap());
        let text = std::fs::read_to_string(trace).unwrap();
        let sends: Vec<serde_json::Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
        let lens: Vec<u64> = sends.iter().filter_map(|e| e["data"]["len"].as_u64()).collect();
        let works = sends.iter().filter(|e| e["ev"] == "send" && e["kind"] == "work").count();
        assert_eq!(lens.len(), if routing.is_some() { works } else { 0 }, "{routing:?}");
        if routing.is_some() {
            assert!(lens.iter().min() < lens.iter().max(), "UTS stacks vary in length: {lens:?}");
        }
    }
    std::fs::remove_file(trace).ok();
    assert!(t_par[0] < t_par[1] && t_par[1] < t_par[2], "longer transfers cost time: {t_par:?}");
}

#[test]
fn bad_routing_flags_exit_2() {
    let cases: [(&[&str], &str); 3] = [
        (&["--routing", "foo"], "packet or cut-through"),
        (&["--routing", "packet", "--msg-len", "0"], "--msg-len = 0 is out of range"),
        (&["--msg-len", "8"], "--routing"),
    ];
    for (flags, says) in cases {
        let (code, _, err) = lbcheck(&[&["simulate", "--workload", UTS][..], flags].concat());
        assert_eq!(code, 2, "{flags:?}: {err}");
        assert!(err.contains(says), "{flags:?} should say {says}: {err}");
    }
}

/// The claims pass on the reference and fail on their mutants (the
/// claims' own runs, as `lbcheck bounds` makes them; P ≤ 16).
#[test]
fn the_routing_and_request_cost_claims_fail_their_mutants() {
    assert!(routing::run_claim(16, 1, None).passed());
    let additive = routing::run_claim(16, 1, Some(Mutant::RoutingAdditive));
    assert!(additive.failed(), "{}", additive.measured);
    assert!(request_cost::run_claim(Profile::Quick, 16, 1, None).passed());
    let probe = request_cost::run_claim(Profile::Quick, 16, 1, Some(Mutant::SplitProbe));
    assert!(probe.failed() && probe.measured.starts_with("max 16 "), "{}", probe.measured);
}
