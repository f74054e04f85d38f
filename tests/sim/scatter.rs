//! `lbcheck scatter` (004 §3's message scattering) from the command line:
//! all-to-0's exact T, the off-line schedule's max(r, m), every arbiter's
//! lower bounds, the exhaustive adversary against fifo, and bad input.

use serde_json::Value;

use super::lbcheck;

/// Runs `lbcheck scatter ARGS --json`: (exit code, JSON, stderr).
fn scatter(args: &[&str]) -> (i32, Value, String) {
    let (code, out, err) = lbcheck(&[&["scatter", "--json"], args].concat());
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v, err)
}

fn int(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn all_to_0_takes_exactly_m_p_or_m_p_minus_1_with_self_local() {
    let base = ["--pes", "8", "--messages", "5", "--dest", "all-to-0", "--arbiter", "fifo"];
    let (code, v, err) = scatter(&base);
    assert_eq!((code, int(&v, "T")), (0, 40), "{v}{err}");
    assert_eq!(v["facts"]["all_to_0_exact"]["pass"], true, "{v}");
    let (code, v, err) = scatter(&[&base[..], &["--self-local"]].concat());
    assert_eq!((code, int(&v, "T"), v["self_local"].as_bool()), (0, 35, Some(true)), "{v}{err}");
}

#[test]
fn offline_takes_max_r_m_and_no_run_beats_it() {
    for (pes, m) in [("2", "3"), ("5", "1"), ("7", "4"), ("16", "8")] {
        for seed in 0..4 {
            let seed = seed.to_string();
            let args = ["--pes", pes, "--messages", m, "--seed", &seed, "--offline"];
            let (code, v, err) = scatter(&args);
            let (t, lower) = (int(&v, "T"), int(&v, "r").max(int(&v, "m")));
            assert_eq!((code, int(&v, "lower")), (0, lower), "{v}{err}");
            assert_eq!(int(&v, "offline_T"), lower, "{v}");
            assert!(t >= lower, "{v}");
            assert_eq!(v["facts"]["offline_is_max_r_m"]["pass"], true, "{v}");
        }
    }
}

#[test]
fn every_arbiter_respects_t_at_least_m_and_r() {
    for arbiter in ["fifo", "lifo", "fixed-priority", "anti-critical", "random"] {
        let (code, v, err) = scatter(&["--pes", "16", "--messages", "8", "--dest", "random", "--arbiter", arbiter]);
        let (t, m, r) = (int(&v, "T"), int(&v, "m"), int(&v, "r"));
        assert_eq!((code, m), (0, 8), "{arbiter}: {v}{err}");
        assert!(t >= m && t >= r, "{arbiter}: {v}");
        assert_eq!(v["arbiter"], arbiter);
        assert!(v["facts"].as_object().unwrap().values().all(|f| f["pass"] == true), "{v}");
    }
}

/// The adversary explores every arbitration, fifo's among them.
#[test]
fn adversary_is_at_least_as_bad_as_fifo() {
    for seed in ["0", "1", "2"] {
        let args = ["--pes", "3", "--messages", "2", "--dest", "random", "--seed", seed];
        let (code, fifo, err) = scatter(&args);
        assert_eq!(code, 0, "{err}");
        let (code, v, err) = scatter(&[&args[..], &["--arbiter", "adversary"]].concat());
        assert_eq!(code, 0, "{v}{err}");
        let x = &v["adversary"];
        assert_eq!(x["complete"], true, "{v}");
        let (worst, best) = (int(x, "worst"), int(x, "best"));
        assert!(worst >= best && int(&v, "T") == worst, "{v}");
        assert!(worst >= int(&fifo, "T") && best <= int(&fifo, "T"), "fifo {fifo} adversary {v}");
        assert!(best >= int(&v, "lower"), "{v}");
    }
}

#[test]
fn bad_input_exits_2_naming_the_flag() {
    let (code, out, err) = lbcheck(&["scatter", "--arbiter", "adversary", "--pes", "5"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("--pes") && err.contains("1..=4"), "{err}");
    let (code, _, err) = lbcheck(&["scatter", "--dest", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("random") && err.contains("all-to-0") && err.contains("hotspot"), "{err}");
    let (code, _, err) = lbcheck(&["scatter", "--pes", "1000", "--messages", "100001"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("10^8"), "{err}");
}
