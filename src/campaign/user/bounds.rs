//! The `bounds` layer of a user's balancer (issue 29): the claims of the
//! papers that apply to any balancer of random polling's family, run on
//! the user's balancer and each held to the constant fitted on a
//! reference's runs of the same configurations — as `lbcheck bounds` holds
//! its test runs to its calibration runs ([`crate::bounds::claims`]) and
//! `check --impl` an external program's runs.
//!
//! The configurations are cells of the bounds plan ([`Cell`]: synthetic
//! workloads with exact h and T_atomic, each PE's share 2^10·T_atomic, the
//! three machines (Δt, T_rout, T_split) of [`MACHINES`], energy
//! termination): P = 4 … 32 and 2 runs a side per cell in the quick
//! profile, P = 4 … 128 and 4 runs in the full one. The reference's runs
//! and the user's run on seeds of their own, derived from the campaign's
//! seed. The claims, at family-wise α split by Bonferroni over them:
//!
//! - `t_par`: 001 Thm 1 / 002 Thm 1, R = (T_par − T_seq/P) / (T_atomic +
//!   h·(Δt + T_rout + T_split)) at most (1 + MARGIN)·C but on a fraction
//!   Q0 of the runs, C fitted on the reference's runs
//!   ([`claims::quantile`]);
//! - `gen_depth`: 001 Lemma 3's statistic, requests until every live
//!   subproblem has generation ≥ h, over P·h, the same way;
//! - `lemma3`: 001 Lemma 3 as stated, the Chernoff-type bound on red
//!   requests until generation h ([`claims::lemma3`]);
//! - `traffic`: 002 Thm 1, balancer messages / (P·h), as `t_par`;
//! - `queue`: 001 Lemma 1.3, the mean queue an arriving request meets ≤ 1
//!   ([`claims::queue_claim`]);
//! - `no_slower_than` (when asked): the user's T_par against a named
//!   reference's on the same configurations, the efficiency T_seq/(P·T_par)
//!   tested by Mann–Whitney ([`crate::bounds::compare`]); significantly
//!   lower fails.
//!
//! Not run here: the trend claims of `lbcheck bounds` (no upward trend of R
//! in log2 P), which need P up to 256 — on P ≤ 32 random polling's own R
//! still rises — and the claims particular to random polling (uniform
//! victims, queue trimming, 001 Thm 2's slow PEs).

use std::time::Instant;

use crate::base::rng::derive_seed;
use crate::bounds::claims::{self, Claim, Constants, MARGIN};
use crate::bounds::compare::compare;
use crate::bounds::papers::LEMMA3_C;
use crate::bounds::plan::{Cell, MACHINES, POLICIES};
use crate::bounds::suite::{measure, par_map, Phase, Sample};
use crate::bounds::twosample::median;
use crate::campaign::{Case, Fit, Options, Profile, Progress};
use crate::harness::{Driver, DynMake, ErasedBalancer, RunSpec, UserBalancer};
use crate::problem::Task;
use crate::protocol::{Balancer, BalancerKind, BalancerSpec, PeId};

/// How the `bounds` layer judges a user's balancer.
///
/// ```
/// use lbcheck::campaign::user::BoundsOptions;
/// use lbcheck::protocol::BalancerKind;
///
/// // Also fail a balancer significantly slower than random polling.
/// let o = BoundsOptions { no_slower_than: Some(BalancerKind::RandomPolling), ..BoundsOptions::default() };
/// assert_eq!(o.reference, BalancerKind::RandomPolling);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundsOptions {
    /// The balancer whose runs fit the constants (default: random polling).
    pub reference: BalancerKind,
    /// Also fail a balancer whose T_par is significantly longer than this
    /// one's on the same configurations (default: not compared).
    pub no_slower_than: Option<BalancerKind>,
    /// Family-wise false-alarm probability, split over the claims
    /// (default: `lbcheck bounds`'s, [`claims::FAMILY_ALPHA`]).
    pub alpha: f64,
}

impl Default for BoundsOptions {
    fn default() -> Self {
        BoundsOptions { reference: BalancerKind::RandomPolling, no_slower_than: None, alpha: claims::FAMILY_ALPHA }
    }
}

