//! Networks (000 §2.1, §4; S-1, `--topology`): random polling keeps every
//! property and all of UTS T1's work on every topology, a message takes
//! its latency once per hop (`hop_latency`), the longer distances cost
//! time (000 §1.1's O(d·h) term), neighbourhood polling asks only network
//! neighbours, traces replay their topology, and bad input exits 2.

use serde_json::Value;

use super::{lbcheck, passing};

const UTS: &str = "uts:args=-t 0 -b 40 -q 0.2 -m 4 -r 1";
const TOPOLOGIES: [&str; 6] = ["crossbar", "hypercube", "mesh:2", "fat-tree", "butterfly", "ccc"];

/// The first check: UTS T1 on 1024 PEs, all its 4130071 nodes, on
/// every topology; T_par grows with the diameter (crossbar 1, hypercube 10,
/// fat tree 20, 2-D mesh 62 hops).
#[test]
fn random_polling_keeps_every_property_on_every_topology() {
    let mut t_par = std::collections::BTreeMap::new();
    for t in TOPOLOGIES {
        let json = passing(&["--workload", "uts:T1", "--pes", "1024", "--seed", "1", "--topology", t]);
        assert_eq!(json["nodes"], 4130071, "{t}");
        let hops = &json["properties"]["hop_latency"]["detail"];
        assert_eq!(hops.as_str().unwrap().starts_with("not applicable"), t == "crossbar", "{t}: {hops}");
        t_par.insert(t, json["t_par"].as_u64().unwrap());
    }
    assert!(t_par["crossbar"] < t_par["hypercube"] && t_par["hypercube"] < t_par["fat-tree"], "{t_par:?}");
    assert!(t_par["hypercube"] < t_par["mesh:2"], "{t_par:?}");
}

/// Neighbourhood polling asks only the nearest PEs: on a hypercube the D
/// partners; every property holds.
#[test]
fn neighbour_polling_asks_only_network_neighbours() {
    let trace = std::env::temp_dir().join(format!("lbcheck-neighbours-{}.jsonl", std::process::id()));
    let trace = trace.to_str().unwrap();
    for (t, pes) in [("hypercube", "16"), ("mesh:2", "16"), ("crossbar", "5")] {
        let args = ["--balancer", "neighbour-polling", "--workload", UTS, "--pes", pes, "--topology", t];
        passing(&[&args[..], &["--trace", trace]].concat());
        let text = std::fs::read_to_string(trace).unwrap();
        let requests =
            text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).filter(|e| e["kind"] == "request");
        for e in requests.filter(|e| e["ev"] == "send") {
            let (from, to) = (e["from"].as_u64().unwrap(), e["to"].as_u64().unwrap());
            let near = match t {
                "hypercube" => (from ^ to).is_power_of_two(),
                "mesh:2" => mesh_distance(from, to) == 1,
                _ => from != to,
            };
            assert!(near, "{t}: PE {from} asked PE {to}, not a neighbour");
        }
    }
    std::fs::remove_file(trace).unwrap();
}

/// Distance in the 4 × 4 mesh of 16 PEs (000 §4.1: bits 0, 2 → x; 1, 3 → y).
fn mesh_distance(a: u64, b: u64) -> u64 {
    let axis = |p: u64, j: u32| (p >> j & 1) | (p >> (j + 2) & 1) << 1;
    (0..2).map(|j| axis(a, j).abs_diff(axis(b, j))).sum()
}

/// A saved trace carries its topology: `check-trace` checks `hop_latency`
/// and its replay command names the topology.
#[test]
fn traces_replay_their_topology() {
    let trace = std::env::temp_dir().join(format!("lbcheck-topology-{}.jsonl", std::process::id()));
    let trace = trace.to_str().unwrap();
    let (code, _, err) =
        lbcheck(&["simulate", "--workload", UTS, "--pes", "8", "--topology", "fat-tree", "--trace", trace]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = lbcheck(&["check-trace", trace]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("hop_latency") && out.contains("on the fat-tree (diameter 6)"), "{out}");
    assert!(out.contains("--topology fat-tree"), "the replay names the topology:\n{out}");
    std::fs::remove_file(trace).unwrap();
}

/// The explorer takes every latency and order on a topology too.
#[test]
fn explore_runs_on_a_hypercube() {
    let (code, out, err) = lbcheck(&[
        "explore",
        "--pes",
        "4",
        "--seeds",
        "1",
        "--topology",
        "hypercube",
        "--workload",
        "synthetic:size=6,atomic=1",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("complete"), "{out}");
}

#[test]
fn bad_topologies_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["simulate", "--workload", UTS, "--topology", "torus"], "valid: crossbar"),
        (&["simulate", "--workload", UTS, "--topology", "mesh:0"], "1..=8"),
        (&["simulate", "--workload", UTS, "--topology", "hypercube", "--pes", "12"], "power of two"),
        (
            &[
                "simulate",
                "--workload",
                UTS,
                "--machine",
                "atomic",
                "--balancer",
                "random-destination",
                "--topology",
                "hypercube",
            ],
            "--topology is a parameter of 001's machine and 000's phased machine (--machine async, phased), not of 004's atomic machine",
        ),
        (&["simulate", "--workload", UTS, "--mutant", "hops-ignored"], "add --topology"),
    ];
    for (args, says) in cases {
        let (code, _, err) = lbcheck(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say `{says}`: {err}");
    }
}
