//! Your protocol in a `#[test]`: [`assert_balancer`], [`assert_detector`]
//! and [`assert_protocols`] run the quick campaign of
//! [`crate::campaign::user`] on your balancer, detector or both and
//! panic with the first
//! failing case (its cause, the property it failed and the command that
//! replays it); [`Check`] chooses the profile, the layers, the range of P
//! and the seed, and writes the report directory (`index.html` with its
//! SVG plots, `report.json`, `junit.xml`, as `lbcheck check --out` does).
//!
//! The five-line test, here on the reference random polling wrapped as a
//! user's balancer (in your crate, `make` builds your own `Balancer`):
//!
//! ```
//! use lbcheck::harness::UserBalancer;
//! use lbcheck::{mutants::seams, protocol::random_polling::RandomPolling};
//!
//! #[test]
//! fn mine_passes_lbcheck() {
//!     let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//!     lbcheck::testing::assert_balancer(&mine);
//! }
//! # // rustdoc does not run `#[test]` functions: the same check, one layer.
//! # let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//! # lbcheck::testing::Check::balancer(&mine).layers(&["explore"]).assert();
//! ```
//!
//! The builder, writing the report of the run (open
//! `target/lbcheck-report/index.html`; CI can publish `junit.xml`):
//!
//! ```
//! use lbcheck::campaign::Profile;
//! use lbcheck::harness::UserBalancer;
//! use lbcheck::testing::Check;
//! # use lbcheck::{mutants::seams, protocol::random_polling::RandomPolling};
//! # let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
//! # let dir = std::env::temp_dir().join(format!("lbcheck-testing-doc-{}", std::process::id()));
//! # let dir = dir.to_str().unwrap();
//!
//! let report = Check::balancer(&mine)
//!     .profile(Profile::Quick)
//!     .layers(&["simulate", "explore"])
//!     .pes(2..=8)
//!     .seed(7)
//!     .report_dir(dir) // e.g. "target/lbcheck-report"
//!     .run();
//! assert!(report.passed());
//! assert!(std::path::Path::new(dir).join("index.html").is_file());
//! # std::fs::remove_dir_all(dir).ok();
//! ```

use std::ops::RangeInclusive;
use std::path::PathBuf;

use crate::campaign::user::{self, BoundsOptions};
use crate::campaign::{Options, Profile, Report, Silent, Verdict};
use crate::harness::{UserBalancer, UserDetector};
use crate::problem::Task;
use crate::protocol::{Balancer, BalancerKind, Detector, PeId};

/// The layers a user's protocol runs under ([`Check::layers`]).
/// `bounds` runs on a user's balancer only
/// ([`crate::campaign::user::bounds_balancer`]).
pub const USER_LAYERS: [&str; 4] = ["simulate", "threads", "explore", "bounds"];

/// Runs the quick profile of every layer on `balancer` (composed with
/// every shipping detector) and panics with the first failure's cause,
/// property and replay command ([`Check::assert`]).
///
/// ```should_panic
/// # use lbcheck::harness::UserBalancer;
/// # use lbcheck::mutants::{seams, Mutant};
/// # use lbcheck::protocol::random_polling::RandomPolling;
/// // A balancer that drops the requests it refuses instead of rejecting them.
/// let broken = UserBalancer {
///     name: "drops-requests".into(),
///     make: |_| RandomPolling::new(seams::polling(Some(Mutant::RequestDropped)), None),
/// };
/// lbcheck::testing::assert_balancer(&broken); // panics: "... requests_answered ... replay with: lbcheck ..."
/// ```
pub fn assert_balancer<B, F>(balancer: &UserBalancer<F>)
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
{
    Check::balancer(balancer).assert();
}

/// Runs the quick profile of every layer on `detector` (composed with
/// every shipping balancer that runs in PEs) and panics with the first
/// failure's cause, property and replay command ([`Check::assert`]).
///
/// ```
/// use lbcheck::harness::UserDetector;
/// use lbcheck::{mutants::seams, protocol::safra::Safra};
///
/// // Here the "user's" detector is Safra's (EWD998) as lbcheck ships it.
/// let mine = UserDetector { name: "my-safra".into(), make: |_| Safra::new(seams::safra(None)) };
/// lbcheck::testing::Check::detector(&mine).only(&["/pacheco/"]).assert(); // or assert_detector(&mine)
/// ```
pub fn assert_detector<D, G>(detector: &UserDetector<G>)
where
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D + Sync,
{
    Check::detector(detector).assert();
}

