//! The registry from the command line: `lbcheck list`, the README's status
//! table and docs/mutants.md (generated from it), registry names on every
//! command, and a failing trace replayed from its header.

use super::lbcheck;

const FAMILIES: [&str; 8] =
    ["balancers", "detectors", "machines", "arbiters", "drivers", "workloads", "bounds", "mutants"];

#[test]
fn list_json_has_every_family_with_paper_sections() {
    let (code, out, err) = lbcheck(&["list", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_object().unwrap().len(), FAMILIES.len(), "{out}");
    for family in FAMILIES {
        let entries = v[family].as_array().unwrap_or_else(|| panic!("no `{family}` in {out}"));
        assert!(!entries.is_empty(), "{family}");
        for e in entries {
            for key in ["name", "paper", "what", "status"] {
                assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{family}: {e} lacks `{key}`");
            }
        }
    }
    let shipping = |f: &str| v[f].as_array().unwrap().iter().filter(|e| e["status"] == "ships").count();
    assert_eq!((shipping("balancers"), shipping("detectors"), shipping("drivers")), (8, 5, 5));
}

/// The README's status table is `lbcheck list --markdown`, between markers.
#[test]
fn readme_status_table_equals_list_markdown() {
    generated_section_equals("README.md", "lbcheck list --markdown", &["list", "--markdown"]);
}

/// docs/mutants.md's catalogue is `lbcheck mutants --markdown`, between markers.
#[test]
fn docs_mutants_equals_mutants_markdown() {
    generated_section_equals("docs/mutants.md", "lbcheck mutants --markdown", &["mutants", "--markdown"]);
}

/// The text of `file` between `<!-- MARKER: begin -->` and `<!-- MARKER: end -->`
/// is what `lbcheck ARGS` prints.
fn generated_section_equals(file: &str, marker: &str, args: &[&str]) {
    let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (begin, end) = (format!("<!-- {marker}: begin -->\n"), format!("<!-- {marker}: end -->"));
    let start = text.find(&begin).unwrap_or_else(|| panic!("{file} has no `{begin}`")) + begin.len();
    let stop = text.find(&end).unwrap_or_else(|| panic!("{file} has no `{end}`"));
    let (code, out, _) = lbcheck(args);
    assert_eq!(code, 0);
    assert!(
        text[start..stop].trim_end() == out.trim_end(),
        "{file} differs from `{marker}`: paste its output between the markers"
    );
}

#[test]
fn unknown_and_planned_names_exit_2_listing_the_valid_ones() {
    let base = ["simulate", "--workload", "uts:default", "--pes", "4"];
    let cases: &[(&[&str], &str)] = &[
        (&["--balancer", "no-such"], "valid: random-polling"),
        (&["--balancer", "pacheco", "--victim", "next"], "[possible values: random, local-rr, global-rr]"),
        (&["--balancer", "pacheco", "--initial-split"], "Generate + Scatter"),
        (&["--victim", "global-rr"], "--victim is Pacheco's search's"),
        (&["--balancer", "pacheco", "--mutant", "grr-no-increment"], "add --victim global-rr"),
        (&["--termination", "telepathy"], "valid: energy, energy-tree, four-counter, safra, barrier"),
        (&["--machine", "phased"], "add --balancer poll-and-shuffle"),
        (&["--mutant", "gremlin"], "valid: energy-not-split"),
    ];
    for (extra, says) in cases {
        let (code, _, err) = lbcheck(&[&base[..], extra].concat());
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

/// A failing simulation's trace: `check-trace` fails it too and prints the
/// replay command, which run as printed fails the same property.
#[test]
fn a_failing_trace_replays_from_its_header() {
    let path = std::env::temp_dir().join(format!("lbcheck-replay-{}.jsonl", std::process::id()));
    let p = path.to_str().unwrap();
    let run = ["simulate", "--workload", "uts:default", "--pes", "16", "--seed", "3", "--mutant", "split-loses"];
    let (code, _, err) = lbcheck(&[&run[..], &["--trace", p]].concat());
    assert_eq!(code, 1, "{err}");
    let printed = replay_line(&err);
    let (code, _, err) = lbcheck(&["check-trace", p]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("FAILED work_conserved"), "{err}");
    assert_eq!(replay_line(&err), printed, "check-trace prints the command simulate printed");
    let words = lbcheck::harness::replay::words(printed.strip_prefix("lbcheck ").unwrap());
    let (code, _, err) = lbcheck(&words.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1, "{printed}: {err}");
    assert!(err.contains("FAILED work_conserved"), "{err}");
    std::fs::remove_file(path).ok();
}

fn replay_line(stderr: &str) -> String {
    let line = stderr.lines().find_map(|l| l.strip_prefix("replay with: ")).unwrap_or_else(|| panic!("{stderr}"));
    line.to_string()
}
