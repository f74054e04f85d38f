//! `lbcheck check --impl CMD`: the campaign with a user's program, in any
//! language, as the implementation under test
//! ([`lbcheck::campaign::external_impl`]): its flags, the campaign's
//! replay command, and the same report as `lbcheck check`'s.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use lbcheck::campaign::external_impl::command::{shell_word, Template};
use lbcheck::campaign::external_impl::configs::{Accepted, Setup};
use lbcheck::campaign::external_impl::{self as ext, CompareOptions, ImplOptions};
use lbcheck::protocol::{BalancerKind, DetectorKind};

use super::args::kind;
use super::check::CheckArgs;
use super::progress::Display;

/// The flags of `check --impl` (each needs `--impl`).
#[derive(Args, Debug)]
pub struct ImplArgs {
    /// Your program as the implementation under test: the command that makes
    /// one run, with placeholders {pes} {seed} {workload} {termination} {dt}
    /// {t_split} {latency} (as a..b) {trace} (the path to write the trace to;
    /// without it standard output is the trace) {spec} (the run's RunSpec as
    /// JSON); the same values are in LBCHECK_* variables. No shell: quote with
    /// '...'; a value with spaces stays one argument.
    #[arg(long = "impl", value_name = "CMD", conflicts_with_all = ["mutant", "full", "mpi"])]
    pub command: Option<String>,
    /// The balancer your program implements (selects the reference and its claims).
    #[arg(long, requires = "command", value_parser = kind::<BalancerKind>)]
    pub balancer: Option<BalancerKind>,
    /// The termination detector your program implements.
    #[arg(long, requires = "command", value_parser = kind::<DetectorKind>)]
    pub termination: Option<DetectorKind>,
    /// A workload your program accepts: a family (`uts`, `synthetic`, `loop`)
    /// or a concrete workload (`synthetic:size=20000,split=balanced`); repeatable.
    #[arg(long = "impl-workload", value_name = "W", requires = "command")]
    pub workloads: Vec<String>,
    /// The largest P to run your program with.
    #[arg(long = "impl-max-pes", value_name = "N", requires = "command")]
    pub max_pes: Option<u32>,
    /// Runs in all, in groups of 20 configurations' seeds (compare's least sample).
    #[arg(long = "impl-runs", value_name = "N", default_value_t = 40, requires = "command")]
    pub runs: u32,
    /// Seconds one run may take; then its process group is killed and the case fails.
    #[arg(long = "impl-timeout", value_name = "SECS", default_value_t = 60.0, requires = "command")]
    pub timeout: f64,
    /// Runs at a time (default: the core count).
    #[arg(short = 'j', long = "jobs", value_name = "N", requires = "command")]
    pub jobs: Option<usize>,
    /// A statistically slower implementation passes (its verdict still says
    /// "slower"), and so do failed `t_par` and `remaining_time` bounds.
    #[arg(long, requires = "command")]
    pub allow_slower: bool,
    /// Any compared quantity significantly worse fails (messages, detection delay), not only efficiency.
    #[arg(long = "compare-strict", requires = "command")]
    pub strict: bool,
    /// Also fail your program if its T_par is significantly longer than this
    /// balancer's on the same configurations (any balancer of 001's
    /// asynchronous machine, e.g. random-polling: `lbcheck list`): one more
    /// compare case per group, Mann–Whitney at --alpha; --allow-slower does
    /// not waive it.
    #[arg(long = "no-slower-than", value_name = "REFERENCE", requires = "command", value_parser = kind::<BalancerKind>)]
    pub no_slower_than: Option<BalancerKind>,
    /// compare's family-wise false-alarm probability.
    #[arg(long, default_value_t = 0.01, requires = "command")]
    pub alpha: f64,
}

/// Runs `check --impl`.
pub fn run(a: CheckArgs) -> anyhow::Result<ExitCode> {
    let o = options(&a)?;
    let groups = ext::plan(&o)?;
    let display = Display::new();
    let r = ext::run(&o, &groups, &display);
    display.finish();
    Ok(ExitCode::from(super::check::finish(&r, &a)?))
}

/// The campaign's options from the flags (bad values: exit 2).
fn options(a: &CheckArgs) -> anyhow::Result<ImplOptions> {
    let i = &a.implementation;
    let command = Template::parse(i.command.as_deref().unwrap_or_default())?;
    let (Some(balancer), Some(detector)) = (i.balancer, i.termination) else {
        bail!("--impl needs --balancer KIND and --termination KIND: what your program implements (`lbcheck list` shows the kinds)")
    };
    let day = lbcheck::runtime::threads::MAX_TIMEOUT_SECS as f64; // Duration::from_secs_f64 panics past u64 seconds
    if !(i.timeout > 0.0 && i.timeout <= day) || i.runs == 0 || i.jobs == Some(0) {
        bail!("--impl-timeout must be in 0 < SECS <= {day} (a day), --impl-runs and -j at least 1");
    }
    if !(i.alpha > 0.0 && i.alpha < 1.0) {
        bail!("0 < --alpha < 1 (got {})", i.alpha);
    }
    let accepted = Accepted::parse(&i.workloads)?;
    let setup = Setup { balancer, detector, accepted, max_pes: i.max_pes, runs: i.runs, seed: a.seed };
    let jobs = i.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    std::fs::create_dir_all(&a.out).with_context(|| format!("cannot create --out {}", a.out.display()))?;
    Ok(ImplOptions {
        command,
        setup,
        timeout: Duration::from_secs_f64(i.timeout),
        jobs,
        compare: CompareOptions {
            alpha: i.alpha,
            allow_slower: i.allow_slower,
            strict: i.strict,
            seed: a.seed,
            jobs,
            no_slower_than: i.no_slower_than,
        },
        out: a.out.clone(),
        only: a.only.clone(),
        replay: replay(a, balancer, detector),
    })
}

/// The command that reruns the campaign.
fn replay(a: &CheckArgs, b: BalancerKind, d: DetectorKind) -> String {
    let i = &a.implementation;
    let mut words = vec![
        "lbcheck check --impl".to_string(),
        shell_word(i.command.as_deref().unwrap_or_default()),
        format!("--balancer {b} --termination {d}"),
    ];
    words.extend(i.workloads.iter().map(|w| format!("--impl-workload {}", shell_word(w))));
    words.extend(i.max_pes.map(|p| format!("--impl-max-pes {p}")));
    words.push(format!("--impl-runs {} --impl-timeout {} --seed {}", i.runs, i.timeout, a.seed));
    if i.allow_slower {
        words.push("--allow-slower".into());
    }
    if i.strict {
        words.push("--compare-strict".into());
    }
    words.extend(i.no_slower_than.map(|k| format!("--no-slower-than {k}")));
    if a.out != Path::new("lbcheck-report") {
        words.push(format!("--out {}", shell_word(&a.out.display().to_string())));
    }
    words.join(" ")
}
