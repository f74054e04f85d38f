//! The top of the campaign page, what a reader sees before scrolling:
//! pass or fail, what was checked (the layers, and the balancers ×
//! detectors the runs covered), the first cause of a failure with its
//! replay command and a link to its timeline, and how long it all took.

use std::fmt::Write;

use super::junit::layers;
use super::svg::escape;
use crate::base::Registered;
use crate::campaign::{Case, Profile, Report, Verdict};
use crate::protocol::{BalancerKind, DetectorKind};

/// Where the page shows the first failing run's timeline, if it does.
pub struct FailureLinks<'a> {
    /// The case whose run the timeline shows.
    pub case: &'a str,
    /// The Perfetto file beside the page, if written.
    pub perfetto: Option<&'a str>,
}

/// The front section.
pub fn section(r: &Report, links: Option<FailureLinks>) -> String {
    let verdict = if r.passed() { "PASS" } else { "FAIL" };
    let cls = if r.passed() { "pass" } else { "fail" };
    let mut out = format!("<header class=\"front {cls}\">\n<h1>lbcheck check: {verdict}</h1>\n");
    out += &headline(r);
    if let Some(c) = r.cases.iter().find(|c| c.verdict == Verdict::Fail) {
        out += &first_failure(c, links);
    }
    out += "<div class=\"checked\">\n";
    out += &layer_list(r);
    out += &pairs(r);
    out += "</div>\n";
    out += "<nav><a href=\"#layers\">layers</a> · <a href=\"#failures\">failures</a> · <a href=\"#papers\">papers</a> · <a href=\"#timelines\">timelines</a> · \
            <a href=\"#mutant-matrix\">mutant matrix</a> · <a href=\"#plots\">plots</a> · <a href=\"#all-cases\">all cases</a></nav>\n";
    out + "</header>\n"
}

/// "N cases: … in 2 min 31 s (quick profile, seed 1)", and the rerun command.
fn headline(r: &Report) -> String {
    let (pass, fail, skip) = (r.count(Verdict::Pass), r.count(Verdict::Fail), r.count(Verdict::Skip));
    let what = match fail {
        0 => format!("All {pass} cases that ran passed"),
        _ => format!("<b>{fail} of {} cases failed</b>, {pass} passed", pass + fail),
    };
    let profile = match r.profile {
        Profile::Full => {
            "full profile, the bounds suites at their quick profile: <code>lbcheck bounds --full</code> runs theirs"
                .into()
        }
        p => format!("{p:?} profile").to_lowercase(),
    };
    let mutant = r.mutant.as_deref().map(|m| format!(", checking mutant <code>{m}</code>")).unwrap_or_default();
    format!(
        "<p class=\"headline\">{what}, {skip} skipped, in {} ({profile}, seed {}{mutant}). Rerun: <code>{}</code></p>\n",
        duration(r.seconds),
        r.seed,
        escape(&r.replay)
    )
}

/// `2 min 31 s`, `4.2 s`.
pub fn duration(secs: f64) -> String {
    match secs {
        s if s >= 60.0 => format!("{} min {:02} s", (s / 60.0).floor(), (s % 60.0).floor()),
        s => format!("{s:.1} s"),
    }
}

/// The first failed case: its first cause, what failed, the replay command, the timeline link.
fn first_failure(c: &Case, links: Option<FailureLinks>) -> String {
    let cause = c.failed.first().map_or(String::new(), |f| format!("<b>{}</b> in ", escape(f)));
    let mut out = format!(
        "<div class=\"first-failure\"><p>First failure: {cause}<code>{}/{}</code>: {}</p>\n",
        c.layer,
        escape(&c.name),
        escape(&short(&c.detail))
    );
    if let Some(replay) = &c.replay {
        let _ = writeln!(out, "<p>Replay: <code>{}</code></p>", escape(replay));
    }
    if let Some(l) = links {
        let perfetto = l
            .perfetto
            .map(|p| format!(", <a href=\"{p}\">as Perfetto JSON</a> (ui.perfetto.dev: Open trace file)"))
            .unwrap_or_default();
        let _ = writeln!(out, "<p>Timeline: <a href=\"#timeline-failure\">the failing run <code>{}</code> beside its reference run</a>{perfetto}</p>", escape(l.case));
    }
    out + "</div>\n"
}

