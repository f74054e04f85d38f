//! `lbcheck check --impl CMD`: the campaign with a user's program, in any
//! language, as the implementation under test (../shared/ARCHITECTURE.md
//! "The run specification and the implementation under test").
//!
//! For each configuration of a swarm ([`configs`]: the references'
//! generator restricted to what the program accepts) lbcheck runs CMD
//! ([`command`]: placeholders substituted word by word, the same values in
//! `LBCHECK_*` variables, no shell) in a process group of its own with a
//! timeout ([`child`]), and checks the trace it wrote ([`trace`]) against
//! every property. Layers, each a list of [`Case`]s:
//! - `impl`: one case per run. A timeout, a non-zero exit, a crash, a
//!   missing or malformed trace, a header that does not name the run, or a
//!   failed property fails it, with the exit status, the tail of standard
//!   error and the one command that re-runs exactly that run. When the
//!   first runs all end without a trace (a program that cannot run at
//!   all), the others are not started.
//! - `compare` (`compare.rs`): per group, the runs against the declared
//!   reference on the same configuration; a statistically slower
//!   implementation fails unless allowed. With `--no-slower-than
//!   REFERENCE` (`no_slower.rs`) a second case per group tests T_par
//!   against the named reference's, and fails a slower program.
//!
//! Each run's files (`spec.json`, the trace, standard output and error)
//! are in `OUT/runs/GROUP/RUN/`; those of passing runs are removed.

mod bounds;
pub mod child;
pub mod command;
mod compare;
pub mod configs;
mod no_slower;
pub mod trace;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use compare::CompareOptions;

use super::{Case, Point, Profile, Progress, Report, Verdict};
use crate::check::{Metrics, Reference};
use crate::harness::{reference, Driver, RunSpec};
use command::{Placeholder, Template, Values};
use configs::Group;

/// Everything `check --impl` needs.
#[derive(Clone, Debug)]
pub struct ImplOptions {
    /// The command that makes one run.
    pub command: Template,
    /// What to draw.
    pub setup: configs::Setup,
    /// How long one run may take.
    pub timeout: Duration,
    /// Runs at a time.
    pub jobs: usize,
    /// How to compare with the reference.
    pub compare: CompareOptions,
    /// The report's directory (the runs' files go to its `runs/`).
    pub out: PathBuf,
    /// Only cases whose `layer/name` contains one of these (all if empty).
    pub only: Vec<String>,
    /// The command that reruns the campaign.
    pub replay: String,
}

/// Why `check --impl` cannot start (bad input: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum ImplError {
    /// The command.
    #[error(transparent)]
    Command(#[from] command::TemplateError),
    /// The declared protocols or workloads.
    #[error(transparent)]
    Config(#[from] configs::ConfigError),
}

/// Checks the command against what it must pass and draws the groups.
pub fn plan(o: &ImplOptions) -> Result<Vec<Group>, ImplError> {
    o.command.check_needs(o.setup.accepted.one_workload())?;
    let groups = configs::groups(&o.setup)?;
    if let Some(k) = o.compare.no_slower_than {
        groups.iter().try_for_each(|g| no_slower::fits(g, k))?;
    }
    Ok(groups)
}

/// One run to make.
struct Job<'g> {
    group: &'g Group,
    index: usize,
    name: String,
}

/// What one run gave.
struct Done {
    case: Case,
    /// A run whose trace passed every property.
    clean: Option<bounds::Run>,
}

/// Runs the campaign over `groups` (from [`plan`]), telling `progress`.
pub fn run(o: &ImplOptions, groups: &[Group], progress: &dyn Progress) -> Report {
    let start = Instant::now();
    let jobs: Vec<Job> = interleaved(groups).into_iter().filter(|j| selects(o, "impl", &j.name)).collect();
    let references: Vec<Reference> = groups.iter().map(|g| reference(&g.spec.workload, g.spec.split)).collect();
    progress.start("impl", jobs.len());
    let watch = Watch::new(groups.len().max(2).min(jobs.len().max(1)));
    let done: Vec<Done> = each(jobs.len(), o.jobs, |i| {
        let job = &jobs[i];
        let g = groups.iter().position(|g| std::ptr::eq(g, job.group)).expect("the job's group");
        let d = run_job(o, job, &references[g], &watch);
        progress.done("impl", &d.case);
        d
    });
    let mut cases: Vec<Case> = done.iter().map(|d| d.case.clone()).collect();
    cases.extend(compare_layer(o, groups, &jobs, &done, progress));
    Report {
        profile: Profile::Quick,
        seed: o.setup.seed,
        mutant: None,
        replay: o.replay.clone(),
        seconds: start.elapsed().as_secs_f64(),
        cases,
        bounds: None,
        suites: vec![],
    }
}

fn selects(o: &ImplOptions, layer: &str, name: &str) -> bool {
    let full = format!("{layer}/{name}");
    o.only.is_empty() || o.only.iter().any(|p| full.contains(p.as_str()))
}

