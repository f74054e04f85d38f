//! `lbcheck reproduce 000` … `004`, `reproduce all`: the bound suites
//! whose claims test the papers, run once each
//! ([`lbcheck::reproduce::papers`]), one HTML page per paper
//! ([`lbcheck::report::paper`]) and an index; exit 1 if a claim fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::base::Registered;
use lbcheck::bounds::listing::{of_paper, suites_of, PAPERS};
use lbcheck::bounds::plan::{Profile, CI_SEED_BASE};
use lbcheck::bounds::Suite;
use lbcheck::mutants::Mutant;
use lbcheck::report::paper::{self, Setting};
use lbcheck::reproduce::papers::{self as runs, SuiteRun};

use super::args::kind;

#[derive(Args, Debug)]
pub struct PaperArgs {
    /// The directory the pages go to (created): PAPER.html and index.html.
    #[arg(long, default_value = "lbcheck-reproduce")]
    out: PathBuf,
    /// The bound suites' full profile (default: quick).
    #[arg(long)]
    full: bool,
    /// Base of every run's seed (CI uses 1).
    #[arg(long, default_value_t = CI_SEED_BASE)]
    seed_base: u64,
    /// Run the suites' test runs with this mutant, where it acts (the pages
    /// then show the claims it fails).
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
}

/// Runs the suites of `papers`, writes their pages; exit 1 if a claim failed.
pub fn run(papers: &[&str], a: &PaperArgs) -> anyhow::Result<ExitCode> {
    let suites: Vec<Suite> =
        Suite::ALL.iter().copied().filter(|s| papers.iter().any(|p| suites_of(p).contains(s))).collect();
    if let Some(m) = a.mutant {
        if suites.iter().all(|s| s.refuses(m).is_some()) {
            bail!(
                "mutant `{m}` acts in none of the suites of {} (`lbcheck bounds --list` names each claim's suite)",
                papers.join(", ")
            );
        }
    }
    std::fs::create_dir_all(&a.out).with_context(|| format!("writing the pages to {}", a.out.display()))?;
    let s = Setting { profile: if a.full { Profile::Full } else { Profile::Quick }, seed: a.seed_base };
    let done: Vec<SuiteRun> = suites.iter().map(|&suite| one(suite, &s, a.mutant)).collect();
    let mut pages = Vec::new();
    for &p in papers {
        let title = PAPERS.iter().find(|(q, _)| *q == p).map_or("", |(_, t)| t);
        let mine: Vec<&SuiteRun> = done.iter().filter(|r| suites_of(p).contains(&r.suite)).collect();
        let (html, pass) = paper::page(p, title, &mine, &s);
        write(&a.out.join(format!("{p}.html")), &html)?;
        println!(
            "{p}: {} claims, {} — {}",
            of_paper(p).len(),
            if pass { "PASS" } else { "FAIL" },
            a.out.join(format!("{p}.html")).display()
        );
        pages.push((p, title, pass));
    }
    write(&a.out.join("index.html"), &paper::index(&pages, &s))?;
    failures(&done);
    Ok(if pages.iter().all(|p| p.2) { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn one(suite: Suite, s: &Setting, mutant: Option<Mutant>) -> SuiteRun {
    eprintln!("running the {suite} bounds suite …");
    runs::run(suite, s.profile, s.seed, mutant)
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Names every failed claim and its replay command on stderr.
fn failures(done: &[SuiteRun]) {
    for r in done {
        for c in r.claims.iter().filter(|c| c.failed()) {
            eprintln!(
                "FAILED {}/{} ({}): {} vs {}\nreplay with: {}",
                r.suite, c.name, c.reference, c.measured, c.bound, r.replay
            );
        }
    }
}