/// `s` cut at about 400 characters.
fn short(s: &str) -> String {
    match s.char_indices().nth(400) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The layers with their case counts, failed ones marked.
fn layer_list(r: &Report) -> String {
    let mut out = String::from("<p><b>Layers</b>: ");
    let items: Vec<String> = layers(r)
        .into_iter()
        .map(|layer| {
            let cases: Vec<&Case> = r.cases.iter().filter(|c| c.layer == layer).collect();
            let n = |v| cases.iter().filter(|c| c.verdict == v).count();
            let cls = if n(Verdict::Fail) > 0 {
                "fail"
            } else if n(Verdict::Pass) == 0 {
                "skip"
            } else {
                "pass"
            };
            format!("<span class=\"{cls}\">{layer} {}/{}</span>", n(Verdict::Pass), cases.len())
        })
        .collect();
    out += &items.join(" ");
    out + " <small>(passed/cases)</small></p>\n"
}

/// The balancers × detectors the `simulate`, `threads` and `explore`
/// layers ran, as a grid of case counts (failures marked).
fn pairs(r: &Report) -> String {
    let runs: Vec<(BalancerKind, DetectorKind, Verdict)> = r.cases.iter().filter_map(pair_of).collect();
    if runs.is_empty() {
        return String::new();
    }
    let detectors: Vec<DetectorKind> =
        DetectorKind::ALL.iter().copied().filter(|d| runs.iter().any(|(_, x, _)| x == d)).collect();
    let mut out = String::from("<table class=\"pairs\"><tr><th>runs: balancer \\ detector</th>");
    detectors.iter().for_each(|d| out += &format!("<th>{d}</th>"));
    out += "</tr>\n";
    for b in BalancerKind::ALL.iter().filter(|b| runs.iter().any(|(x, ..)| x == *b)) {
        let _ = write!(out, "<tr><th>{b}</th>");
        for d in &detectors {
            out += &cell(runs.iter().filter(|(x, y, _)| x == b && y == d).map(|r| r.2));
        }
        out += "</tr>\n";
    }
    out + "</table>\n"
}

/// A grid cell: how many runs, how many failed; "skipped" if none ran.
fn cell(verdicts: impl Iterator<Item = Verdict>) -> String {
    let (mut ran, mut failed, mut skipped) = (0, 0, 0);
    for v in verdicts {
        match v {
            Verdict::Pass => ran += 1,
            Verdict::Fail => (ran, failed) = (ran + 1, failed + 1),
            Verdict::Skip => skipped += 1,
        }
    }
    match (ran, failed, skipped) {
        (0, _, 0) => "<td></td>".into(),
        (0, _, _) => "<td class=\"skip\">skipped</td>".into(),
        (n, 0, _) => format!("<td class=\"pass\">{n}</td>"),
        (n, f, _) => format!("<td class=\"fail\">{f} of {n} failed</td>"),
    }
}

/// A run case's balancer and detector (its name starts `balancer/detector/`).
fn pair_of(c: &Case) -> Option<(BalancerKind, DetectorKind, Verdict)> {
    if !matches!(c.layer, "simulate" | "threads" | "explore") {
        return None;
    }
    let mut parts = c.name.split('/');
    let b = parts.next()?.parse().ok()?;
    let d = parts.next()?.parse().ok()?;
    Some((b, d, c.verdict))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(layer: &'static str, name: &str, v: Verdict, failed: &[&str]) -> Case {
        let failed = failed.iter().map(|s| s.to_string()).collect();
        Case {
            verdict: v,
            failed,
            replay: Some("lbcheck simulate --pes 4".into()),
            ..Case::skip(layer, name.into(), "why")
        }
    }

    #[test]
    fn says_what_failed_first_and_what_was_checked() {
        let cases = vec![
            case("simulate", "random-polling/energy/#0", Verdict::Pass, &[]),
            case("simulate", "random-polling/energy/#1", Verdict::Fail, &["work_conserved", "lower_bound"]),
            case("threads", "pacheco/safra/P=2/uts:default", Verdict::Pass, &[]),
            case("bounds", "t_par", Verdict::Fail, &["t_par"]),
            case("simulate", "simd-phase/barrier", Verdict::Skip, &[]),
        ];
        let r = Report {
            profile: Profile::Quick,
            seed: 7,
            mutant: Some("split-loses".into()),
            replay: "lbcheck check".into(),
            seconds: 151.0,
            cases,
            bounds: None,
            suites: vec![],
        };
        let html = section(
            &r,
            Some(FailureLinks {
                case: "simulate/random-polling/energy/#1",
                perfetto: Some("first-failure.perfetto.json"),
            }),
        );
        assert!(html.contains("lbcheck check: FAIL") && html.contains("<b>2 of 4 cases failed</b>"), "{html}");
        assert!(
            html.contains("in 2 min 31 s (quick profile, seed 7, checking mutant <code>split-loses</code>)"),
            "{html}"
        );
        assert!(
            html.contains("First failure: <b>work_conserved</b> in <code>simulate/random-polling/energy/#1</code>"),
            "{html}"
        );
        assert!(
            html.contains("Replay: <code>lbcheck simulate --pes 4</code>")
                && html.contains("href=\"#timeline-failure\""),
            "{html}"
        );
        assert!(html.contains("<td class=\"fail\">1 of 2 failed</td>") && html.contains("<th>safra</th>"), "{html}");
        assert!(html.contains("<span class=\"fail\">bounds 0/1</span>"), "{html}");
        assert!(html.contains("<th>simd-phase</th><td></td><td></td><td class=\"skip\">skipped</td>"), "{html}");
    }

    /// A full campaign's headline says its bounds suites ran quick (their
    /// full profiles are `lbcheck bounds --full`, too long for it).
    #[test]
    fn a_full_campaign_says_its_bounds_ran_quick() {
        let r = Report {
            profile: Profile::Full,
            seed: 1,
            mutant: None,
            replay: "lbcheck check --full".into(),
            seconds: 580.0,
            cases: vec![case("simulate", "random-polling/energy/#0", Verdict::Pass, &[])],
            bounds: None,
            suites: vec![],
        };
        let line = headline(&r);
        assert!(
            line.contains(
                "(full profile, the bounds suites at their quick profile: <code>lbcheck bounds --full</code> runs theirs, seed 1)"
            ),
            "{line}"
        );
    }

    #[test]
    fn durations_read_as_minutes_and_seconds() {
        assert_eq!((duration(4.24), duration(151.0)), ("4.2 s".to_string(), "2 min 31 s".to_string()));
    }
}
