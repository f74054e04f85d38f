//! Every claim the bound suites check, with the papers it tests and where
//! in each (`lbcheck bounds --list`; the pages of `lbcheck reproduce
//! PAPER` show them in the paper's order). A suite's claim names are
//! those its `evaluate` returns; `tests/sim/reproduce.rs` holds the two
//! together (every listed claim passes on its page; a claim a suite checks
//! that the listing lacks fails its paper's page).

use serde::Serialize;

use super::claims::alpha_of;
use super::coverage::{Outside, Status, ALSO_FAILED, NO_MUTANT_WHY, OUTSIDE_MUTANTS, UNTESTED};
use super::Suite;
use crate::base::Registered;
use crate::mutants::{Catcher, Mutant, CATALOGUE};

/// One claim of one suite.
#[derive(Clone, Copy, Debug)]
pub struct Listed {
    /// The suite whose runs check it.
    pub suite: Suite,
    /// The claim's name (as in `lbcheck bounds`).
    pub name: &'static str,
    /// (paper, rank): the papers it tests, and where in each (the pages
    /// sort by rank, which follows the paper's order).
    pub papers: &'static [(&'static str, u16)],
    /// Section, theorem or equation.
    pub at: &'static str,
    /// What the paper states (as the claim tests it).
    pub statement: &'static str,
    /// Exact (no α) or statistical (α of its suite's Bonferroni share).
    pub kind: Kind,
    /// The numbers of the papers' quantitative claims it tests
    /// (../shared/papers/COVERAGE.md §5; [`super::coverage::UNTESTED`]
    /// holds those no suite tests).
    pub coverage: &'static [u8],
}

/// How a claim is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// On every run or grid point: one counterexample fails it.
    Exact,
    /// A test at level α (the suite's family-wise 1e-6 over its tests).
    Statistical,
}

/// The five papers, in their order (../shared/papers/README.md).
pub const PAPERS: [(&str, &str); 5] = [
    ("000", "Sanders, Better Algorithms for Parallel Backtracking (1995)"),
    ("001", "Sanders, Asynchronous Random Polling Dynamic Load Balancing"),
    ("002", "Sanders, Tree Shaped Computations as a Model for Parallel Applications (1998)"),
    ("003", "Pacheco, Parallel Programming with MPI, ch. 14 (parallel tree search)"),
    ("004", "Liu, Aiello, Bhatt, An atomic model for message-passing"),
];

macro_rules! listed {
    ($suite:ident, $kind:ident, [$($c:literal),*], $name:literal, [$(($p:literal, $r:literal)),*], $at:literal, $statement:literal) => {
        Listed {
            suite: Suite::$suite,
            name: $name,
            papers: &[$(($p, $r)),*],
            at: $at,
            statement: $statement,
            kind: Kind::$kind,
            coverage: &[$($c),*],
        }
    };
}

