//! Branch-and-bound in the asynchronous model (issue 14, S-12): Pacheco's
//! search and random polling find the sequential optimum of knapsack, TSP
//! and Golomb instances under every bound propagation, prune only with
//! bounds some PE achieved, and report both optima; the propagation's
//! traffic is the papers'; bad input exits 2.

use serde_json::Value;

use super::lbcheck;

fn simulate(args: &[&str]) -> Value {
    let mut all = vec!["simulate", "--json"];
    all.extend(args);
    let (code, out, err) = lbcheck(&all);
    assert_eq!(code, 0, "{args:?}:\n{out}{err}");
    serde_json::from_str(&out).unwrap()
}

/// Every property passes, and the two of branch-and-bound apply.
fn assert_found(v: &Value) {
    for (name, p) in v["properties"].as_object().unwrap() {
        assert_eq!(p["pass"], true, "{name}: {}", p["detail"]);
    }
    for name in ["optimum_found", "prune_sound"] {
        let detail = v["properties"][name]["detail"].as_str().unwrap();
        assert!(!detail.starts_with("not applicable"), "{name}: {detail}");
    }
    assert_eq!(v["optimum"], v["sequential_optimum"], "{}", v["replay"]);
}

/// The instances: Pacheco's search on 16 PEs, bounds up the tree.
#[test]
fn pacheco_finds_every_applications_optimum() {
    for (w, objective) in [
        ("knapsack:items=40,seed=1", "max"),
        ("tsp:cities=12,seed=1", "min"),
        ("golomb:marks=8", "min"),
        ("puzzle15:moves=40,seed=1", "min"),
    ] {
        let v = simulate(&["--balancer", "pacheco", "--workload", w, "--pes", "16", "--bound", "reduce-tree"]);
        assert_found(&v);
        assert_eq!(v["objective"], objective);
        if w.starts_with("golomb") {
            assert_eq!(v["optimum"], 34, "002 §5.1: 8 marks need length 34");
        }
    }
}