/// A user's run stops after this many times the most simulator steps a
/// reference run of its cell took: unfinished, it fails `t_par` as R = ∞.
pub const STEP_CAP_FACTOR: u64 = 64;

/// The claims of the layer, in order (`no_slower_than` only when asked).
pub const CLAIMS: [&str; 7] = ["t_par", "gen_depth", "lemma3", "remaining_time", "traffic", "queue", "no_slower_than"];

/// The `bounds` layer on `mine`: one case per claim (layer `bounds`, named
/// `user/NAME/CLAIM`), its detail giving the user's fitted constant beside
/// the reference's (and [`Case::fit`] both). Deterministic from `o.seed`;
/// a few seconds in the quick profile. Runs nothing if `o.only` selects
/// none of its cases.
pub fn bounds_balancer<B, F>(
    o: &Options,
    mine: &UserBalancer<F>,
    opts: &BoundsOptions,
    progress: &dyn Progress,
) -> Vec<Case>
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    user_bounds(o, &mine.erased(), opts, progress)
}

/// [`bounds_balancer`] on the erased balancer ([`UserBalancer::erased`]).
pub(super) fn user_bounds(
    o: &Options,
    mine: &UserBalancer<DynMake<ErasedBalancer>>,
    opts: &BoundsOptions,
    progress: &dyn Progress,
) -> Vec<Case> {
    let name = |claim: &str| format!("user/{}/{claim}", mine.name);
    let wanted: Vec<&str> = CLAIMS[..CLAIMS.len() - usize::from(opts.no_slower_than.is_none())].to_vec();
    let selected: Vec<&str> = wanted.iter().copied().filter(|c| o.selects("bounds", &name(c))).collect();
    if selected.is_empty() {
        return vec![];
    }
    progress.start("bounds", selected.len());
    let start = Instant::now();
    let cells = cells(o.profile);
    let refused = [Some(opts.reference), opts.no_slower_than].into_iter().flatten().find_map(|k| refuses(k));
    if let Some(why) = refused {
        return selected.iter().map(|c| Case::skip("bounds", name(c), why.clone())).collect();
    }
    let reference = runs(o, &cells, "reference", opts.reference);
    let user = user_runs(o, &cells, opts.reference, mine, &reference);
    let each = opts.alpha / wanted.len() as f64;
    let mut found = judged(&reference, &user, each);
    if let Some(kind) = opts.no_slower_than {
        let theirs = if kind == opts.reference { reference } else { runs(o, &cells, "compare", kind) };
        found.push(slower(&user, &theirs, kind, each));
    }
    let secs = start.elapsed().as_secs_f64() / found.len() as f64;
    let replay = format!("{}  (the `bounds` layer of `{}`)", super::super::replay(o), mine.name);
    let cases: Vec<Case> = found
        .into_iter()
        .filter(|(c, _)| selected.contains(&c.name))
        .map(|(c, fit)| case(name(c.name), &c, fit, opts, secs, &replay))
        .collect();
    cases.iter().for_each(|c| progress.done("bounds", c));
    cases
}

/// The cells of `profile`: the three synthetic policies × P × the three machines.
fn cells(profile: Profile) -> Vec<Cell> {
    let top = if profile == Profile::Full { 128 } else { 32 };
    let pes = (2..=7).map(|k| 1u32 << k).filter(|&p| p <= top);
    pes.flat_map(|pes| {
        POLICIES
            .iter()
            .flat_map(move |&workload| MACHINES.iter().map(move |&machine| Cell { workload, pes, machine, trim: None }))
    })
    .collect()
}

/// Runs a side per cell.
fn per_cell(profile: Profile) -> u32 {
    if profile == Profile::Full {
        4
    } else {
        2
    }
}

/// Why `kind` cannot be a reference here (it does not run on 001's
/// asynchronous machine with energy termination); `None` if it can.
fn refuses(kind: BalancerKind) -> Option<String> {
    let spec = spec_of(&cells(Profile::Quick)[0], 1, kind);
    spec.validate().err().map(|e| format!("`{kind}` cannot be the reference of a user's balancer's bounds: {e}"))
}

