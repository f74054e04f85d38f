//! The `spin`, `coq` and `loom` layers: the SPIN models
//! (`models/check.sh`), the Coq proofs (`proofs/check.sh`) and the loom
//! of the repository lbcheck was built from, when the files and the tools
//! are there (a skip says what is missing), and the loom suite
//! ([`crate::loom::tests`], in-process).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::shard::{Shard, Unit};
use super::{cost, Case, Options, Progress, Verdict};
use crate::loom::{caught_name, Profile as LoomProfile};
use crate::mutants::Catcher;

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
/// named `reference_*`, one seed each), or, checking a mutant that loom
/// catches, whether loom reports it (then the case fails: the
/// implementation under test is broken). In-process ([`crate::loom`]).
pub fn loom_layer(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    if !o.selects("loom", "suite") {
        return vec![];
    }
    let (filter, expect_pass) = match o.mutant {
        None => ("reference_".to_string(), true),
        Some(m) if m.entry().caught_by(Catcher::Loom) => (caught_name(m), false),
        Some(_) => return vec![],
    };
    shard.unit("loom", cost::LOOM_LAYER, || loom_case(o, filter, expect_pass, progress))
}

/// The loom layer's one case: whether the tests `filter` pass as `expect_pass` says.
fn loom_case(o: &Options, filter: String, expect_pass: bool, progress: &dyn Progress) -> Vec<Case> {
    progress.start("loom", 1);
    let start = Instant::now();
    let (passed, summary) = loom(&filter);
    let ok = passed == expect_pass;
    let detail = match o.mutant {
        Some(m) if passed => format!("loom reports mutant `{m}` (its test {filter} passed: {summary})"),
        Some(m) => format!("loom did not report mutant `{m}` ({filter}: {summary})"),
        None => summary,
    };
    let what = o.mutant.and_then(|m| m.entry().fails_under(Catcher::Loom)).unwrap_or("a reference interleaving");
    let failed = if ok { vec![] } else { vec![format!("{what} (loom: {filter})")] };
    let replay = Some(format!("cargo test --release --test loom_threads {filter}"));
    let verdict = if ok { Verdict::Pass } else { Verdict::Fail };
    let secs = start.elapsed().as_secs_f64();
    let case = Case { layer: "loom", verdict, detail, failed, replay, secs, ..Case::skip("loom", filter, "") };
    progress.done("loom", &case);
    vec![case]
}

/// Runs the loom suite's tests whose names contain `filter` in-process
/// (quick profile, bound 2; the references with one seed,
/// `scripts/loom.sh --quick` runs two), on the campaign's threads:
/// whether they all passed, and each test that ran with its time (or why
/// it failed).
pub fn loom(filter: &str) -> (bool, String) {
    let seeds = (filter == "reference_").then_some(1);
    let tests: Vec<_> = crate::loom::tests(&LoomProfile { seeds, ..LoomProfile::QUICK })
        .into_iter()
        .filter(|t| t.name.contains(filter))
        .collect();
    let ran = super::parallel(&tests, |t| {
        let start = Instant::now();
        let result = t.run();
        (
            result.is_ok(),
            format!(
                "{} ({:.1} s){}",
                t.name,
                start.elapsed().as_secs_f64(),
                result.err().map_or(String::new(), |e| format!(": {e}"))
            ),
        )
    });
    let passed = !ran.is_empty() && ran.iter().all(|(ok, _)| *ok);
    let failing = ran.iter().filter(|(ok, _)| !ok).count();
    let listed: Vec<&str> = ran.iter().map(|(_, what)| what.as_str()).collect();
    (passed, format!("{} tests, {failing} failed: {}", ran.len(), listed.join(", ")))
}
