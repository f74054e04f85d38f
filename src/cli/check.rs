//! `lbcheck check`: the campaign over every registered reference and every
//! layer (lbcheck::campaign), with a progress display, a summary table and
//! the report (`report.json`, `junit.xml`, `index.html`) in `--out`; with
//! `--mpi` under `mpirun`, split over the ranks (`check_mpi.rs`); with
//! `--impl CMD`, a user's program as the implementation (`check_impl.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::bounds::plan::CI_SEED_BASE;
use lbcheck::campaign::{self, Options, Profile, Report};
use lbcheck::mutants::Mutant;
use lbcheck::report;

use super::args::kind;
use super::progress::Display;

#[derive(Args, Debug)]
#[command(after_help = "Over MPI (an lbcheck built with `cargo build --release --features mpi`):\n  \
    mpirun -np 2 target/release/lbcheck check --mpi --quick\n(as root: mpirun --allow-run-as-root --oversubscribe ...). \
    Each rank runs its share of the cases; rank 0 writes the report, the same verdicts as one process's.")]
pub struct CheckArgs {
    /// The quick profile (the default; a few minutes at most on 2 cores).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The full profile: ten times the swarm, P up to 1024, more seeds explored (the bounds suites stay quick: their full profiles are `lbcheck bounds --full`, scripts/nightly.sh).
    #[arg(long)]
    full: bool,
    /// Only cases whose LAYER/NAME contains one of these (comma-separated;
    /// layers: simulate, threads, bounds, explore, bitonic, mutants, loom, spin, coq).
    #[arg(long, value_delimiter = ',', value_name = "PATTERN", value_parser = pattern)]
    pub only: Vec<String>,
    /// Check this mutant as the implementation under test: the campaign must fail.
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
    /// Only machines with P in LO-HI (the simulate and threads layers;
    /// e.g. `2-8`, or `4` alone).
    #[arg(long, value_name = "LO-HI", value_parser = pes_range)]
    pub pes: Option<std::ops::RangeInclusive<u32>>,
    /// Base seed of every run (CI uses 1; fresh values rerun on fresh seeds).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = CI_SEED_BASE)]
    pub seed: u64,
    /// Where to write report.json, junit.xml and index.html.
    #[arg(long, value_name = "DIR", default_value = "lbcheck-report")]
    pub out: PathBuf,
    /// Print the report as JSON instead of the summary table.
    #[arg(long)]
    json: bool,
    /// Split the campaign over the ranks of `mpirun -np N lbcheck check
    /// --mpi` (needs an lbcheck built with `--features mpi`): every rank
    /// runs its share of the cases, rank 0 gathers them and writes the
    /// report, the single-process one's verdicts in the same order; every
    /// rank exits with rank 0's code. Without mpirun: one rank, the whole
    /// campaign.
    #[arg(long)]
    pub mpi: bool,
    /// `--impl CMD`: a user's program as the implementation under test.
    #[command(flatten)]
    pub implementation: super::check_impl::ImplArgs,
}

/// An `--only` pattern: not empty (it would match every case).
fn pattern(s: &str) -> Result<String, String> {
    match s.trim().is_empty() {
        true => Err("an empty pattern would match every case: name a layer (simulate, threads, bounds, explore, bitonic, mutants, loom, spin, coq) or a part of a case's name".into()),
        false => Ok(s.to_string()),
    }
}

/// A `--pes` range: `LO-HI` or `P`, with 1 <= LO <= HI.
fn pes_range(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let num = |v: &str| v.trim().parse::<u32>().map_err(|_| format!("`{s}` is not LO-HI (e.g. 2-8) or P"));
    let (lo, hi) = (num(lo)?, num(hi)?);
    match 1 <= lo && lo <= hi {
        true => Ok(lo..=hi),
        false => Err(format!("`{s}`: need 1 <= LO <= HI")),
    }
}

impl CheckArgs {
    /// The campaign's options.
    pub fn options(&self) -> Options {
        let profile = if self.full { Profile::Full } else { Profile::Quick };
        Options { profile, seed: self.seed, only: self.only.clone(), mutant: self.mutant, pes: self.pes.clone() }
    }
}

pub fn run(a: CheckArgs) -> anyhow::Result<ExitCode> {
    let o = a.options();
    let display = Display::new();
    let r = campaign::run(&o, &display);
    display.finish();
    Ok(ExitCode::from(finish(&r, &a)?))
}

/// Writes the report, prints the summary (or the JSON) and the failures:
/// the exit code (0 every case passed, 1 one failed).
pub fn finish(r: &Report, a: &CheckArgs) -> anyhow::Result<u8> {
    let o = a.options();
    if r.cases.is_empty() {
        let layers = match a.implementation.command {
            Some(_) => "impl, compare",
            None => "simulate, threads, bounds, explore, bitonic, mutants, loom, spin, coq",
        };
        bail!("no case matches --only {}; layers: {layers}", o.only.join(","));
    }
    if let Some(m) = o.mutant.filter(|_| r.cases.iter().all(|c| c.verdict == campaign::Verdict::Skip)) {
        let why = r.cases.first().map(|c| c.detail.as_str()).unwrap_or_default();
        bail!("mutant `{m}` acts in none of the {} cases of --only {} (the first skipped: {why}); `lbcheck mutants` says where it acts", r.cases.len(), o.only.join(","));
    }
    report::campaign::write(r, &a.out).with_context(|| format!("writing the report to {}", a.out.display()))?;
    match a.json {
        true => report::emit(&format!("{}\n", serde_json::to_string_pretty(r)?))?,
        false => {
            report::emit(&format!("{}report: {}\n", report::campaign::summary(r), a.out.join("index.html").display()))?
        }
    }
    eprint!("{}", report::campaign::failures(r));
    Ok(if r.passed() { 0 } else { 1 })
}