/// Runs the quick profile of every layer on a user's `balancer` composed
/// with a user's `detector` and panics with the first failure's cause,
/// property and replay command ([`Check::assert`]).
///
/// ```
/// use lbcheck::harness::{UserBalancer, UserDetector};
/// use lbcheck::mutants::seams;
/// use lbcheck::protocol::{four_counter::FourCounter, random_polling::RandomPolling};
///
/// let balancer = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
/// let detector = UserDetector { name: "waves".into(), make: |_| FourCounter::new(seams::four_counter(None)) };
/// lbcheck::testing::assert_protocols(&balancer, &detector);
/// ```
pub fn assert_protocols<B, F, D, G>(balancer: &UserBalancer<F>, detector: &UserDetector<G>)
where
    B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
    F: Fn(PeId) -> B + Sync,
    D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
    G: Fn(PeId) -> D + Sync,
{
    Check::protocols(balancer, detector).assert();
}

/// What a [`Check`] runs: the campaign of the user's protocol.
type Campaign<'a> = Box<dyn Fn(&Options, &BoundsOptions) -> Report + 'a>;

/// A campaign over a user's protocol, configured by its methods; [`run`]
/// returns the report, [`assert`] panics on a failure (more in the
/// [module docs](self)).
///
/// ```
/// use lbcheck::campaign::Verdict;
/// use lbcheck::harness::UserBalancer;
/// use lbcheck::{mutants::seams, protocol::random_polling::RandomPolling};
///
/// let mine = UserBalancer { name: "mine".into(), make: |_| RandomPolling::new(seams::polling(None), None) };
/// let report = lbcheck::testing::Check::balancer(&mine).layers(&["threads"]).pes(2..=3).run();
/// assert!(report.cases.iter().all(|c| c.layer == "threads" && c.verdict == Verdict::Pass));
/// ```
///
/// [`run`]: Check::run
/// [`assert`]: Check::assert
pub struct Check<'a> {
    what: String,
    campaign: Campaign<'a>,
    options: Options,
    bounds: BoundsOptions,
    layers: Vec<String>,
    report_dir: Option<PathBuf>,
}