/// Every claim of every suite.
pub const LISTED: &[Listed] = &[
    listed!(RandomPolling, Exact, [2], "formula", [("000", 20)], "§2.2, Lemma 1, eq. (2), (3)", "The Chernoff bounds on binomial tails hold: eq. (2)'s lower and eq. (3)'s upper tail bound are at least the exact tails on a grid of n, p, ε."),
    listed!(RandomPolling, Exact, [1, 34], "lower_bound_eq1", [("000", 3)], "§1.1, eq. (1)", "No load balancer beats T_par ≥ max(T_seq/P, max_gen·T_split)."),
    listed!(RandomPolling, Exact, [21], "thm1_eps", [("001", 42)], "§3, Thm 1", "Polling every Δt ≥ T_poll/ε units costs at most ε·T_seq in all: the (1 + ε) of Thm 1."),
    listed!(RandomPolling, Statistical, [20], "t_par", [("001", 40), ("002", 10)], "001 §3, Thm 1; 002 Thm 1", "E[T_par] ≤ (1 + ε)·T_seq/P + O(T_atomic + h·(1/ε + T_rout + T_split)): R = (T_par − (1+ε)·T_seq/P) / (T_atomic + h·(Δt + T_rout + T_split)) is bounded by a constant C."),
    listed!(RandomPolling, Statistical, [20], "t_par_trend", [("001", 41)], "§3, Thm 1", "The constant of Thm 1 does not grow with P: R has no upward trend in log2 P."),
    listed!(RandomPolling, Statistical, [26, 28], "gen_depth", [("001", 31)], "§3, Lemma 3", "After O(P·h) requests every live subproblem has generation ≥ h: requests until then, over P·h, are bounded by a constant c."),
    listed!(RandomPolling, Statistical, [26], "lemma3", [("001", 30)], "§3, Lemma 3", "P[more than c·P·h red requests before gen ≥ h] ≤ P·h·e^(−h(c − ln c − 2)), c = 8."),
    listed!(RandomPolling, Statistical, [26, 28], "gen_depth_trend", [("001", 32)], "§3, Lemma 3", "Lemma 3's c does not grow with P: requests/(P·h) has no upward trend in log2 P."),
    listed!(RandomPolling, Statistical, [29], "remaining_time", [("001", 33)], "§3, Lemma 6", "Once every live subproblem has generation ≥ h, the rest of the run (atomic subproblems worked off, termination detected) takes O(T_atomic + h(Δt + T_split + T_rout)): that time over T_atomic + h(Δt + T_split + T_rout) is bounded by a constant."),
    listed!(RandomPolling, Statistical, [29], "remaining_time_trend", [("001", 34)], "§3, Lemma 6", "Lemma 6's constant does not grow with P: the remaining time over its lower-order term has no upward trend in log2 P."),
    listed!(RandomPolling, Statistical, [24], "queue", [("001", 20)], "§3, Lemma 1.3", "The expected queue a request meets is at most 1."),
    listed!(RandomPolling, Statistical, [], "victims_uniform", [("001", 10)], "§2, Fig. 1", "Each request asks a uniformly random PE: offsets (to − from) mod P uniform on 1 … P − 1."),
    listed!(RandomPolling, Statistical, [36], "traffic", [("002", 20)], "Thm 1", "Random polling sends O(P·h) messages: messages/(P·h) bounded by a constant."),
    listed!(RandomPolling, Statistical, [36], "traffic_trend", [("002", 21)], "Thm 1", "The traffic constant does not grow with P: messages/(P·h) has no upward trend in log2 P."),
    listed!(RandomPolling, Exact, [30], "queue_trim", [("001", 50)], "§4, Thm 2", "With queues trimmed at ⌈√P⌉ no request meets a longer queue (and untrimmed runs of the same cells do)."),
    listed!(RandomPolling, Statistical, [30], "thm2_t_par", [("001", 51)], "§4, Thm 2", "W.h.p. T_par ≤ (1 + ε)·T_seq/P + Õ(T_atomic + h(1/ε + T_split + T_rout)) with trimmed queues, h ≈ log P, slow PEs: R over capacity bounded."),
    listed!(RandomPolling, Statistical, [35], "logp_t_par", [("001", 43)], "§3, footnote 3", "Under the full LogP model (o = 3, g = 5) Δt = max(T_split + o, g) suffices: R with T_rout = L + o + g bounded."),
    listed!(RandomPolling, Exact, [22], "request_cost", [("001", 15)], "§3, Lemma 1.1", "A request costs its server at most T_split + O(T_rout) of CPU time: under LogP (o = 3, g = 5) its receipt (o), splits (T_split each) and reply (o) sum to ≤ T_split + 2·o ≤ T_split + 2·T_rout on every request."),
    listed!(RandomPolling, Exact, [18], "routing_time", [("000", 58)], "§6.1", "A message of length l over d hops takes O(d·l) with packet routing, O(l + d) with cut-through: with --routing and no contention each work message's transfer is exactly T_rout·d·l resp. T_rout·(l + d) (l from its subproblem's wire bytes; mesh:2 and hypercube). The mesh's bandwidth statement is not tested (no link contention is modelled)."),
    listed!(RandomPolling, Exact, [19], "lower_bound_atomic", [("000", 60)], "§6.4", "T_par ∈ Ω(T_atomic): T_par ≥ max(T_seq/P, max_gen·T_split, T_atomic) on heavy-tailed loops (atomic iterations), where the T_atomic term binds."),
    listed!(RandomPolling, Exact, [37], "initial_split", [("002", 5)], "§3", "Splitting the broadcast root locally into P parts takes ⌈log P⌉·T_split: every PE starts work by then (the broadcast is not modelled)."),
    listed!(RandomPolling, Exact, [], "invariants", [("001", 90)], "Fig. 1, §2", "Every safety and liveness property of check/ holds on every run of the suite."),
    listed!(SyncRandomPolling, Statistical, [32], "t_par", [("001", 5)], "§1.3 [28, 29]", "Synchronous random polling: T_par ≤ (1 + ε)·T_seq/P + O(h·T_rout) w.h.p.: R = (T_par − (1 + ε)·T_seq/P)/(T_atomic + h·T_round) bounded, T_round = Δt + T_poll + T_split + 2·T_rout."),
    listed!(SyncRandomPolling, Statistical, [32], "t_par_trend", [("001", 6)], "§1.3 [28, 29]", "The constant of synchronous random polling's O(h·T_rout) does not grow with P: R has no upward trend in log2 P."),
    listed!(SyncRandomPolling, Exact, [1], "lower_bound_eq1", [("000", 4)], "§1.1, eq. (1)", "No load balancer beats T_par ≥ max(T_seq/P, max_gen·T_split): on every run of synchronous random polling."),
    listed!(SyncRandomPolling, Exact, [], "invariants", [("001", 91)], "§1.3, S-13", "Every property of check/ on every run of synchronous random polling."),
    listed!(RandomDestination, Exact, [50], "lemma6", [("004", 60)], "§6.2, Lemma 6", "P[X ≥ αm] ≤ (1/2)^(αm/(p−1)) for α > 2e: at least the exact tail on a grid."),
    listed!(RandomDestination, Exact, [51], "lemma7", [("004", 61)], "§6.2, Lemma 7", "P[Σ receive delays > βm] < (1/2)^((β−1)m/(p−1)) for β ≥ 2e + 1: against the exact tail on a grid."),
    listed!(RandomDestination, Exact, [44], "lower_bound_004", [("004", 10)], "§1", "No schedule beats T ≥ max(⌈n/p⌉, h)."),
    listed!(RandomDestination, Statistical, [45], "thm1", [("004", 20)], "§1, §5, Thm 1", "Random-destination backtrack search takes at most k(n/p + h) steps w.h.p. under any arbiter: R = T/(n/p + h) bounded."),
    listed!(RandomDestination, Statistical, [45], "thm1_trend_p", [("004", 21)], "§5, Thm 1", "Thm 1's k does not grow with p: no upward trend of R in log2 p."),
    listed!(RandomDestination, Statistical, [45], "thm1_trend_h", [("004", 22)], "§5, Thm 1", "Thm 1's k does not grow with h: no upward trend of R in log2 h."),
    listed!(RandomDestination, Exact, [], "invariants", [("004", 90)], "§2", "Every property of check/ on every run of the atomic machine."),
    listed!(PriorityBnb, Exact, [50], "lemma6", [("004", 62)], "§6.2, Lemma 6", "As above, in the branch-and-bound suite (the same exact grid)."),
    listed!(PriorityBnb, Exact, [51], "lemma7", [("004", 63)], "§6.2, Lemma 7", "As above, in the branch-and-bound suite (the same exact grid)."),
    listed!(PriorityBnb, Exact, [44], "lower_bound_004", [("004", 11)], "§1", "T ≥ max(⌈n/p⌉, h) of the critical subtree on every branch-and-bound run."),
    listed!(PriorityBnb, Statistical, [46], "thm2", [("004", 30)], "§1, §6, Thm 2", "Branch-and-bound with priority queues under the FIFO arbiter takes at most k(n/p + h) for n > p² log p: R of the critical subtree bounded."),
    listed!(PriorityBnb, Statistical, [46], "thm2_large", [("004", 31)], "§6, Thm 2", "As thm2, at the paper's sizes (--full): critical subtrees of ≥ 5,000 vertices (kz:depth=26,pruned=1, p = 4 … 32), R held to the constant fitted on such runs; the quick profile has none and says so."),
    listed!(PriorityBnb, Exact, [], "invariants", [("004", 91)], "§2", "Every property of check/ on every branch-and-bound run."),
    listed!(Scatter, Exact, [50], "lemma6", [("004", 64)], "§6.2, Lemma 6", "As above, in the scattering suite (the same exact grid)."),
    listed!(Scatter, Exact, [51], "lemma7", [("004", 65)], "§6.2, Lemma 7", "As above, in the scattering suite (the same exact grid)."),
    listed!(Scatter, Exact, [48, 49], "scatter_exact", [("004", 40)], "§3", "Scattering takes T ≥ m and T ≥ r; the off-line schedule max{r, m}; all-to-0 m·p."),
    listed!(Scatter, Statistical, [47], "thm3", [("004", 41)], "§3, Thm 3", "With random destinations, scattering m messages per node takes at most k·m w.h.p.: T/m bounded."),
    listed!(Scatter, Statistical, [47], "thm3_trend", [("004", 42)], "§3, Thm 3", "Thm 3's k does not grow with p: T/m has no upward trend in log2 p."),
    listed!(Pacheco, Exact, [31], "v_p", [("003", 10)], "§14.7.3", "Global round robin asks every PE in its first V(P) = P − s requests (s: ranks passed over)."),
    listed!(Pacheco, Statistical, [31], "t_par", [("003", 20)], "§14.7.3", "Global round robin's T_par: R = (T_par − T_seq/P − (P−1)T_split)/(T_atomic + h(4T_rout + Δt + T_split)) bounded (four messages per request)."),
    listed!(Pacheco, Statistical, [31], "t_par_trend", [("003", 21)], "§14.7.3", "R has no upward trend in log2 P."),
    listed!(Pacheco, Exact, [], "invariants", [("003", 90)], "§14.7", "Every property of check/ on every run of global round robin."),
    listed!(PollAndShuffle, Statistical, [9], "perm_uniform", [("000", 32)], "§3.2", "The exact random permutation is uniform (χ² over S_4)."),
    listed!(PollAndShuffle, Exact, [9], "perm_generators", [("000", 33)], "§3.2", "The pseudo-random method's generators act 2-transitively (every pair reaches every pair)."),
    listed!(PollAndShuffle, Statistical, [5], "eq4_partners", [("000", 34)], "§3, eq. (4)", "After a shuffle, a subproblem's dimension-i partner is uniform over the other PEs."),
    listed!(PollAndShuffle, Statistical, [4], "lemma2", [("000", 30)], "§3.1, Lemma 2", "A nonempty subproblem is asked in a qualifying phase with probability ≥ γ/2."),
    listed!(PollAndShuffle, Statistical, [6], "qualifying_phases", [("000", 31)], "§3.1, Lemma 3", "Õ(h) qualifying phases (number < log n − log2(2/γ), ≥ γn idle) suffice: their count over h is bounded by a constant."),
    listed!(PollAndShuffle, Statistical, [7, 11, 12, 13], "t_par", [("000", 40)], "§3.1, §4, Thms 1-4", "Poll-and-shuffle's T_par ≤ T_seq/n + Õ(T_atomic + h·(T_phase + c_poll + T_perm/L)): R bounded."),
    listed!(PollAndShuffle, Statistical, [7, 11], "t_par_trend", [("000", 41)], "§3.1, §4, Thms 1-2", "R is free of log n on hypercubic networks (Õ(h), not Õ(h log n)): no upward trend in log2 n."),
    listed!(PollAndShuffle, Statistical, [12, 13], "regime_t_par", [("000", 43)], "§4.1-4.2, Thms 3-4", "At the theorems' sizes (--full, mesh:2 or the fat tree only): n = 2^12 … 2^14, L ≥ 2 kept dimensions, T_phase scaled to twice the longest poll round trip; R bounded by the constant fitted on such runs."),
    listed!(PollAndShuffle, Statistical, [12, 13], "regime_trend", [("000", 44)], "§4.1-4.2, Thms 3-4", "At the theorems' sizes (--full, mesh:2 or the fat tree): R has no upward trend in log2 n over 2^12 … 2^14."),
    listed!(PollAndShuffle, Statistical, [10], "rp_t_par", [("000", 5)], "§1.1 [27]", "Random polling on a network of diameter d: R_d = (T_par − T_seq/n)/(T_atomic + h(Δt + d·T_rout + T_split)) bounded."),
    listed!(PollAndShuffle, Statistical, [8], "rp_vs_pas", [("000", 42)], "§3", "Random polling's excess over poll-and-shuffle's rises with log2 n on hypercubic networks."),
    listed!(PollAndShuffle, Statistical, [14], "notify_tail", [("000", 50)], "§5, Lemma 4", "P[notifications in log2 n phases ≥ a·c·β·log2 n] ≤ n^(−β), β = 2."),
    listed!(PollAndShuffle, Statistical, [15], "idle_estimate", [("000", 51)], "§5, Lemma 5", "P[γ̂ < γ̄ − ε] ≤ 1/n over α·log2 n phases."),
    listed!(PollAndShuffle, Statistical, [16], "adaptive_t_par", [("000", 52)], "§5, Thm 5", "The adaptive trigger's T_par is bounded as Thm 1's: R bounded."),
    listed!(PollAndShuffle, Statistical, [16], "adaptive_t_par_trend", [("000", 53)], "§5, Thm 5", "The adaptive trigger's R is free of log2 n (Õ(h))."),
    listed!(PollAndShuffle, Exact, [16], "shuffles_le_cycles", [("000", 54)], "§5, Thm 5", "The adaptive trigger permutes no more often than every cycle."),
    listed!(PollAndShuffle, Exact, [], "invariants", [("000", 90)], "§3", "Every property of check/ on every run of poll-and-shuffle and of random polling on the network."),
];

