//! Shared output of checked runs: the verdict table and the exit code.

use std::process::ExitCode;

use lbcheck::check::CheckReport;
use lbcheck::report;

/// Human form of a run's JSON: the headline numbers, then one row per property.
pub fn human(out: &serde_json::Value) -> String {
    let mut rows: Vec<(&str, String)> = Vec::new();
    const HEADLINE: [&str; 12] = [
        "workload",
        "termination",
        "mutant",
        "pes",
        "t_par",
        "t_last_work",
        "t_seq",
        "efficiency",
        "nodes",
        "nodes_per_sec",
        "units_per_pe",
        "max_gen",
    ];
    for key in HEADLINE {
        if let Some(v) = out.get(key).filter(|v| !v.is_null()) {
            rows.push((key, v.as_str().map_or_else(|| v.to_string(), str::to_string)));
        }
    }
    if let Some(msgs) = out["messages"].as_object() {
        let list: Vec<String> = msgs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        rows.push(("messages", list.join(" ")));
    }
    if let Some(props) = out["properties"].as_object() {
        for (name, v) in props {
            let verdict = if v["pass"].as_bool() == Some(true) { "PASS" } else { "FAIL" };
            rows.push((name, format!("{verdict}  {}", v["detail"].as_str().unwrap_or(""))));
        }
    }
    let mut text = report::table(&rows);
    if let Some(r) = out.get("replay").and_then(|r| r.as_str()) {
        text += &format!("replay: {r}\n");
    }
    text
}

/// 0 if every property passed, else 1 (after naming the failures on stderr).
pub fn exit_code(check: &CheckReport, replay: &str) -> ExitCode {
    let failures = check.failures();
    if failures.is_empty() {
        return ExitCode::SUCCESS;
    }
    for (name, v) in failures {
        let at = v.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        eprintln!("FAILED {name}{at}: {}", v.detail);
    }
    if !replay.is_empty() {
        eprintln!("replay with: {replay}");
    }
    ExitCode::from(1)
}