impl<'a> Check<'a> {
    /// The campaign of [`user::check_balancer`] on `balancer`.
    pub fn balancer<B, F>(balancer: &'a UserBalancer<F>) -> Check<'a>
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        F: Fn(PeId) -> B + Sync,
    {
        let what = format!("balancer `{}`", balancer.name);
        Check::of(what, Box::new(move |o, b| user::check_balancer_with(o, balancer, b, &Silent)))
    }

    /// The campaign of [`user::check_detector`] on `detector`.
    pub fn detector<D, G>(detector: &'a UserDetector<G>) -> Check<'a>
    where
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
        G: Fn(PeId) -> D + Sync,
    {
        let what = format!("detector `{}`", detector.name);
        Check::of(what, Box::new(move |o, _| user::check_detector(o, detector, &Silent)))
    }

    /// The campaign of [`user::check_protocols`] on `balancer` with `detector`.
    pub fn protocols<B, F, D, G>(balancer: &'a UserBalancer<F>, detector: &'a UserDetector<G>) -> Check<'a>
    where
        B: Balancer<Task = Task> + Clone + std::fmt::Debug + Send + 'static,
        F: Fn(PeId) -> B + Sync,
        D: Detector<Task> + Clone + std::fmt::Debug + Send + 'static,
        G: Fn(PeId) -> D + Sync,
    {
        let what = format!("balancer `{}` with detector `{}`", balancer.name, detector.name);
        Check::of(what, Box::new(move |o, _| user::check_protocols(o, balancer, detector, &Silent)))
    }

    fn of(what: String, campaign: Campaign<'a>) -> Check<'a> {
        Check {
            what,
            campaign,
            options: Options::default(),
            bounds: BoundsOptions::default(),
            layers: vec![],
            report_dir: None,
        }
    }

    /// Quick (the default) or full.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.options.profile = profile;
        self
    }

    /// Only these layers (of [`USER_LAYERS`]; all of them by default).
    ///
    /// # Panics
    /// On a layer that is not one of [`USER_LAYERS`].
    pub fn layers(mut self, layers: &[&str]) -> Self {
        for l in layers {
            assert!(USER_LAYERS.contains(l), "lbcheck: no layer `{l}` for a user's protocol; layers: {USER_LAYERS:?}");
        }
        self.layers = layers.iter().map(|l| l.to_string()).collect();
        self
    }

    /// Only machines with P in `pes` (the `simulate` and `threads` layers;
    /// `explore` runs its tiny instance).
    ///
    /// # Panics
    /// On an empty range or one that starts at 0.
    pub fn pes(mut self, pes: RangeInclusive<u32>) -> Self {
        assert!(*pes.start() >= 1 && pes.start() <= pes.end(), "lbcheck: P in {pes:?}: need 1 <= LO <= HI");
        self.options.pes = Some(pes);
        self
    }

    /// A user's balancer's `bounds` layer also fails it when its T_par is
    /// significantly longer than `reference`'s on the same configurations
    /// (Mann–Whitney at the layer's α, [`BoundsOptions::no_slower_than`]).
    pub fn no_slower_than(mut self, reference: BalancerKind) -> Self {
        self.bounds.no_slower_than = Some(reference);
        self
    }

    /// The base seed of every run (1, CI's, by default).
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = seed;
        self
    }

    /// Only cases whose `layer/name` contains one of `patterns` (as
    /// `lbcheck check --only`), within the chosen layers.
    pub fn only(mut self, patterns: &[&str]) -> Self {
        self.options.only = patterns.iter().map(|p| p.to_string()).collect();
        self
    }

    /// Writes the report directory there (created): `index.html`,
    /// `report.json`, `junit.xml`.
    pub fn report_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.report_dir = Some(dir.into());
        self
    }

    /// Runs the campaign (and writes the report directory if asked).
    ///
    /// # Panics
    /// If no case is selected, or the report directory cannot be written.
    pub fn run(&self) -> Report {
        let mut o = self.options.clone();
        if o.only.is_empty() {
            o.only = self.layers.iter().map(|l| format!("{l}/")).collect();
        }
        let mut report = (self.campaign)(&o, &self.bounds);
        report.cases.retain(|c| self.layers.is_empty() || self.layers.iter().any(|l| l == c.layer));
        assert!(!report.cases.is_empty(), "lbcheck: no case of {} selected ({:?})", self.what, self.options);
        if let Some(dir) = &self.report_dir {
            crate::report::campaign::write(&report, dir)
                .unwrap_or_else(|e| panic!("lbcheck: writing the report to {}: {e}", dir.display()));
        }
        report
    }

    /// Runs the campaign and panics if a case failed, with [`failure`]'s message.
    pub fn assert(&self) -> Report {
        let report = self.run();
        if let Some(message) = failure(&self.what, &report, self.report_dir.as_deref()) {
            panic!("{message}");
        }
        report
    }
}

/// The message of a failed campaign: how many cases failed, then the
/// first one's case, failed properties, cause and replay command.
pub fn failure(what: &str, report: &Report, dir: Option<&std::path::Path>) -> Option<String> {
    let first = report.cases.iter().find(|c| c.verdict == Verdict::Fail)?;
    let mut m = format!(
        "lbcheck: {what} failed {} of {} cases\nfirst failure: {}/{}\nfailed property: {}\ncause: {}\n",
        report.count(Verdict::Fail),
        report.cases.len(),
        first.layer,
        first.name,
        first.failed.join(", "),
        first.detail
    );
    if let Some(replay) = &first.replay {
        m += &format!("replay with: {replay}\n");
    }
    if let Some(dir) = dir {
        m += &format!("\nreport: {}", dir.join("index.html").display());
    }
    Some(m)
}