/// The claims that test `paper`, in the paper's order.
pub fn of_paper(paper: &str) -> Vec<&'static Listed> {
    let rank = |l: &Listed| l.papers.iter().find(|(p, _)| *p == paper).map(|(_, r)| *r);
    let mut out: Vec<&Listed> = LISTED.iter().filter(|l| rank(l).is_some()).collect();
    out.sort_by_key(|l| rank(l));
    out
}

/// The suites whose claims test `paper`, in [`Suite::ALL`]'s order.
pub fn suites_of(paper: &str) -> Vec<Suite> {
    let of = of_paper(paper);
    Suite::ALL.iter().copied().filter(|s| of.iter().any(|l| l.suite == *s)).collect()
}

/// The catalogue's mutants listed as failing `name` in `suite` (the
/// suite's mutants, and formula mutants listed under the claim).
pub fn mutants_failing(suite: Suite, name: &str) -> Vec<Mutant> {
    CATALOGUE
        .iter()
        .filter(|e| e.fails_under(Catcher::Bounds) == Some(name) && suite.refuses(e.mutant).is_none())
        .map(|e| e.mutant)
        .collect()
}

/// One row of `lbcheck bounds --list [--json]`: a suite's claim, or a
/// claim of COVERAGE.md §5 no suite tests ([`UNTESTED`]; `suite` null,
/// `claim` its number "#N").
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The suite whose runs check it.
    pub suite: Option<String>,
    /// The claim's name, or "#N".
    pub claim: String,
    /// The papers it tests, ", "-separated.
    pub papers: String,
    /// The first of them.
    pub paper: String,
    /// Section, theorem or equation.
    pub at: String,
    /// What the paper states.
    pub statement: String,
    /// "statistical", "exact" or "none" (untested).
    pub kind: &'static str,
    /// A statistical claim's α (its suite's share of the family-wise 1e-6).
    pub alpha: Option<f64>,
    /// The profiles it runs in.
    pub profile: Option<&'static str>,
    /// "tested", "partly" or "untested".
    pub status: &'static str,
    /// COVERAGE.md §5's numbers of the claims it tests.
    pub coverage: Vec<u8>,
    /// Where it is tested outside `lbcheck bounds`.
    pub tested_by: Option<&'static str>,
    /// The catalogue's mutants shown failing it.
    pub mutants: Vec<String>,
    /// Those of `mutants` the catalogue lists under it (asserted by the
    /// campaign test; the others measured, [`ALSO_FAILED`]).
    pub declared: Vec<String>,
    /// Why no mutant is shown failing it.
    pub untestable: Option<&'static str>,
    /// `mutants`, ", "-separated (the table's column).
    pub failed_by: String,
}

