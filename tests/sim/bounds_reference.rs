//! The bound suites on the references (src/bounds/, CI's fixed seeds, base
//! 1, quick profile), read from the suites' JSON that the reference
//! campaign wrote (`lbcheck check --out DIR`: `DIR/bounds/SUITE.json`, the
//! document `lbcheck bounds --balancer SUITE --json` prints): each suite
//! runs once in the test command. `tests/bounds` runs the suites from the
//! `bounds` CLI, with mutants and on reduced profiles.
//!
//! α: each suite controls its family-wise false-alarm probability at 1e-6
//! (Bonferroni over its statistical tests), so each test below fails a
//! correct balancer with probability ≤ 1e-6. Other seed bases pass too:
//! every suite × `--max-pes` 8 … 64 × seed bases 1–10,
//! `scripts/bounds-alpha.sh`.

use lbcheck::base::Registered;
use serde_json::Value;

/// The reference campaign's JSON of `suite`.
fn suite(suite: &str) -> Value {
    let path = super::campaign::reference_dir().join("bounds").join(format!("{suite}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (v["suite"].as_str(), v["profile"].as_str(), v["seed_base"].as_u64()),
        (Some(suite), Some("Quick"), Some(1))
    );
    assert_eq!(v["correction"], "Bonferroni");
    v
}

fn claims(v: &Value) -> &Vec<Value> {
    v["claims"].as_array().unwrap()
}

/// Random polling: every claim passes with its α; the fitted constants and
/// the replay command are in the JSON.
#[test]
fn random_polling_passes_at_family_alpha_1e_6() {
    let v = suite("random-polling");
    assert_eq!(v["replay"], "lbcheck bounds --balancer random-polling --quick --seed-base 1", "{v}");
    assert!(claims(&v).len() >= 9);
    for c in claims(&v) {
        assert_eq!(c["pass"], true, "{c}");
    }
    assert!(claims(&v).iter().any(|c| c["name"] == "t_par" && c["alpha"].as_f64().unwrap() <= 1e-6));
    let chi = |c: &&Value| c["name"] == "victims_uniform" && c["ci"].as_str().unwrap().contains("χ²");
    assert!(claims(&v).iter().any(|c| chi(&c)), "{v}");
    let k = &v["constants"];
    assert!(k["c_t_par"].as_f64().unwrap() > 0.0 && k["c_gen"].as_f64().unwrap() > 0.0, "{v}");
}

/// 004's suites (random-destination search, priority-queue branch and
/// bound, message scattering): every claim passes but 004 Thm 2 at the
/// paper's sizes, which the quick profile does not run (a verdict of its
/// own, never a pass).
#[test]
fn the_004_suites_pass() {
    for name in ["random-destination", "priority-bnb", "scatter"] {
        let v = suite(name);
        assert!(v["constants"]["k_by_arbiter"]["fifo"].as_f64().unwrap() >= 1.0, "{v}");
        assert!(claims(&v).iter().any(|c| c["name"] == "lemma6"), "{v}");
        for c in claims(&v) {
            let want = if c["name"] == "thm2_large" { ("not-run", false) } else { ("pass", true) };
            assert_eq!((c["verdict"].as_str().unwrap(), c["pass"].as_bool().unwrap()), want, "{name}: {c}");
        }
        assert!(name != "priority-bnb" || claims(&v).iter().any(|c| c["name"] == "thm2_large"), "{v}");
    }
}

/// Pacheco's global round robin (S-14, 003 §14.7.3): V(P) = P − s exactly
/// on every run, R bounded with no trend in log2 P.
#[test]
fn the_pacheco_suite_passes() {
    let v = suite("pacheco");
    let names: Vec<&str> = claims(&v).iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["v_p", "t_par", "t_par_trend", "invariants"]);
    assert!(claims(&v).iter().all(|c| c["pass"] == true), "{v}");
    assert!(v["constants"]["k"].as_f64().unwrap() > 0.0 && v["constants"]["v_p_runs"].as_u64().unwrap() > 0);
    let alpha = claims(&v)[1]["alpha"].as_f64().unwrap();
    assert!((alpha - 5e-7).abs() < 1e-12, "Bonferroni over 2 tests: {alpha}");
}

/// Poll-and-shuffle on the hypercube, its default network (000 Thms 1-2,
/// Lemmas 2-3, eq. (4), S-6, §5's adaptive trigger, and random polling's
/// R_d beside it): every claim the quick profile runs passes, Bonferroni
/// over 13; the comparison's slope and confidence are in the JSON. The
/// other networks: `tests/bounds`, from the CLI.
#[test]
fn the_poll_and_shuffle_suite_passes_on_the_hypercube() {
    let v = suite("poll-and-shuffle");
    assert_eq!(v["constants"]["topology"], "hypercube");
    let mut names: Vec<&str> = claims(&v).iter().map(|c| c["name"].as_str().unwrap()).collect();
    // The hypercube runs every claim `lbcheck bounds --list` names for the suite.
    let listed = lbcheck::bounds::listing::entries();
    let mut want: Vec<&str> =
        listed.iter().filter(|e| e.suite.as_deref() == Some("poll-and-shuffle")).map(|e| e.claim.as_str()).collect();
    (names.sort_unstable(), want.sort_unstable());
    assert_eq!(names, want);
    assert!(names.len() >= 17 && names.contains(&"notify_tail") && names.contains(&"rp_vs_pas"), "{names:?}");
    for c in claims(&v) {
        let regime = c["name"].as_str().unwrap().starts_with("regime_");
        assert_eq!(c["verdict"], if regime { "not-run" } else { "pass" }, "{c}");
        let alpha = c["alpha"].as_f64().unwrap_or(1e-6 / 13.0);
        assert!((alpha - 1e-6 / 13.0).abs() < 1e-15, "Bonferroni over 13: {c}");
    }
    let s = &v["constants"]["rp_vs_pas_slope"];
    assert!(s["lower"].as_f64().unwrap() > 0.0 && s["slope"].as_f64() > s["lower"].as_f64(), "{s}");
    assert!(v["constants"]["k_adaptive"].as_f64().unwrap() > 0.0, "{v}");
}

/// Every suite wrote its JSON, from runs made, with no claim failed.
#[test]
fn every_suite_wrote_its_claims() {
    for s in lbcheck::bounds::Suite::ALL {
        let v = suite(&s.to_string());
        assert!(v["runs"].as_u64().unwrap() > 0 && !claims(&v).is_empty(), "{s}: {v:.300}");
        assert!(claims(&v).iter().all(|c| c["verdict"] != "fail"), "{s}: {v}");
    }
}
