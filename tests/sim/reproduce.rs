//! `lbcheck reproduce knapsack` (issue 14, 002 §5.2): the quick profile
//! runs every instance on every machine size, checks every run, and
//! reports the paper's figure beside its own; bad input exits 2.

use super::lbcheck;

#[test]
fn the_quick_knapsack_reproduction_checks_every_run() {
    let (code, out, err) = lbcheck(&["reproduce", "knapsack", "--quick", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["all_checked"], true);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.iter().map(|r| r["pes"].as_u64().unwrap()).collect::<Vec<_>>(), [16, 64, 256]);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 32 * 3);
    for r in runs {
        let s = r["t_seq"].as_f64().unwrap() / r["t_par"].as_f64().unwrap();
        assert!((s - r["speedup"].as_f64().unwrap()).abs() < 1e-9, "{r}");
        assert!(r["replay"].as_str().unwrap().contains("--split all-half --pes"), "{r}");
    }
    for row in rows {
        let (min, mean, max) = (row["min_speedup"].as_f64(), row["mean_speedup"].as_f64(), row["max_speedup"].as_f64());
        assert!(min <= mean && mean <= max, "{row}");
    }
    let (code, out, _) = lbcheck(&["reproduce", "knapsack", "--quick"]);
    assert_eq!(code, 0);
    assert!(out.contains("paper (002 Fig. 1): P = 1024, m = 2000, 256 instances: mean S = 1410"), "{out}");
    assert!(out.contains("checked: 96 of 96 runs passed every property"), "{out}");
}

#[test]
fn bad_reproduction_input_exits_2() {
    for (args, says) in [
        (&["--items", "0"][..], "'0' for '--items <ITEMS>': 0 is not in 1..=2000"),
        (&["--items", "2001"], "2001 is not in 1..=2000"),
        (&["--instances", "0"], "'0' for '--instances <INSTANCES>': 0 is not in 1..=4096"),
        (&["--pes", "16,0"], "'0' for '--pes <PES>': 0 is not in 1..=65536"),
        (&["--quick", "--items", "0"], "--items"),
        (&["--quick", "--pes", "0"], "--pes"),
        (&["--quick", "--items", "50"], "'--quick' cannot be used with '--items <ITEMS>'"),
        (&["--bound", "telepathy"], "invalid value"),
        (&["--split", "sideways"], "unknown split strategy"),
    ] {
        let (code, out, err) = lbcheck(&[&["reproduce", "knapsack"][..], args].concat());
        assert_eq!(code, 2, "{args:?}:\n{out}{err}");
        assert!(err.contains(says), "{args:?} should say {says}:\n{err}");
    }
    let (code, _, err) = lbcheck(&["reproduce", "golomb"]);
    assert_eq!(code, 2, "{err}");
}