/// α of each statistical test of `suite` (Bonferroni over its tests).
pub fn suite_alpha(suite: Suite) -> f64 {
    use super::atomic::{scatter, search};
    alpha_of(match suite {
        Suite::RandomPolling => super::claims::STAT_TESTS,
        Suite::RandomDestination => search::stat_tests(search::Theorem::Search),
        Suite::PriorityBnb => search::stat_tests(search::Theorem::Bnb),
        Suite::Scatter => scatter::STAT_TESTS,
        Suite::Pacheco => super::pacheco::STAT_TESTS,
        Suite::SyncRandomPolling => super::sync_polling::STAT_TESTS,
        Suite::PollAndShuffle => super::poll_and_shuffle::STAT_TESTS,
    })
}

/// The catalogue's mutants shown failing the claim `l`: those listed under
/// it ([`mutants_failing`]), then the others measured failing it
/// ([`ALSO_FAILED`]).
pub fn mutants_shown(l: &Listed) -> Vec<String> {
    let mut mutants: Vec<String> = mutants_failing(l.suite, l.name).iter().map(|m| m.to_string()).collect();
    let also = ALSO_FAILED.iter().filter(|(s, c, _)| *s == l.suite.name() && *c == l.name);
    for m in also.flat_map(|(_, _, ms)| ms.iter()) {
        if !mutants.iter().any(|x| x == m) {
            mutants.push(m.to_string());
        }
    }
    mutants
}

