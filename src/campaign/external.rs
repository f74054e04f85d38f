//! The `spin`, `coq` and `loom` layers: the SPIN models
//! (`models/check.sh`), the Coq proofs (`proofs/check.sh`) and the loom
//! suite (`tests/loom_threads.rs`, built with `--cfg loom`) of the
//! repository lbcheck was built from, when the files and the tools are
//! there (a skip says what is missing).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::shard::{Shard, Unit};
use super::{cost, Case, Options, Progress, Verdict};
use crate::base::Registered;
use crate::mutants::{Catcher, Mutant};

/// (layer, script, the tool it needs, how to install it).
const SCRIPTS: [(&str, &str, &str, &str); 2] = [
    ("spin", "models/check.sh", "spin", "apt-get install -y spin"),
    ("coq", "proofs/check.sh", "coqc", "apt-get install -y coq"),
];

/// Runs each script that `o` selects, one unit of `shard` each.
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    finish(start(o, shard), shard, progress)
}

/// A script started by [`start`]: its unit, layer and the thread that
/// waits for it (none if another process runs the unit).
pub struct Started {
    unit: Unit,
    layer: &'static str,
    child: Option<std::thread::JoinHandle<Case>>,
}

/// Takes a unit of `shard` for each script that `o` selects and starts
/// the script of each unit this process runs (a child process, one core
/// each, while the campaign runs its in-process layers); [`finish`] waits.
pub fn start(o: &Options, shard: &Shard) -> Vec<Started> {
    let selected = SCRIPTS.into_iter().filter(|&(layer, script, ..)| o.mutant.is_none() && o.selects(layer, script));
    let start = |(layer, script, tool, install): (&'static str, &'static str, &'static str, &'static str)| {
        let unit = shard.take(cost::script(layer));
        let child = unit.mine.then(|| std::thread::spawn(move || one(layer, script, tool, install)));
        Started { unit, layer, child }
    };
    selected.map(start).collect()
}

/// The cases of the scripts [`start`] started, in the campaign's order.
pub fn finish(started: Vec<Started>, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    let mut cases = Vec::new();
    for Started { unit, layer, child } in started {
        let case = child.map(|h| {
            progress.start(layer, 1);
            let case = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            progress.done(layer, &case);
            vec![case]
        });
        cases.extend(shard.put(unit, layer, case));
    }
    cases
}

fn one(layer: &'static str, script: &str, tool: &str, install: &str) -> Case {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join(script).is_file() {
        return Case::skip(layer, script.into(), format!("{script} is not here (not run from lbcheck's repository)"));
    }
    if Command::new(tool).arg("--version").output().is_err() {
        return Case::skip(layer, script.into(), format!("`{tool}` is not installed ({install})"));
    }
    let start = Instant::now();
    let out = Command::new("bash").arg(script).current_dir(root).output();
    let secs = start.elapsed().as_secs_f64();
    let (ok, text) = match out {
        Ok(o) => {
            (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
        }
        Err(e) => (false, format!("cannot run bash {script}: {e}")),
    };
    let last: Vec<&str> = text.lines().rev().take(3).collect();
    let detail = last.into_iter().rev().collect::<Vec<_>>().join(" | ");
    let (verdict, failed) = if ok { (Verdict::Pass, vec![]) } else { (Verdict::Fail, vec![script.to_string()]) };
    Case {
        layer,
        name: script.into(),
        verdict,
        detail,
        failed,
        replay: Some(format!("bash {script}")),
        secs,
        point: None,
        spec: None,
        fit: None,
    }
}

/// The `loom` layer: the loom suite's reference interleavings (every test
/// named `reference_*`), or, checking a mutant that loom catches, whether
/// loom reports it (then the case fails: the implementation under test is
/// broken).
pub fn loom_layer(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    if !o.selects("loom", "suite") {
        return vec![];
    }
    let (filter, expect_pass) = match o.mutant {
        None => ("reference_".to_string(), true),
        Some(m) if m.entry().caught_by(Catcher::Loom) => (loom_test(m), false),
        Some(_) => return vec![],
    };
    let cost = cost::LOOM + cost::LOOM_BUILD;
    shard.unit_in(cost::LOOM_GROUP, "loom", cost, || loom_case(o, filter, expect_pass, progress))
}