/// IDA* (002 §5.3): every iteration but the last is an order-independent
/// tree, so a run does exactly the sequential iteration's nodes
/// (`work_conserved`, fingerprint and all); the last finds the optimum, the
/// cost limit that `lbcheck tree` reports last.
#[test]
fn every_ida_iteration_is_checked() {
    let (code, out, err) = lbcheck(&["tree", "puzzle15:moves=40,seed=2", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let tree: Value = serde_json::from_str(&out).unwrap();
    let limits = tree["iteration_limits"].as_array().unwrap();
    assert_eq!(tree["optimum"], limits[limits.len() - 1], "{tree}");
    for i in 0..limits.len() {
        let w = format!("puzzle15:moves=40,seed=2,iteration={i}");
        let v = simulate(&["--balancer", "random-polling", "--workload", &w, "--pes", "8", "--seed", "3"]);
        if i + 1 < limits.len() {
            let wc = &v["properties"]["work_conserved"];
            assert_eq!(wc["pass"], true, "{w}: {wc}");
            assert!(!wc["detail"].as_str().unwrap().starts_with("not applicable"), "{w}: {wc}");
            assert_eq!(v["optimum"], Value::Null, "{w}");
            assert_eq!(v["nodes"], tree["iteration_nodes"][i], "{w}");
        } else {
            assert_found(&v);
            assert_eq!(v["optimum"], tree["optimum"]);
        }
    }
}

/// First-solution mode (002 §4.5): the stop reaches every PE within
/// 2·D·L (`stop_delay` applies and passes); an IDA* iteration's first
/// solution is the optimum; a knapsack's first solution is a solution.
#[test]
fn first_solution_mode_stops_every_pe() {
    for (balancer, w, pes) in [
        ("pacheco", "puzzle15:moves=40,seed=1", "16"),
        ("random-polling", "puzzle15:moves=40,seed=2", "7"),
        ("random-polling", "knapsack:items=40,seed=1", "16"),
    ] {
        let v = simulate(&["--balancer", balancer, "--workload", w, "--pes", pes, "--bound", "first-solution"]);
        for (name, p) in v["properties"].as_object().unwrap() {
            assert_eq!(p["pass"], true, "{w} {name}: {}", p["detail"]);
        }
        let stop = v["properties"]["stop_delay"]["detail"].as_str().unwrap();
        assert!(stop.starts_with("every PE heard of the stop"), "{w}: {stop}");
        assert!(v["messages"]["stop"].as_u64().unwrap() >= pes.parse::<u64>().unwrap() - 1, "{w}: {}", v["messages"]);
        if w.starts_with("puzzle15") {
            assert_eq!(v["optimum"], v["sequential_optimum"], "{w}");
        }
        let (full, first) = (v["t_seq"].as_u64().unwrap(), v["nodes"].as_u64().unwrap());
        assert!(first < full, "{w}: the search stopped early: {first} nodes vs {full}");
    }
}

/// Two slots (002 §3): a solution found in a slot that the slice
/// exhausted still stops the search (the swarm found it forgotten once:
/// the PE searched on, and `stop_delay` failed).
#[test]
fn a_solution_in_an_emptied_slot_still_stops_the_search() {
    let mut args = vec!["--workload", "puzzle15:moves=27,seed=287,iteration=3", "--pes", "4", "--slots", "2"];
    args.extend(["--termination", "four-counter", "--seed", "10663237503401698810", "--dt", "40", "--t-rout", "5"]);
    args.extend(["--t-poll", "1", "--latency", "2..5", "--latency-shape", "bimodal:0.1", "--schedule", "slow-control"]);
    args.extend(["--fifo-links", "--bound", "first-solution"]);
    let v = simulate(&args);
    for (name, p) in v["properties"].as_object().unwrap() {
        assert_eq!(p["pass"], true, "{name}: {}", p["detail"]);
    }
    assert!(v["messages"]["stop"].as_u64().unwrap() > 0);
}

/// Every balancer, bound propagation, detector and seed on small machines.
#[test]
fn every_propagation_finds_the_optimum() {
    for (balancer, extra) in [("pacheco", None), ("random-polling", None), ("random-polling", Some("--slots=2"))] {
        for (bound, detector) in [("reduce-tree", "energy"), ("broadcast", "four-counter"), ("none", "energy-tree")] {
            for (w, pes, seed) in [
                ("golomb:marks=6", "5", "1"),
                ("tsp:cities=9,seed=2", "7", "2"),
                ("knapsack:items=30,seed=3", "3", "3"),
            ] {
                let mut args = vec!["--balancer", balancer, "--bound", bound, "--termination", detector];
                args.extend(["--workload", w, "--pes", pes, "--seed", seed]);
                args.extend(extra);
                assert_found(&simulate(&args));
            }
        }
    }
}

/// 003 §14.7.1: the finder sends each better bound to all P − 1 others;
/// 002 §4.5: up the tree, then down, suboptimal bounds dying early.
#[test]
fn propagation_traffic_is_the_papers() {
    let run = |bound| {
        let v = simulate(&["--workload", "tsp:cities=11,seed=4", "--pes", "16", "--bound", bound, "--seed", "2"]);
        assert_found(&v);
        (v["messages"]["bound"].as_u64().unwrap(), v["nodes"].as_u64().unwrap())
    };
    let ((broadcast, _), (tree, _), (none, alone)) = (run("broadcast"), run("reduce-tree"), run("none"));
    assert!(broadcast > 0 && broadcast % 15 == 0, "P − 1 = 15 per improvement: {broadcast}");
    assert!(tree > 0, "bounds travel the tree");
    assert_eq!(none, 0);
    let (_, with_bounds) = run("broadcast");
    assert!(alone > with_bounds, "local bounds alone examine more nodes: {alone} vs {with_bounds}");
}

/// Bounds reach every PE within 2·D·L (002 §4.5, `bound_delay`), by the
/// tree and by broadcast. The first run pruned with a stale bound 235
/// time units after a better solution (the limit 80) before the reference
/// passed on a bound from its tree parent that did not improve its own
/// best; the `bound-lost` mutant fails it.
#[test]
fn bounds_reach_every_pe_within_2_d_l() {
    for (bound, pes) in [("reduce-tree", "16"), ("reduce-tree", "64"), ("broadcast", "32")] {
        let v = simulate(&["--workload", "knapsack:items=40,seed=1", "--pes", pes, "--seed", "1", "--bound", bound]);
        let detail = v["properties"]["bound_delay"]["detail"].as_str().unwrap();
        assert!(detail.starts_with("every slice started") && !detail.ends_with(" 0 bound messages"), "{detail}");
    }
    let args =
        ["simulate", "--workload", "knapsack:items=40,seed=1", "--pes", "16", "--mutant", "bound-lost", "--json"];
    let (code, out, _) = lbcheck(&args);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((code, &v["properties"]["bound_delay"]["pass"]), (1, &Value::Bool(false)), "{out}");
}

/// A trace of a branch-and-bound run is checked again from its header.
#[test]
fn a_branch_and_bound_trace_checks_again() {
    let trace = std::env::temp_dir().join(format!("lbcheck-async-bnb-{}.jsonl", std::process::id()));
    let trace = trace.to_str().unwrap();
    let args = ["simulate", "--balancer", "pacheco", "--workload", "golomb:marks=6", "--pes", "4", "--trace", trace];
    assert_eq!(lbcheck(&args).0, 0);
    let (code, out, err) = lbcheck(&["check-trace", trace, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["properties"]["prune_sound"]["detail"].as_str().unwrap().contains("pruned"), "{v}");
    assert!(v["properties"]["optimum_found"]["detail"].as_str().unwrap().contains("= the optimum"), "{v}");
    let _ = std::fs::remove_file(trace);
}

#[test]
fn bad_branch_and_bound_input_exits_2() {
    for (args, says) in [
        (vec!["--workload", "uts:T1", "--bound", "broadcast"], "--bound is for branch-and-bound"),
        (vec!["--workload", "knapsack:items=0"], "1 <= items <= 2000"),
        (vec!["--workload", "knapsack:items=2001"], "1 <= items <= 2000"),
        (vec!["--workload", "golomb:marks=12"], "2 <= marks <= 11"),
        (vec!["--workload", "tsp:cities=25"], "2 <= cities <= 24"),
        (vec!["--workload", "tsp:seed=1"], "missing `cities=`"),
        (vec!["--workload", "golomb:marks=8", "--bound", "bcast"], "invalid value"),
        (vec!["--workload", "puzzle15:moves=81"], "1 <= moves <= 80"),
        (vec!["--workload", "puzzle15:moves=30,seed=1,iteration=99"], "has iterations 0..="),
        (
            vec!["--workload", "puzzle15:moves=40,seed=1,iteration=0", "--bound", "none"],
            "--bound is for branch-and-bound",
        ),
        (vec!["--workload", "uts:T1", "--mutant", "prune-unachieved"], "pruning workload"),
    ] {
        let mut all = vec!["simulate"];
        all.extend(&args);
        let (code, out, err) = lbcheck(&all);
        assert_eq!(code, 2, "{args:?}:\n{out}{err}");
        assert!(err.contains(says), "{args:?} should say {says}:\n{err}");
    }
}

/// The explorer visits every interleaving of tiny instances: each balancer
/// and propagation finds the optimum and prunes soundly in all of them.
#[test]
fn tiny_instances_explore_completely_and_pass() {
    for (balancer, bound, w) in [
        ("random-polling", "reduce-tree", "knapsack:items=4,seed=1"),
        ("pacheco", "broadcast", "golomb:marks=4"),
        ("random-polling", "none", "tsp:cities=4,seed=1"),
    ] {
        let args = ["explore", "--balancer", balancer, "--bound", bound, "--workload", w, "--pes", "3", "--json"];
        let (code, out, err) = lbcheck(&args);
        assert_eq!(code, 0, "{args:?}:\n{out}{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["complete"], true, "{v}");
    }
}