/// The runs, group by group in turn (run 0 of every group first), so that
/// the first runs span the configurations.
fn interleaved(groups: &[Group]) -> Vec<Job<'_>> {
    let most = groups.iter().map(|g| g.seeds.len()).max().unwrap_or(0);
    let mut jobs = Vec::new();
    for index in 0..most {
        for group in groups.iter().filter(|g| index < g.seeds.len()) {
            let Driver::Sim(c) = &group.spec.driver else { unreachable!("external runs are on 001's machine") };
            let name = format!("{}/{}/P={}/#{index}", group.label, group.spec.workload, c.pes);
            jobs.push(Job { group, index, name });
        }
    }
    jobs
}

/// The `compare` layer: one case per group, from its clean runs.
fn compare_layer(o: &ImplOptions, groups: &[Group], jobs: &[Job], done: &[Done], p: &dyn Progress) -> Vec<Case> {
    let selected: Vec<&Group> = groups.iter().filter(|g| selects(o, "compare", &g.label)).collect();
    p.start("compare", selected.len() * (1 + usize::from(o.compare.no_slower_than.is_some())));
    selected
        .into_iter()
        .flat_map(|g| {
            let mine = jobs.iter().zip(done).filter(|(j, _)| std::ptr::eq(j.group, g));
            let runs = mine.clone().count();
            let clean: Vec<bounds::Run> = mine.filter_map(|(_, d)| d.clean.clone()).collect();
            let mut cases = vec![compare::case(g, &clean, runs, &o.compare)];
            cases.extend(o.compare.no_slower_than.map(|k| no_slower::case(g, &clean, k, &o.compare)));
            cases.iter().for_each(|c| p.done("compare", c));
            cases
        })
        .collect()
}

/// Stops the campaign early when the first runs all end without a trace.
struct Watch {
    traced: AtomicUsize,
    broken: AtomicUsize,
    stop: AtomicBool,
    threshold: usize,
}

impl Watch {
    fn new(threshold: usize) -> Watch {
        Watch { traced: AtomicUsize::new(0), broken: AtomicUsize::new(0), stop: AtomicBool::new(false), threshold }
    }

    /// A run ended, with a trace or without.
    fn note(&self, traced: bool) {
        if traced {
            self.traced.fetch_add(1, Ordering::SeqCst);
            return;
        }
        let broken = self.broken.fetch_add(1, Ordering::SeqCst) + 1;
        if self.traced.load(Ordering::SeqCst) == 0 && broken >= self.threshold {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// Runs `f(0..n)` on up to `threads` threads, taking indices in order;
/// results come back in index order.
pub(crate) fn each<R: Send>(n: usize, threads: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= n {
                    break;
                }
                let r = f(i);
                results.lock().expect("not poisoned")[i] = Some(r);
            });
        }
    });
    results.into_inner().expect("not poisoned").into_iter().map(|r| r.expect("every index ran")).collect()
}

