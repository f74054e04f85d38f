//! `lbcheck compare`: a batch of traces from the reference itself is
//! consistent with the reference; a batch from a deliberately slower
//! configuration (the `poll-lazy` mutant: a busy PE serves requests only
//! every 64th poll) is flagged slower. Both at family-wise α = 0.01 (four
//! Mann–Whitney tests, Bonferroni), on fixed seeds.

use super::lbcheck;

/// Writes 20 traces of `uts:default` on 16 PEs (seeds 1..=20) with `extra` flags.
fn traces(dir: &std::path::Path, name: &str, extra: &[&str]) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    (1..=20)
        .map(|seed| {
            let path = dir.join(format!("{name}-{seed}.jsonl")).to_str().unwrap().to_string();
            let seed = seed.to_string();
            let args = ["simulate", "--workload", "uts:default", "--pes", "16", "--seed", &seed, "--trace", &path];
            lbcheck(&[&args[..], extra].concat());
            path
        })
        .collect()
}

#[test]
fn the_reference_is_consistent_and_a_slower_balancer_is_flagged() {
    let dir = std::env::temp_dir().join(format!("lbcheck-compare-{}", std::process::id()));
    let same = traces(&dir, "ref", &[]);
    let (code, out, err) =
        lbcheck(&[&["compare", "--json"][..], &same.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["verdict"].as_str().unwrap().starts_with("consistent"), "{out}");
    let lazy = traces(&dir, "lazy", &["--mutant", "poll-lazy"]);
    let (code, out, err) = lbcheck(&[&["compare"][..], &lazy.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("verdict: slower (efficiency: 0."), "{out}");
    let (code, _, err) = lbcheck(&["compare", &same[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("need at least 20 traces"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}