/// The run of `cell` on `seed` with `kind` as its balancer.
fn spec_of(cell: &Cell, seed: u64, kind: BalancerKind) -> RunSpec {
    let spec = cell.spec(seed, None);
    match kind {
        BalancerKind::RandomPolling => spec, // the cell's own (its parameters at their defaults)
        _ => RunSpec { balancer: BalancerSpec::of(kind), ..spec },
    }
}

/// Every run of `kind` over `cells`, on the seeds of side `who`.
fn runs(o: &Options, cells: &[Cell], who: &str, kind: BalancerKind) -> Vec<Sample> {
    side(o, cells, who, kind, &|_, spec| measure(&spec.cell, Phase::Calibrate, &spec.run, &spec.run.balancer, false))
}

/// The user's runs over `cells` on `kind`'s specifications, each stopped
/// at [`STEP_CAP_FACTOR`] × the most steps a `reference` run of its cell took.
fn user_runs<B, F>(
    o: &Options,
    cells: &[Cell],
    kind: BalancerKind,
    mine: &UserBalancer<F>,
    reference: &[Sample],
) -> Vec<Sample>
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    let n = per_cell(o.profile) as usize;
    side(o, cells, "user", kind, &|c, mut job| {
        let most = reference.iter().skip(c * n).take(n).map(|s| s.steps).max();
        if let (Driver::Sim(sim), Some(most)) = (&mut job.run.driver, most) {
            sim.max_steps = most.saturating_mul(STEP_CAP_FACTOR);
        }
        measure(&job.cell, Phase::Test, &job.run, mine, true)
    })
}

/// One run to make: its cell and specification.
struct Job {
    cell: Cell,
    run: RunSpec,
}

/// `run(cell index, job)` for every run of side `who` (seeds derived from
/// `o.seed`, the side and the cell), on up to two threads, in cell order.
fn side(
    o: &Options,
    cells: &[Cell],
    who: &str,
    kind: BalancerKind,
    run: &(dyn Fn(usize, Job) -> Sample + Sync),
) -> Vec<Sample> {
    let n = per_cell(o.profile);
    let jobs: Vec<(usize, u32)> = (0..cells.len()).flat_map(|c| (0..n).map(move |i| (c, i))).collect();
    par_map(&jobs, |&(c, i)| {
        let cell = cells[c].clone();
        let seed = derive_seed(o.seed, &format!("user-bounds/{who}/{}", cell.label()), i);
        let run_spec = spec_of(&cell, seed, kind);
        run(c, Job { cell, run: run_spec })
    })
}

/// The six claims on the user's runs against the constants fitted on the
/// reference's, each at `alpha`, with both fitted values.
fn judged(reference: &[Sample], user: &[Sample], alpha: f64) -> Vec<(Claim, Fit)> {
    let k: Constants = claims::fit(reference);
    let pairs =
        |f: fn(&Sample) -> Option<f64>| user.iter().filter_map(|s| f(s).map(|x| (s.pes, x))).collect::<Vec<_>>();
    let top = |ss: &[Sample], f: fn(&Sample) -> Option<f64>| ss.iter().filter_map(f).fold(0.0, f64::max);
    let fit =
        |f: fn(&Sample) -> Option<f64>, c: f64| Fit { user: top(user, f), reference: c, limit: (1.0 + MARGIN) * c };
    let (r, gen, traffic): (fn(&Sample) -> Option<f64>, fn(&Sample) -> Option<f64>, fn(&Sample) -> Option<f64>) =
        (|s| Some(s.r), |s| s.gen_depth, |s| Some(s.traffic));
    let mean_queue = |ss: &[Sample]| ss.iter().filter_map(|s| s.queue_mean).sum::<f64>() / ss.len().max(1) as f64;
    let red: fn(&Sample) -> Option<f64> = |s| s.red_depth;
    let rest: fn(&Sample) -> Option<f64> = |s| s.remaining;
    let refs: Vec<&Sample> = user.iter().collect();
    vec![
        (claims::quantile("t_par", "001 Thm 1 / 002 Thm 1: R bounded", &pairs(r), k.c_t_par, alpha), fit(r, k.c_t_par)),
        (
            claims::quantile(
                "gen_depth",
                "001 Lemma 3's statistic: requests until gen ≥ h, / (P·h)",
                &pairs(gen),
                k.c_gen,
                alpha,
            ),
            fit(gen, k.c_gen),
        ),
        (claims::lemma3(&refs, alpha), Fit { user: top(user, red), reference: top(reference, red), limit: LEMMA3_C }),
        (
            claims::quantile("remaining_time", claims::REMAINING, &pairs(rest), k.c_remaining, alpha),
            fit(rest, k.c_remaining),
        ),
        (
            claims::quantile("traffic", "002 Thm 1: messages/(P·h) bounded", &pairs(traffic), k.c_traffic, alpha),
            fit(traffic, k.c_traffic),
        ),
        (
            claims::queue_claim(&refs, alpha),
            Fit { user: mean_queue(user), reference: mean_queue(reference), limit: 1.0 },
        ),
    ]
}