/// The files of one run.
struct Files {
    dir: PathBuf,
    spec: PathBuf,
    trace: PathBuf,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl Files {
    /// `OUT/runs/GROUP/RUN/`, created (absolute, for the replay command).
    fn of(o: &ImplOptions, job: &Job) -> std::io::Result<Files> {
        let dir = o.out.join("runs").join(&job.group.label).join(job.index.to_string());
        std::fs::create_dir_all(&dir)?;
        let dir = dir.canonicalize()?;
        let trace = dir.join("trace.jsonl");
        let stdout = if o.command.uses(Placeholder::Trace) { dir.join("stdout.txt") } else { trace.clone() };
        let (spec, stderr) = (dir.join("spec.json"), dir.join("stderr.txt"));
        let _ = std::fs::remove_file(&trace); // a trace of an earlier campaign is not this run's
        Ok(Files { dir, spec, trace, stdout, stderr })
    }
}

/// Makes one run and checks its trace.
fn run_job(o: &ImplOptions, job: &Job, reference: &Reference, watch: &Watch) -> Done {
    let spec = job.group.run_spec(job.index);
    if watch.stopped() {
        let why = format!(
            "not run: the first {} runs all ended without a trace (see their cases); fix those first",
            watch.threshold
        );
        return Done { case: Case::skip("impl", job.name.clone(), why), clean: None };
    }
    let start = Instant::now();
    let files = match Files::of(o, job).and_then(|f| write_spec(&f.spec, &spec).map(|_| f)) {
        Ok(f) => f,
        Err(e) => return Done { case: io_failure(job, e), clean: None },
    };
    let values = values(&spec, &files);
    let argv = o.command.argv(&values);
    let output = child::Output { stdout: &files.stdout, stderr: &files.stderr };
    let exit = child::run(&argv, &command::env(&values), &output, o.timeout);
    let ended = matches!(exit, child::Exit::Code(_) | child::Exit::Signal(_));
    let checked = if ended { trace::check(&files.trace, &spec, reference) } else { trace::Checked::default() };
    let traced = checked.metrics.is_some();
    watch.note(traced);
    let secs = start.elapsed().as_secs_f64();
    let ran = Ran { job, files: &files, argv: &argv, values: &values, exit: &exit, checked: &checked, secs };
    let case = case_of(o, &ran);
    if case.verdict == Verdict::Pass {
        let _ = std::fs::remove_dir_all(&files.dir);
    }
    let run = |metrics: &Metrics| bounds::Run { metrics: metrics.clone(), at_h: checked.at_h };
    let clean = checked.metrics.as_ref().filter(|_| exit.success() && checked.clean()).map(run);
    Done { case, clean }
}

fn write_spec(path: &Path, spec: &RunSpec) -> std::io::Result<()> {
    std::fs::write(path, serde_json::to_string_pretty(spec).expect("a run specification is JSON") + "\n")
}

fn io_failure(job: &Job, e: std::io::Error) -> Case {
    let detail = format!("cannot prepare the run's files: {e}");
    Case { verdict: Verdict::Fail, failed: vec!["io".into()], ..Case::skip("impl", job.name.clone(), detail) }
}

/// The values of the run's placeholders.
fn values(spec: &RunSpec, files: &Files) -> Values {
    let Driver::Sim(c) = &spec.driver else { unreachable!("external runs are on 001's machine") };
    let (a, b) = c.latency.unwrap_or((c.t_rout, c.t_rout));
    let path = |p: &Path| p.display().to_string();
    Values::from([
        (Placeholder::Pes, c.pes.to_string()),
        (Placeholder::Seed, c.seed.to_string()),
        (Placeholder::Workload, spec.workload.to_string()),
        (Placeholder::Termination, spec.detector.to_string()),
        (Placeholder::Dt, c.dt.to_string()),
        (Placeholder::TSplit, c.t_split.to_string()),
        (Placeholder::Latency, format!("{a}..{b}")),
        (Placeholder::Trace, path(&files.trace)),
        (Placeholder::Spec, path(&files.spec)),
    ])
}

/// The command that re-runs exactly this run: the `LBCHECK_*` variables
/// the command does not pass as placeholders, the program and its
/// arguments, and `> TRACE` when standard output is the trace.
fn replay(o: &ImplOptions, argv: &[String], values: &Values, files: &Files) -> String {
    let env = values.iter().filter(|(p, _)| !o.command.uses(**p));
    let mut words: Vec<String> = env.map(|(p, v)| format!("{}={}", p.env(), command::shell_word(v))).collect();
    words.push(command::shell_line(argv));
    if !o.command.uses(Placeholder::Trace) {
        words.push(format!("> {}", command::shell_word(&files.trace.display().to_string())));
    }
    words.join(" ")
}

/// One run as it happened.
struct Ran<'a> {
    job: &'a Job<'a>,
    files: &'a Files,
    argv: &'a [String],
    values: &'a Values,
    exit: &'a child::Exit,
    checked: &'a trace::Checked,
    secs: f64,
}

/// The case of one run.
fn case_of(o: &ImplOptions, r: &Ran) -> Case {
    let (exit, checked) = (r.exit, r.checked);
    let mut failed: Vec<String> = exit.failure().map(String::from).into_iter().collect();
    let mut reasons: Vec<String> = exit.failure().map(|_| exit.describe(&r.argv[0])).into_iter().collect();
    let silent = !exit.success() && checked.failed.iter().all(|f| f == "trace_missing");
    if !silent {
        failed.extend(checked.failed.iter().cloned());
        reasons.extend(checked.reasons.iter().cloned());
    }
    let verdict = if failed.is_empty() { Verdict::Pass } else { Verdict::Fail };
    let describe = format!("{}, seed {}", r.job.group.describe(), r.values[&Placeholder::Seed]);
    let detail = match verdict {
        Verdict::Pass => format!("every property holds: {describe}"),
        _ => failure_detail(&describe, &reasons, r.files),
    };
    let point = checked.metrics.as_ref().map(point);
    let replay = Some(replay(o, r.argv, r.values, r.files));
    // No spec: the report's timeline would rerun lbcheck's reference, not the user's program.
    Case {
        layer: "impl",
        name: r.job.name.clone(),
        verdict,
        detail,
        failed,
        replay,
        secs: r.secs,
        point,
        spec: None,
        fit: None,
    }
}

/// What failed, the tail of standard error, and where the run's files are.
fn failure_detail(describe: &str, reasons: &[String], files: &Files) -> String {
    let mut out = format!("{describe} — {}", reasons.join("; "));
    let tail = child::tail(&files.stderr, 12);
    if !tail.is_empty() {
        out += &format!("\nstandard error (last lines):\n{tail}");
    }
    out + &format!("\nthe run's files: {}", files.dir.display())
}

/// The run's figures for the report's plots.
fn point(m: &Metrics) -> Point {
    let pes = m.pes.max(1);
    let t_par = m.t_par.unwrap_or(m.t_last).max(1) as f64;
    let messages = m.messages.values().sum::<u64>() as f64;
    Point {
        pes,
        slowdown: t_par * f64::from(pes) / m.t_seq.max(1) as f64,
        messages_per_pe: messages / f64::from(pes),
        efficiency: m.efficiency.unwrap_or(0.0),
    }
}