/// A suite claim's row.
fn suite_entry(l: &Listed) -> Entry {
    let papers: Vec<&str> = l.papers.iter().map(|(p, _)| *p).collect();
    let declared: Vec<String> = mutants_failing(l.suite, l.name).iter().map(|m| m.to_string()).collect();
    let mutants = mutants_shown(l);
    let statistical = l.kind == Kind::Statistical;
    Entry {
        suite: Some(l.suite.to_string()),
        claim: l.name.into(),
        papers: papers.join(", "),
        paper: papers[0].into(),
        at: l.at.into(),
        statement: l.statement.into(),
        kind: if statistical { "statistical" } else { "exact" },
        alpha: statistical.then(|| suite_alpha(l.suite)),
        profile: Some(if l.suite == Suite::RandomPolling { "quick, full (--max-pes ≥ 32)" } else { "quick, full" }),
        status: "tested",
        coverage: l.coverage.to_vec(),
        tested_by: None,
        failed_by: mutants.join(", "),
        untestable: mutants.is_empty().then(|| no_mutant_why(l)),
        mutants,
        declared,
    }
}

/// A suite claim no mutant of the catalogue is shown failing.
pub const NO_MUTANT: &str =
    "no mutant of the catalogue is shown failing it yet: a gap, not a reason it cannot be tested";

