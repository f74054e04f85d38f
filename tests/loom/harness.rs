//! The loom suite's machinery (`tests/loom_threads.rs`): each test runs
//! one named test of [`lbcheck::loom::tests`] in the environment's profile
//! (in-process: the driver's loom copy is part of the ordinary build) and
//! records the time it took ([`timed`]).

use std::io::Write;
use std::time::Instant;

use lbcheck::loom::{Profile, Test};

/// Runs the suite's test `name` (a property that fails, or a mutant that
/// loom does not report, fails it) and prints what it found.
pub fn run(name: &str) {
    let test = lbcheck::loom::test(name, &Profile::from_env()).unwrap_or_else(|| panic!("no loom test {name}"));
    let what = timed(&test, || test.run()).unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {what}");
}

/// Runs `body` and appends a line "seconds test: what (case)" to the file
/// `LBCHECK_LOOM_TIMES` names, if any (`scripts/loom.sh` prints them,
/// slowest first).
fn timed(test: &Test, body: impl FnOnce() -> Result<String, String>) -> Result<String, String> {
    let start = Instant::now();
    let out = body();
    if let Ok(path) = std::env::var("LBCHECK_LOOM_TIMES") {
        let what = if test.expect.is_some() { "caught" } else { "passed" };
        let mutant = test.case.mutant.map_or(String::new(), |m| format!(" `{m}`"));
        let (secs, name, case) = (start.elapsed().as_secs_f64(), &test.name, test.case.describe());
        let line = format!("{secs:6.1} s  {name}: {what}{mutant} ({case})\n");
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
        file.and_then(|mut f| f.write_all(line.as_bytes())).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    out
}
