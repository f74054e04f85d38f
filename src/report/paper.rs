//! One paper's page of `lbcheck reproduce PAPER`: a section per claim
//! that tests it, in the paper's order ([`crate::bounds::listing`]): the
//! statement with its § or equation, what was run, a plot of the test
//! runs against the fitted constant and the test's limit, the verdict with
//! its α, the mutants that fail it; then the constants the O() hides.

use std::fmt::Write;

use super::svg::escape;
use crate::bounds::claims::{Claim, ClaimVerdict};
use crate::bounds::listing::{mutants_shown, of_paper, Listed, LISTED};
use crate::bounds::plan::Profile;
use crate::bounds::Suite;
use crate::reproduce::papers::{configuration, SuiteRun};

/// How the suites were run, for every page.
pub struct Setting {
    /// Quick or full.
    pub profile: Profile,
    /// The seed base.
    pub seed: u64,
}

/// A paper's page, and whether every claim on it passed.
pub fn page(paper: &str, title: &str, runs: &[&SuiteRun], s: &Setting) -> (String, bool) {
    let mut body = String::new();
    let mut pass = true;
    for l in of_paper(paper) {
        let claim = runs.iter().find(|r| r.suite == l.suite).and_then(|&r| Some((r, find(r, l.name)?)));
        pass &= claim.is_some_and(|(_, c)| !c.failed()); // a claim not run neither passes nor fails
        body += &section(l, claim, s);
    }
    for (r, c) in unlisted(runs, paper) {
        pass = false;
        body += &format!(
            "<section class=\"claim fail\"><h2>{} ({}): not in the listing</h2><p>{}</p></section>\n",
            c.name,
            r.suite,
            escape(c.reference)
        );
    }
    body += &constants(runs);
    let verdict = if pass { "PASS" } else { "FAIL" };
    let head = format!(
        "<h1>{paper}: {} <span class=\"{}\">{verdict}</span></h1>\n<p>{} claims{}, {} profile, seed base {}; {}. Back to <a href=\"index.html\">the index</a>.</p>\n",
        escape(title),
        verdict.to_lowercase(),
        of_paper(paper).len(),
        not_run(paper, runs),
        format!("{:?}", s.profile).to_lowercase(),
        s.seed,
        timing(runs),
    );
    (html(&format!("{paper}: {verdict}"), &(head + &body)), pass)
}

/// ", N not run" for the page's claims this profile does not run (none: "").
fn not_run(paper: &str, runs: &[&SuiteRun]) -> String {
    let found = of_paper(paper).into_iter().filter_map(|l| find(runs.iter().find(|r| r.suite == l.suite)?, l.name));
    match found.filter(|c| c.verdict == ClaimVerdict::NotRun).count() {
        0 => String::new(),
        n => format!(" ({n} not run in this profile)"),
    }
}

fn find<'a>(r: &'a SuiteRun, name: &str) -> Option<&'a Claim> {
    r.claims.iter().find(|c| c.name == name)
}

/// Claims a suite checked that the listing does not name (shown, and failed: the listing is incomplete).
fn unlisted<'a>(runs: &[&'a SuiteRun], paper: &str) -> Vec<(&'a SuiteRun, &'a Claim)> {
    let listed = |r: &SuiteRun, c: &Claim| LISTED.iter().any(|l| l.suite == r.suite && l.name == c.name);
    let ours = |c: &Claim| c.reference.starts_with(paper);
    runs.iter().flat_map(|&r| r.claims.iter().map(move |c| (r, c))).filter(|(r, c)| !listed(r, c) && ours(c)).collect()
}

fn timing(runs: &[&SuiteRun]) -> String {
    let each: Vec<String> =
        runs.iter().map(|r| format!("{} suite: {} runs in {:.1} s", r.suite, r.runs, r.seconds)).collect();
    each.join(", ")
}