/// Why no mutant fails `l`: [`NO_MUTANT_WHY`]'s reason, or [`NO_MUTANT`].
fn no_mutant_why(l: &Listed) -> &'static str {
    let of = NO_MUTANT_WHY.iter().find(|(s, c, _)| *s == l.suite.name() && *c == l.name);
    of.map_or(NO_MUTANT, |(_, _, why)| why)
}

/// A row of a claim no suite tests.
fn outside_entry(o: &Outside) -> Entry {
    let acts = |e: &&crate::mutants::Entry| e.caught_by.iter().any(|(_, p)| o.properties.contains(p));
    let mut mutants: Vec<String> = CATALOGUE.iter().filter(acts).map(|e| e.mutant.to_string()).collect();
    let more = OUTSIDE_MUTANTS.iter().find(|(no, _, _)| *no == o.no);
    mutants.extend(more.into_iter().flat_map(|(_, ms, _)| ms.iter().map(|m| m.to_string())));
    let alpha = more.and_then(|(_, _, a)| *a);
    let exact = o.status == Status::Tested || !o.properties.is_empty();
    Entry {
        suite: None,
        claim: format!("#{}", o.no),
        papers: o.paper.into(),
        paper: o.paper.into(),
        at: o.at.into(),
        statement: o.statement.into(),
        kind: if alpha.is_some() {
            "statistical"
        } else if exact {
            "exact"
        } else {
            "none"
        },
        alpha,
        profile: None,
        status: o.status.name(),
        coverage: vec![o.no],
        tested_by: (!o.elsewhere.is_empty()).then_some(o.elsewhere),
        failed_by: mutants.join(", "),
        declared: mutants.clone(),
        mutants,
        untestable: o.untestable,
    }
}

/// Every row: the suites' claims, then the claims no suite tests.
pub fn entries() -> Vec<Entry> {
    LISTED.iter().map(suite_entry).chain(UNTESTED.iter().map(outside_entry)).collect()
}

