//! `lbcheck bitonic` (issue 14, S-25): the reference passes every property
//! and the 0-1 checks; each bitonic mutant fails its listed property; bad
//! input exits 2.

use lbcheck::mutants::{Catcher, CATALOGUE};

use super::lbcheck;

#[test]
fn the_reference_passes_exhaustively() {
    let (code, out, err) = lbcheck(&["bitonic", "--pes", "8", "--keys", "64", "--exhaustive", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v["properties"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"parallel_zero_one") && names.contains(&"network_zero_one"), "{names:?}");
    for (p, n) in [("1", "10"), ("16", "1000"), ("4", "0"), ("8", "61")] {
        assert_eq!(lbcheck(&["bitonic", "--pes", p, "--keys", n]).0, 0, "p = {p}, n = {n}");
    }
}

#[test]
fn each_bitonic_mutant_fails_its_property() {
    let mutants: Vec<_> = CATALOGUE.iter().filter(|e| e.caught_by(Catcher::Bitonic)).collect();
    assert_eq!(mutants.len(), 3);
    for e in mutants {
        let (code, _, err) = lbcheck(&["bitonic", "--pes", "8", "--keys", "64", "--mutant", e.info.name]);
        assert_eq!(code, 1, "{}", e.info.name);
        let fails = e.fails_under(Catcher::Bitonic).unwrap();
        assert!(err.contains(&format!("FAILED {fails}:")), "{} should fail {fails}:\n{err}", e.info.name);
    }
}

#[test]
fn bad_input_exits_2() {
    for (args, says) in [
        (vec!["--pes", "6"], "power of two"),
        (vec!["--pes", "0"], "power of two"),
        (vec!["--keys", "99999999999"], "out of range"),
        (vec!["--mutant", "split-loses"], "does not act in bitonic sort"),
        (vec!["--mutant", "nonsense"], "nonsense"),
    ] {
        let mut all = vec!["bitonic"];
        all.extend(&args);
        let (code, _, err) = lbcheck(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
    }
}
