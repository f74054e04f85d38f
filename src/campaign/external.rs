//! The `spin` and `coq` layers: the SPIN models (`models/check.sh`) and the
//! Coq proofs (`proofs/check.sh`) of the repository lbcheck was built from,
//! when the scripts and the tools are there (a skip says what is missing).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::{Case, Options, Progress, Verdict};

/// (layer, script, the tool it needs, how to install it).
const SCRIPTS: [(&str, &str, &str, &str); 2] = [
    ("spin", "models/check.sh", "spin", "apt-get install -y spin"),
    ("coq", "proofs/check.sh", "coqc", "apt-get install -y coq"),
];

/// Runs each script that `o` selects.
pub fn run(o: &Options, progress: &dyn Progress) -> Vec<Case> {
    let mut cases = Vec::new();
    for (layer, script, tool, install) in SCRIPTS {
        if o.mutant.is_some() || !o.selects(layer, script) {
            continue;
        }
        progress.start(layer, 1);
        let case = one(layer, script, tool, install);
        progress.done(layer, &case);
        cases.push(case);
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
    }
}