/// `lbcheck bounds --list`: one row per claim (suite, claim, papers, §,
/// kind, failed by or why not).
pub fn rows() -> Vec<[String; 6]> {
    let kind = |e: &Entry| e.alpha.map_or(e.kind.to_string(), |a| format!("α = {a:.1e}"));
    let by = |e: &Entry| {
        let at = e.tested_by.map(|w| format!("{w}; ")).unwrap_or_default();
        match e.mutants.is_empty() {
            true => format!("{at}({})", e.untestable.unwrap_or("")),
            false => format!("{at}{}", e.failed_by),
        }
    };
    let suite = |e: &Entry| e.suite.clone().unwrap_or_else(|| e.status.into());
    entries().iter().map(|e| [suite(e), e.claim.clone(), e.papers.clone(), e.at.clone(), kind(e), by(e)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_paper_has_claims_and_every_claim_a_known_paper() {
        for (p, _) in PAPERS {
            assert!(!of_paper(p).is_empty(), "{p}");
        }
        for l in LISTED {
            assert!(l.papers.iter().all(|(p, _)| PAPERS.iter().any(|(q, _)| q == p)), "{}", l.name);
        }
        let mut names: Vec<(Suite, &str)> = LISTED.iter().map(|l| (l.suite, l.name)).collect();
        names.sort_by_key(|(s, n)| (s.to_string(), *n));
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "a claim listed twice");
        assert!(Suite::ALL.iter().all(|s| LISTED.iter().any(|l| l.suite == *s)));
    }

    /// Issue 31's "Done when": ≥ 50 claims, each with `paper`, `kind`,
    /// `alpha` when statistical, and mutants or the reason there are none;
    /// every claim of COVERAGE.md §5 (1–52) has a row; every mutant named
    /// exists in the catalogue, and every measured one names a listed claim.
    #[test]
    fn the_json_lists_every_claim_with_its_kind_alpha_and_mutants() {
        let json = serde_json::to_value(entries()).unwrap();
        let rows = json.as_array().unwrap();
        assert!(rows.len() >= 50, "{}", rows.len());
        for r in rows {
            let keys = ["paper", "kind", "alpha", "mutants", "untestable", "status", "coverage"];
            assert!(keys.iter().all(|k| r.get(k).is_some()), "{r}");
            // a suite's share of the family-wise 1e-6; a reproduction's own (one test per command)
            let most = if r["suite"].is_null() { crate::reproduce::verdict::ALPHA } else { 1e-6 };
            assert_eq!(r["kind"] == "statistical", r["alpha"].as_f64().is_some_and(|a| a > 0.0 && a <= most), "{r}");
            let mutants = r["mutants"].as_array().unwrap();
            assert!(!mutants.is_empty() || r["untestable"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
            for m in mutants {
                assert!(CATALOGUE.iter().any(|e| e.info.name == m.as_str().unwrap()), "{m} is not a mutant");
            }
        }
        for no in 1..=52u64 {
            assert!(rows.iter().any(|r| r["coverage"].as_array().unwrap().iter().any(|c| c == no)), "§5 #{no}");
        }
        let untested = rows.iter().filter(|r| r["status"] == "untested").count();
        // issue 31 lists 11: #32 has its suite (sync-random-polling), #19, #37 and #35 random
        // polling's claims, #3 is enforced (bounds::assumptions), #18 and #22 random polling's
        // routing_time and request_cost
        assert_eq!(untested, 3, "untested claims");
        let knapsack = rows.iter().find(|r| r["claim"] == "#40").expect("#40");
        assert_eq!((&knapsack["status"], &knapsack["kind"]), (&"tested".into(), &"statistical".into()), "{knapsack}");
        assert!(knapsack["mutants"].as_array().unwrap().iter().any(|m| m == "poll-lazy"), "{knapsack}");
        for (suite, claim, _) in NO_MUTANT_WHY {
            let row = rows.iter().find(|r| r["suite"] == *suite && r["claim"] == *claim).expect("a listed claim");
            assert!(row["mutants"].as_array().unwrap().is_empty(), "{suite} {claim} has mutants now: drop its reason");
        }
        for (suite, claim, ms) in ALSO_FAILED {
            assert!(LISTED.iter().any(|l| l.suite.name() == *suite && l.name == *claim), "{suite} {claim}");
            assert!(ms.iter().all(|m| CATALOGUE.iter().any(|e| e.info.name == *m)), "{ms:?}");
        }
    }
}
