//! References never fail their own checks (issue 33 item 3): every
//! registered balancer × detector × machine × workload family (the names
//! `lbcheck list --json` gives, so a new entry joins at once), one small
//! instance of each family, either runs to a pass (exit 0) or is refused
//! cleanly (exit 2, one `error:` line naming why, no panic); exit 1 is a
//! reference failing its own checks. Which combinations run is a snapshot:
//! one newly refused, or newly allowed, shows up in review.

use rayon::prelude::*;

use super::lbcheck;

/// A small instance of every workload family (a family missing here fails
/// the test: add one).
const SMALL: [(&str, &str); 8] = [
    ("synthetic", "synthetic:size=300,split=uniform"),
    ("uts", "uts:args=-t 0 -b 20 -q 0.2 -m 4 -r 3"),
    ("loop", "loop:n=100,cost=heavy"),
    ("kz", "kz:depth=6"),
    ("knapsack", "knapsack:items=12,seed=1"),
    ("tsp", "tsp:cities=6,seed=1"),
    ("golomb", "golomb:marks=5"),
    ("puzzle15", "puzzle15:moves=10,seed=1"),
];

/// One combination: (balancer, detector, machine, workload family).
type Combination = (String, String, String, String);

/// The names of the registry's `family` (`balancers`, …) that ship.
fn names(listing: &serde_json::Value, family: &str) -> Vec<String> {
    let entries = listing[family].as_array().unwrap_or_else(|| panic!("no `{family}` in `lbcheck list --json`"));
    entries.iter().filter(|e| e["status"] == "ships").map(|e| e["name"].as_str().unwrap().to_string()).collect()
}

/// Every combination the registry names, in its order.
fn combinations() -> Vec<Combination> {
    let (code, out, err) = lbcheck(&["list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let listing: serde_json::Value = serde_json::from_str(&out).unwrap();
    let [balancers, detectors, machines, families] =
        ["balancers", "detectors", "machines", "workloads"].map(|f| names(&listing, f));
    let mut all = vec![];
    for b in &balancers {
        for d in &detectors {
            for m in &machines {
                all.extend(families.iter().map(|f| (b.clone(), d.clone(), m.clone(), f.clone())));
            }
        }
    }
    all
}

/// Runs combination `i` on 4 PEs and seed `i`: true if it passes, false
/// if refused cleanly, an error saying what happened otherwise.
fn run(i: usize, (b, d, m, f): &Combination) -> Result<bool, String> {
    let workload = SMALL.iter().find(|(family, _)| family == f).map(|(_, w)| *w);
    let workload = workload.ok_or_else(|| format!("no small instance of workload family `{f}`: add one to SMALL"))?;
    let seed = i.to_string();
    let args = ["simulate", "--workload", workload, "--balancer", b, "--termination", d, "--machine", m, "--pes", "4"];
    let args = [&args[..], &["--seed", &seed]].concat();
    let (code, out, err) = lbcheck(&args);
    let clean = err.starts_with("error: ") && err.lines().count() == 1 && out.is_empty();
    match code {
        0 => Ok(true),
        2 if clean => Ok(false),
        _ => Err(format!("lbcheck {}: exit {code}\n{out}{err}", args.join(" "))),
    }
}

#[test]
fn every_reference_combination_passes_or_is_refused_cleanly() {
    let all = combinations();
    let results: Vec<Result<bool, String>> = all.par_iter().enumerate().map(|(i, c)| run(i, c)).collect();
    let wrong: Vec<&str> = results.iter().filter_map(|r| r.as_ref().err().map(String::as_str)).collect();
    assert!(wrong.is_empty(), "{} of {} combinations:\n{}", wrong.len(), all.len(), wrong.join("\n"));
    let mut runs: Vec<String> = vec![];
    for ((b, d, m, f), _) in all.iter().zip(&results).filter(|(_, r)| r == &&Ok(true)) {
        let head = format!("{b} {d} --machine {m}:");
        match runs.last_mut() {
            Some(last) if last.starts_with(&head) => last.push_str(&format!(" {f}")),
            _ => runs.push(format!("{head} {f}")),
        }
    }
    let ran = runs.iter().map(|r| r.split(' ').count() - 4).sum::<usize>();
    insta::assert_snapshot!(format!("{ran} run, {} refused:\n{}", all.len() - ran, runs.join("\n")));
}