/// A page around `body`.
pub fn html(title: &str, body: &str) -> String {
    format!("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n", escape(title))
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
.pass{background:#e6f4e6}.fail{background:#fbe3e3}section.claim{border-left:4px solid #ccc;padding:0 1em;margin:1.5em 0}\
section.pass{border-color:#3a3;background:none}section.fail{border-color:#c33;background:none}\
.skip{background:#e4e4e4;color:#555}section.skip{border-color:#999;background:none;color:inherit}\
.statement{font-style:italic}figure{margin:.5em 0}figcaption{font-size:90%;color:#333;max-width:60em}";

/// A claim's section; `None`: the suite did not check it.
fn section(l: &Listed, found: Option<(&SuiteRun, &Claim)>, s: &Setting) -> String {
    let (cls, verdict) = match found {
        Some((_, c)) => (class(c.verdict), c.verdict.label()),
        None => ("fail", "NOT CHECKED"),
    };
    let mut out = format!(
        "<section class=\"claim {cls}\" id=\"{}-{}\">\n<h2>{}: <code>{}</code> <small>({} suite)</small> <span class=\"{cls}\">{verdict}</span></h2>\n<p class=\"statement\">{}</p>\n",
        l.suite, l.name, escape(l.at), l.name, l.suite, escape(l.statement)
    );
    if let Some((r, c)) = found {
        out += &ran(r, c, s);
        out += &super::claim_plot::figure(l.at, c);
        out += &verdict_table(c);
    }
    out += &mutants(l);
    out + "</section>\n"
}

fn ran(r: &SuiteRun, c: &Claim, s: &Setting) -> String {
    let sizes = c.plot.as_ref().map(|p| {
        let xs = p.points.iter().map(|(x, _)| *x);
        let (lo, hi) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        format!(", {} = {lo} … {hi}", if l_is_h(c) { "h" } else { "P" })
    });
    let mutant = r.mutant.map(|m| format!("; test runs with the mutant <code>{m}</code>")).unwrap_or_default();
    let cap = r.max_pes.map(|p| format!(" (P ≤ {p})")).unwrap_or_default();
    format!(
        "<p class=\"ran\"><b>Run</b>: {}{cap}; {} profile, seed base {}{mutant}; constants fitted on calibration runs of the reference, checked on {} test runs or grid points{}. Replay: <code>{}</code></p>\n",
        escape(configuration(r.suite, s.profile)),
        format!("{:?}", s.profile).to_lowercase(),
        s.seed,
        c.n,
        sizes.unwrap_or_default(),
        escape(&r.replay)
    )
}

fn l_is_h(c: &Claim) -> bool {
    c.name.ends_with("_trend_h")
}

/// The CSS class of a verdict: a claim not run is grey (`skip`, as a
/// skipped case of the campaign's page).
fn class(v: ClaimVerdict) -> &'static str {
    match v {
        ClaimVerdict::Pass => "pass",
        ClaimVerdict::Fail => "fail",
        ClaimVerdict::NotRun | ClaimVerdict::Refused => "skip",
    }
}

fn verdict_table(c: &Claim) -> String {
    let alpha = c.alpha.map_or("exact (no α)".into(), |a| format!("{a:.1e}"));
    let verdict = c.verdict.label();
    let rows = [("measured", c.measured.as_str()), ("bound", &c.bound), ("confidence interval", &c.ci)];
    let mut out = String::from("<table class=\"verdict\">");
    for (k, v) in rows {
        let _ = write!(out, "<tr><th>{k}</th><td>{}</td></tr>", escape(v));
    }
    let cls = class(c.verdict);
    let _ =
        write!(out, "<tr><th>α</th><td>{alpha}</td></tr><tr><th>verdict</th><td class=\"{cls}\">{verdict}</td></tr>");
    out + "</table>\n"
}

fn mutants(l: &Listed) -> String {
    let ms = mutants_shown(l);
    if ms.is_empty() {
        return "<p class=\"mutants\">No catalogue mutant is listed as failing this claim.</p>\n".into();
    }
    let each: Vec<String> = ms
        .iter()
        .map(|m| format!("<code>{m}</code> (<code>lbcheck bounds --balancer {} --quick --mutant {m}</code>)", l.suite))
        .collect();
    format!("<p class=\"mutants\">Failed by: {}</p>\n", each.join("; "))
}

/// The constants each suite fitted: one row per number in its constants.
fn constants(runs: &[&SuiteRun]) -> String {
    let mut out = String::from("<h2 id=\"constants\">The constants the O() hides</h2>\n<p>Fitted on the calibration runs of the reference (the largest normalised value); no peer publishes these.</p>\n<table><tr><th>suite</th><th>constant</th><th>value</th><th>what it is</th></tr>\n");
    for r in runs {
        for (key, v) in flatten("", &r.constants) {
            let Some(what) = meaning(r.suite, &key) else { continue };
            let _ =
                writeln!(out, "<tr><td>{}</td><td><code>{key}</code></td><td>{v:.4}</td><td>{what}</td></tr>", r.suite);
        }
    }
    out + "</table>\n"
}

fn flatten(prefix: &str, v: &serde_json::Value) -> Vec<(String, f64)> {
    match v {
        serde_json::Value::Object(m) => m
            .iter()
            .flat_map(|(k, v)| flatten(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, v))
            .collect(),
        serde_json::Value::Number(n) => n.as_f64().map(|x| vec![(prefix.to_string(), x)]).unwrap_or_default(),
        _ => vec![],
    }
}

/// What a fitted constant is (`None`: a count the suite reports, not a constant).
fn meaning(suite: Suite, key: &str) -> Option<&'static str> {
    Some(match (suite, key.split('.').next().unwrap_or("")) {
        (_, "left_out_n_below_p2_log_p" | "v_p_runs") => return None,
        (_, "c_t_par") => "C of 001 Thm 1: T_par − (1+ε)T_seq/P in units of T_atomic + h(Δt + T_rout + T_split)",
        (_, "c_gen") => "c of 001 Lemma 3: requests until generation h, per P·h",
        (_, "c_traffic") => "002 Thm 1's O(P·h): messages per P·h",
        (_, "c_remaining") => {
            "001 Lemma 6: the time from generation h everywhere to the end, in units of T_atomic + h(Δt + T_split + T_rout)"
        }
        (_, "c_thm2") => "001 Thm 2's constant with queues trimmed at ⌈√P⌉ (over the PEs' capacity)",
        (Suite::RandomDestination, "k") => "k of 004 Thm 1: T ≤ k(n/p + h)",
        (Suite::PriorityBnb, "k") => "k of 004 Thm 2: T ≤ k(n/p + h) of the critical subtree",
        (Suite::Scatter, "k") => "k of 004 Thm 3: T ≤ k·m",
        (Suite::SyncRandomPolling, "k") => {
            "C of synchronous random polling (001 §1.3): T_par − (1+ε)T_seq/P in units of T_atomic + h·T_round"
        }
        (Suite::Pacheco, "k") => {
            "C of global round robin's T_par (003 §14.7.3), in units of T_atomic + h(4T_rout + Δt + T_split)"
        }
        (_, "k") => "k of 000 Thms 1-4: T_par − T_seq/n in units of T_atomic + h(T_phase + c_poll + T_perm/L)",
        (_, "k_by_arbiter") => "k under one arbiter",
        (_, "k_rp") => "random polling's R_d on the same network (000 §1.1)",
        (_, "k_adaptive") => "000 Thm 5's constant (the adaptive trigger)",
        (_, "rp_vs_pas_slope") => "random polling's excess over poll-and-shuffle per doubling of n",
        (_, "v_p_over_p_mean") => "mean V(P)/P of global round robin (exactly 1 − s/P)",
        _ => "",
    })
}

/// The index of the pages written: (paper, title, passed).
pub fn index(pages: &[(&str, &str, bool)], s: &Setting) -> String {
    let all = pages.iter().all(|p| p.2);
    let mut body = format!(
        "<h1>lbcheck reproduce: {}</h1>\n<p>The papers' claims as `lbcheck bounds` checks them ({} profile, seed base {}), one page per paper.</p>\n<table><tr><th>paper</th><th>claims</th><th>verdict</th></tr>\n",
        if all { "PASS" } else { "FAIL" },
        format!("{:?}", s.profile).to_lowercase(),
        s.seed
    );
    for (p, title, pass) in pages {
        let (cls, v) = if *pass { ("pass", "PASS") } else { ("fail", "FAIL") };
        let _ = writeln!(
            body,
            "<tr class=\"{cls}\"><td><a href=\"{p}.html\">{p}: {}</a></td><td>{}</td><td>{v}</td></tr>",
            escape(title),
            of_paper(p).len()
        );
    }
    html("lbcheck reproduce", &(body + "</table>\n"))
}