/// The loom layer's one case: whether the tests `filter` pass as `expect_pass` says.
fn loom_case(o: &Options, filter: String, expect_pass: bool, progress: &dyn Progress) -> Vec<Case> {
    progress.start("loom", 1);
    let start = Instant::now();
    let case = match loom(&filter) {
        Err(why) => Case::skip("loom", filter.clone(), why),
        Ok((passed, summary)) => {
            let ok = passed == expect_pass;
            let detail = match o.mutant {
                Some(m) if passed => format!("loom reports mutant `{m}` (its test {filter} passed: {summary})"),
                Some(m) => format!("loom did not report mutant `{m}` ({filter}: {summary})"),
                None => summary,
            };
            let verdict = if ok { Verdict::Pass } else { Verdict::Fail };
            let what =
                o.mutant.and_then(|m| m.entry().fails_under(Catcher::Loom)).unwrap_or("a reference interleaving");
            let failed = if ok { vec![] } else { vec![format!("{what} (loom: {filter})")] };
            let replay = Some(format!("bash scripts/loom.sh --quick  # or: cargo test --test loom_threads {filter}"));
            Case {
                layer: "loom",
                name: filter,
                verdict,
                detail,
                failed,
                replay,
                secs: start.elapsed().as_secs_f64(),
                point: None,
                spec: None,
                fit: None,
            }
        }
    };
    progress.done("loom", &case);
    vec![case]
}

/// The loom test that shows loom catching `m` (`tests/loom_threads.rs`).
pub fn loom_test(m: Mutant) -> String {
    format!("{}_is_caught", m.name().replace('-', "_"))
}

/// Runs the loom tests matching `filter` (quick profile, bound 2; the
/// references with one seed, `scripts/loom.sh --quick` runs two) from the
/// repository: whether they passed and the last lines of their output with
/// each test that ran and its time (every balancer × detector pair's
/// `PAIR::reference_p2`, `PAIR::reference_p3` for `reference_`), or why
/// they cannot run here.
pub fn loom(filter: &str) -> Result<(bool, String), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("tests/loom_threads.rs").is_file() {
        return Err("tests/loom_threads.rs is not here (not run from lbcheck's repository)".into());
    }
    let times = std::env::temp_dir().join(format!("lbcheck-loom-times-{}-{filter}", std::process::id()));
    let _ = std::fs::remove_file(&times);
    let out = Command::new("cargo")
        .args(["test", "--release", "-q", "--test", "loom_threads", "--", "--test-threads", "2", filter])
        .env("RUSTFLAGS", "--cfg loom")
        .env("CARGO_TARGET_DIR", root.join("target/loom"))
        .env("LOOM_MAX_PREEMPTIONS", "2")
        .env("LBCHECK_LOOM_PROFILE", "quick")
        .env("LBCHECK_LOOM_TIMES", &times)
        .env("LBCHECK_LOOM_SEEDS", if filter == "reference_" { "1" } else { "" }) // the references: one seed each
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo for loom: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let summary = text.lines().filter(|l| l.starts_with("test result") || l.contains("panicked")).take(3);
    let mut ran: Vec<String> = std::fs::read_to_string(&times).unwrap_or_default().lines().map(tested).collect();
    let _ = std::fs::remove_file(&times);
    ran.sort();
    Ok((
        out.status.success(),
        format!("{}; {} tests: {}", summary.collect::<Vec<_>>().join(" | "), ran.len(), ran.join(", ")),
    ))
}

/// "random_polling_energy::reference_p2 (0.6 s)" from a line of the loom
/// suite's times file ("   0.6 s  TEST: passed (P = 2, …)").
fn tested(line: &str) -> String {
    let (secs, rest) = line.trim_start().split_once(" s  ").unwrap_or(("?", line));
    format!("{} ({secs} s)", rest.split_once(": ").map_or(rest, |(test, _)| test))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_loom_time_line_names_its_test_and_time() {
        let line = "   0.6 s  random_polling_energy::reference_p2: passed (P = 2, bound 2, 2 seeds)";
        assert_eq!(super::tested(line), "random_polling_energy::reference_p2 (0.6 s)");
    }
}