/// The `no_slower_than` claim: the user's runs against `kind`'s on the
/// same cells (seeds of their own), efficiency by Mann–Whitney at `alpha`
/// (the other quantities of [`compare`] reported, not judged).
fn slower(user: &[Sample], theirs: &[Sample], kind: BalancerKind, alpha: f64) -> (Claim, Fit) {
    let metrics = |ss: &[Sample]| ss.iter().map(|s| s.metrics.clone()).collect::<Vec<_>>();
    let rows = compare(&metrics(user), &metrics(theirs), alpha * 4.0); // compare splits α over its 4 quantities
    let row = rows.iter().find(|r| r.quantity == "efficiency");
    let slowdown = |ss: &[Sample]| {
        median(
            &ss.iter()
                .map(|s| s.t_par.map_or(f64::INFINITY, |t| t as f64 * f64::from(s.pes) / s.machine.t_seq as f64))
                .collect::<Vec<_>>(),
        )
    };
    let fit = Fit { user: slowdown(user), reference: slowdown(theirs), limit: f64::NAN };
    let (measured, ci, pass) = match row {
        Some(r) => (
            format!("efficiency median {:.3} against {:.3}: {}", r.median.0, r.median.1, r.verdict),
            format!("p = {:.2e}, Cliff's δ = {:+.2}", r.p, r.delta),
            !(r.worse && r.verdict == "slower"),
        ),
        None => ("too few finished runs to compare".into(), "-".into(), false),
    };
    let claim = Claim {
        name: "no_slower_than",
        reference: "T_par against the named reference's on the same configurations (Mann–Whitney)",
        n: user.len() as u64,
        measured,
        bound: format!("not significantly slower than `{kind}`"),
        ci,
        alpha: Some(alpha),
        verdict: pass.into(),
        plot: None,
    };
    (claim, fit)
}

/// The case of one claim.
fn case(name: String, c: &Claim, fit: Fit, opts: &BoundsOptions, secs: f64, replay: &str) -> Case {
    let against = match c.name {
        "no_slower_than" => format!(
            "median P·T_par/T_seq: mine {:.3} beside `{}`'s {:.3}",
            fit.user,
            opts.no_slower_than.unwrap_or(opts.reference),
            fit.reference
        ),
        _ => format!(
            "fitted: mine {:.3} beside the reference's {:.3} (`{}`), limit {:.3}",
            fit.user, fit.reference, opts.reference, fit.limit
        ),
    };
    let alpha = c.alpha.map_or("exact".into(), |a| format!("α = {a:.1e}"));
    let detail = format!("{} ({}): {against}; {} vs {}; {}; {alpha}", c.name, c.reference, c.measured, c.bound, c.ci);
    let (verdict, failed) = super::super::bounds::verdict_of(c);
    Case {
        detail,
        verdict,
        failed,
        replay: Some(replay.into()),
        secs,
        fit: Some(fit),
        ..Case::skip("bounds", name, "")
    }
}
