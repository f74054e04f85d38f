//! Kills for cargo-mutants' survivors in src/protocol/ (`bash
//! scripts/mutants.sh`, docs/mutants.md "cargo-mutants"): each test names
//! the mutant it was shown to fail on. Exact, on the protocols' public
//! helpers, milliseconds each; they are in the quick test profile
//! (.cargo/mutants.toml) by the filter `mutation::`.

use lbcheck::protocol::simd_phase::SimdRules;
use lbcheck::protocol::{tree_children, tree_children_from, tree_parent};

/// The announcement tree rooted at a PE other than 0 (a user detector's
/// [`announcer`](lbcheck::protocol::Detector::announcer), e.g. P − 1):
/// every other PE is a child of exactly one PE, and the root's children
/// are root + 1, root + 2 (mod P). Kills `tree_children_from`'s
/// `pes - root` → `pes + root` (no shipped detector announces from a PE
/// other than 0).
#[test]
fn the_announcement_tree_from_any_root_spans_every_pe() {
    for pes in 1..=9u32 {
        for root in 0..pes {
            let mut seen = vec![0u32; pes as usize];
            for pe in 0..pes {
                tree_children_from(root, pe, pes).for_each(|c| seen[c as usize] += 1);
            }
            let expect: Vec<u32> = (0..pes).map(|p| u32::from(p != root)).collect();
            assert_eq!(seen, expect, "P = {pes}, root {root}");
        }
    }
    let first: Vec<u32> = tree_children_from(3, 3, 4).collect();
    assert_eq!(first, [0, 1]);
}

/// The reduction tree: a PE's children have it as their parent.
#[test]
fn tree_children_and_parent_agree() {
    for pes in 1..=9u32 {
        for pe in 0..pes {
            for c in tree_children(pe, pes) {
                assert_eq!(tree_parent(c), Some(pe), "P = {pes}");
            }
        }
    }
    assert_eq!(tree_parent(0), None);
}

/// SIMD phases' static trigger: at least half the PEs idle, at least one.
/// Kills `SimdRules::triggered`'s `idle > 0` → `idle < 0` (never
/// triggered) and `2 * idle` → `2 + idle` (4 of 8 idle then short of it).
#[test]
fn the_simd_trigger_is_half_idle() {
    assert!(SimdRules::triggered(1, 2));
    assert!(SimdRules::triggered(2, 4));
    assert!(SimdRules::triggered(4, 8));
    assert!(!SimdRules::triggered(1, 4));
    assert!(!SimdRules::triggered(3, 8));
    assert!(!SimdRules::triggered(0, 0));
}

/// The SIMD balancing phase's prefix sums (000 §1.1): an up- and a
/// down-sweep of a binary tree, 2·⌈log2 P⌉ message steps, which the phased
/// machine charges T_rout each before the phase's requests leave. Kills
/// `prefix_steps` → 0, 1 and its `*` → `+`, `/` (only the phase's start
/// time moves: every property holds).
#[test]
fn the_simd_prefix_sums_take_two_sweeps_of_a_binary_tree() {
    use lbcheck::protocol::simd_phase::prefix_steps;
    let steps: Vec<u64> = [1, 2, 3, 4, 5, 8, 9, 1024].into_iter().map(prefix_steps).collect();
    assert_eq!(steps, [0, 2, 4, 4, 6, 6, 8, 20]);
}

/// 000 §1.2's randomised initialisation charges a PE T_split for every
/// split-tree node above its pieces (`Pieces::splits`, the start delay of
/// `sim::logp`): on one PE that is every split made (pieces − 1); on P PEs
/// at least the depth of each of its pieces (−log2 of its energy) and at
/// most every split. Kills `random_pieces`' `seen[v] != rank` → `==` and
/// `*count += 1` → `*= 1` (no PE charged for its splits: the properties
/// hold, only the start times move).
#[test]
fn the_random_initialisation_charges_each_split_on_a_pes_paths() {
    use lbcheck::problem::{dfs::Strategy, Workload};
    use lbcheck::protocol::initial::random_pieces;
    let w: Workload = "synthetic:size=2000,atomic=1,split=uniform,seed=3".parse().unwrap();
    let one = random_pieces(w.root(Strategy::default()), 1, 8, 7);
    assert_eq!(one.splits, [one.pieces.len() as u64 - 1]);
    for (pes, k, seed) in [(3u32, 4u32, 1u64), (5, 2, 9)] {
        let p = random_pieces(w.root(Strategy::default()), pes, k, seed);
        for (rank, &count) in p.splits.iter().enumerate() {
            let deepest = p.pieces.iter().skip(rank).step_by(pes as usize);
            let depth = deepest.map(|x| (1.0 / x.energy.to_f64()).log2().round() as u64).max().unwrap_or(0);
            assert!(depth <= count && count < p.pieces.len() as u64, "P = {pes}, PE {rank}: {count} splits");
        }
    }
}

/// 000 §5's ε, given in hundredths: the paper's 1/2, and what
/// `adaptive:eps=0.25` sets. Kills `Adaptive::eps` → 0.0 / 1.0 / −1.0
/// (the trigger's threshold ε/2 · rate · k; the properties hold at any
/// threshold, only how often PE 0 permutes changes).
#[test]
fn the_adaptive_trigger_reads_eps_in_hundredths() {
    use lbcheck::protocol::poll_and_shuffle::{Adaptive, Trigger};
    assert_eq!(Adaptive::PAPER.eps(), 0.5);
    let Ok(Trigger::Adaptive(a)) = "adaptive:eps=0.25".parse::<Trigger>() else { panic!("parses") };
    assert_eq!(a.eps(), 0.25);
}

/// A trigger prints as it parses (the replay line of a run): the paper's
/// constants as `adaptive`, others in full. Kills `Trigger`'s Display
/// guard `*a == Adaptive::PAPER` → `!=` / `true` / `false`.
#[test]
fn a_trigger_prints_back_to_itself() {
    use lbcheck::protocol::poll_and_shuffle::{Adaptive, Trigger};
    assert_eq!(Trigger::Adaptive(Adaptive::PAPER).to_string(), "adaptive");
    assert_eq!(Trigger::Cycle.to_string(), "cycle");
    let t: Trigger = "adaptive:c=8,eps=0.25".parse().unwrap();
    assert_eq!(t.to_string(), "adaptive:c=8,alpha=2,delta=auto,eps=0.25");
    assert_eq!(t.to_string().parse::<Trigger>(), Ok(t));
}

/// 001 §1.3's synchronous random polling on the smallest machines: one PE
/// works alone (nobody to ask) and passes every property; of two, the idle
/// one asks the other, which splits its work off to it. Kills
/// `SyncRandomPolling::ask`'s `ctx.pes < 2` → `== 2` / `<= 2` (two PEs
/// never poll; one PE asks among none). The quick profile runs it on 4.
#[test]
fn sync_random_polling_on_one_and_two_pes() {
    use lbcheck::harness::{Driver, RunSpec};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    use lbcheck::sim::SimConfig;
    for pes in [1, 2] {
        let driver = Driver::Sim(SimConfig { pes, seed: 1, ..SimConfig::default() });
        let w = "uts:default".parse().unwrap();
        let s = RunSpec::new(w, BalancerKind::SyncRandomPolling, DetectorKind::FourCounter, driver);
        let r = super::assert_all_pass(&s);
        assert_eq!(r.check.metrics.splits > 0, pes == 2, "P = {pes}: {} splits", r.check.metrics.splits);
    }
}

/// A message survives the MPI driver's wire (`Msg::encode` then
/// `Msg::decode`, src/protocol/wire.rs): the quick profile runs no MPI.
/// Kills `Msg::encode` → `()` (its unit test `every_message_round_trips`,
/// outside the quick profile, covers every kind).
#[test]
fn messages_round_trip_on_the_wire() {
    use lbcheck::problem::wire::Reader;
    use lbcheck::problem::{dfs::Strategy, Subproblem, WorkLog, Workload};
    use lbcheck::protocol::Msg;
    let w: Workload = "uts:default".parse().unwrap();
    let template = w.root(Strategy::BottomHalf);
    let mut task = template.clone();
    task.work(20, &mut WorkLog::default());
    let part = task.split().expect("splits after 20 units");
    let msgs = [Msg::Request, Msg::Work { task: part, energy: None }, Msg::WaveUp { wave: 3, sent: 9, recv: 5 }];
    for m in msgs {
        let mut bytes = Vec::new();
        m.encode(&mut bytes);
        let back = Msg::decode(&template, &mut Reader::new(&bytes)).expect("decodes");
        assert_eq!(format!("{back:?}"), format!("{m:?}"));
    }
}

/// 003 §14.7.2's random victim is a uniformly random *other* PE: no PE
/// asks itself, and every PE is asked by someone. Kills
/// `Pacheco::new_request`'s `v + (v >= me)` → `v + (v < me)` (PEs ask
/// themselves, PE 0 is never asked; every property still holds).
#[test]
fn pachecos_random_victim_is_another_pe() {
    use lbcheck::event::{Event, Kind};
    use lbcheck::protocol::pacheco::{PachecoParams, Victim};
    use lbcheck::protocol::{BalancerSpec, DetectorKind};
    let pes = 5;
    let s = super::scenario("uts:default", DetectorKind::Energy, pes, 2);
    let s = lbcheck::harness::RunSpec {
        balancer: BalancerSpec::Pacheco(PachecoParams { victim: Some(Victim::Random) }),
        ..s
    };
    let mut buf = Vec::new();
    s.run(Some(&mut buf)).expect("trace into memory");
    let mut asked = vec![0u32; pes as usize];
    for line in buf.split(|&b| b == b'\n').filter(|l| !l.is_empty()).skip(1) {
        if let Event::Send { from, to, kind: Kind::Request, .. } = serde_json::from_slice(line).expect("an event") {
            assert_ne!(from, to, "PE {from} asked itself");
            asked[to as usize] += 1;
        }
    }
    assert!(asked.iter().all(|&n| n > 0), "requests per PE: {asked:?}");
}

/// Pacheco's parallel tree search (003 §14.7.2) on the smallest machines:
/// one PE searches alone and asks nobody; of two, PE 0 first scatters a
/// part to PE 1 (`Generate` + `Scatter`: the run's first message, PE 1
/// waits for it), and later the one that runs out asks the other,
/// whichever way it picks its victim. Kills `Pacheco::new_request`'s
/// `ctx.pes < 2` → `== 2` / `<= 2` (two PEs never ask; one PE asks among
/// none) and `start`'s `scattered = ctx.pes < 2` → `== 2` / `<= 2` (on two
/// PEs nobody scatters: PE 1 asks first). The quick profile runs it on 4
/// and more.
#[test]
fn pacheco_on_one_and_two_pes() {
    use lbcheck::event::{Event, Kind};
    use lbcheck::protocol::pacheco::{PachecoParams, Victim};
    use lbcheck::protocol::{BalancerSpec, DetectorKind};
    for (pes, victim) in
        [1, 2].into_iter().flat_map(|p| [Victim::Random, Victim::LocalRr, Victim::GlobalRr].map(|v| (p, v)))
    {
        let s = super::scenario("uts:default", DetectorKind::Energy, pes, 1);
        let s =
            lbcheck::harness::RunSpec { balancer: BalancerSpec::Pacheco(PachecoParams { victim: Some(victim) }), ..s };
        let r = super::assert_all_pass(&s);
        let requests = r.check.metrics.messages.get("request").copied().unwrap_or(0);
        assert_eq!(requests > 0, pes == 2, "P = {pes}, {victim}: {requests} requests; replay: {}", s.replay());
        let mut first = None;
        s.run_observed(None, &mut |e| {
            if let (None, Event::Send { from, to, kind, .. }) = (&first, e) {
                first = Some((*from, *to, *kind));
            }
        })
        .expect("no trace");
        let scatter = (pes == 2).then_some((0, 1, Kind::Work));
        assert_eq!(first, scatter, "P = {pes}, {victim}: the first message; replay: {}", s.replay());
    }
}

/// `--victim`'s names print as they parse (the replay line; the trace
/// header, `serde_as_text`). Kills `Victim`'s Display →
/// `Ok(Default::default())` (an empty name).
#[test]
fn victims_print_as_they_parse() {
    use lbcheck::protocol::pacheco::{Victim, VICTIMS};
    for (v, name) in [Victim::Random, Victim::LocalRr, Victim::GlobalRr].into_iter().zip(VICTIMS) {
        assert_eq!(v.to_string(), name);
        assert_eq!(name.parse::<Victim>().ok(), Some(v));
    }
}

/// A protocol's context over [`Task`](lbcheck::problem::Task)s.
type Ctx<'a> = lbcheck::protocol::Ctx<'a, lbcheck::problem::Task>;

/// The commands a protocol at PE `me` of `pes` emits at time `now` while
/// `f` runs (its random stream seeded with 0).
fn commands(
    me: u32,
    pes: u32,
    now: u64,
    f: impl FnOnce(&mut Ctx),
) -> Vec<lbcheck::protocol::Command<lbcheck::problem::Task>> {
    use rand::SeedableRng;
    let (mut rng, mut out) = (rand_chacha::ChaCha8Rng::seed_from_u64(0), Vec::new());
    f(&mut Ctx { now, me, pes, rng: &mut rng, out: &mut out });
    out
}

/// The bounds PE `me` of `pes` sends while `f` runs: (to, bound).
fn bounds_sent(
    p: &mut lbcheck::protocol::Propagation,
    me: u32,
    pes: u32,
    f: impl FnOnce(&mut lbcheck::protocol::Propagation, &mut Ctx),
) -> Vec<(u32, u64)> {
    use lbcheck::protocol::{Command, Msg};
    let sent = commands(me, pes, 0, |ctx| f(p, ctx)).into_iter().filter_map(|c| match c {
        Command::Send { to, msg: Msg::Bound(v) } => Some((to, v)),
        _ => None,
    });
    sent.collect()
}

/// Reduce-tree bound propagation (002 §4.5) message by message, at PE 1
/// of 7 (parent 0, children 3 and 4): its own solution goes up only; the
/// same bound from its parent goes down once (it came up through PE 1,
/// which must still pass it to its subtree: `bound_delay`'s finding); an
/// equal bound from a child improves nothing and goes nowhere. Kills
/// `Propagation::improves`' `<` → `<=` (an equal bound counted as
/// better), `start`'s `== 0` → `!= 0` and → `None` (the seam of the
/// `prune-unachieved` mutant), and `BoundMode::from_str` → `Ok(default)`.
#[test]
fn reduce_tree_propagation_message_by_message() {
    use lbcheck::protocol::bound::Rules;
    use lbcheck::protocol::{BoundMode, Propagation};
    let mut p = Propagation::new(BoundMode::ReduceTree, Rules::PAPER);
    assert_eq!(bounds_sent(&mut p, 1, 7, |p, ctx| p.found(ctx, Some(10))), [(0, 10)]);
    assert_eq!(bounds_sent(&mut p, 1, 7, |p, ctx| assert!(!p.on_bound(ctx, 3, 10))), []);
    assert_eq!(bounds_sent(&mut p, 1, 7, |p, ctx| assert!(!p.on_bound(ctx, 0, 10))), [(3, 10), (4, 10)]);
    assert_eq!(bounds_sent(&mut p, 1, 7, |p, ctx| assert!(!p.on_bound(ctx, 0, 10))), []);
    assert_eq!(bounds_sent(&mut p, 1, 7, |p, ctx| assert!(p.on_bound(ctx, 4, 8))), [(0, 8)]);
    assert_eq!(p.best(), Some(8));
    let relaxing = Rules { takes_relaxation: true, ..Rules::PAPER };
    assert_eq!(Propagation::new(BoundMode::ReduceTree, relaxing).start(0, Some(5)), Some(5));
    assert_eq!(Propagation::new(BoundMode::ReduceTree, relaxing).start(1, Some(5)), None);
    assert_eq!(Propagation::new(BoundMode::ReduceTree, Rules::PAPER).start(0, Some(5)), None);
    for mode in [BoundMode::ReduceTree, BoundMode::Broadcast, BoundMode::None, BoundMode::FirstSolution] {
        assert_eq!(mode.to_string().parse::<BoundMode>().ok(), Some(mode));
    }
    assert!("bcast".parse::<BoundMode>().is_err());
}

/// Broadcast bound propagation (002 §4.5): a PE's own solution goes to
/// every other PE, a bound received goes nowhere (every PE had it from
/// its finder). Kills `spread`'s broadcast guard `from.is_none()` →
/// `true` (each receiver broadcasting again: P² messages, no bound lost,
/// so no property sees it).
#[test]
fn broadcast_sends_own_solutions_only() {
    use lbcheck::protocol::bound::Rules;
    use lbcheck::protocol::{BoundMode, Propagation};
    let mut p = Propagation::new(BoundMode::Broadcast, Rules::PAPER);
    assert_eq!(bounds_sent(&mut p, 1, 4, |p, ctx| p.found(ctx, Some(10))), [(0, 10), (2, 10), (3, 10)]);
    assert_eq!(bounds_sent(&mut p, 1, 4, |p, ctx| assert!(p.on_bound(ctx, 3, 8))), []);
    assert_eq!(p.best(), Some(8));
}

/// Two subproblem slots (002 §3, `--slots 2`): a PE asks for a second
/// subproblem while it still works on its first, so some `work` message
/// reaches a PE that holds work (received or started with, not yet
/// `idle`); with one slot none ever does (a PE asks only once idle).
/// Kills `with_slots` without its `second` (two slots silently one; the
/// properties hold for both, and only `two_slots`' sign test, seconds
/// long, told them apart).
#[test]
fn a_second_slot_receives_work_while_the_first_is_busy() {
    use lbcheck::event::{Event, Kind};
    let onto_busy = |slots: u8| {
        let workload = "synthetic:size=20000,split=uniform";
        let mut s = super::scenario(workload, lbcheck::protocol::DetectorKind::Energy, 16, 1);
        s.balancer.polling_mut().expect("random polling").slots = Some(slots);
        super::sim(&mut s).t_rout = 50;
        let mut holds = vec![false; 16];
        holds[0] = true;
        let mut count = 0;
        let observe = &mut |e: &Event| match *e {
            Event::Recv { pe, kind: Kind::Work, .. } => {
                count += u32::from(holds[pe as usize]);
                holds[pe as usize] = true;
            }
            Event::Idle { pe, .. } => holds[pe as usize] = false,
            _ => {}
        };
        let r = s.run_observed(None, observe).unwrap();
        assert!(r.check.all_pass(), "{slots} slots: {:?}", r.check.failures());
        count
    };
    assert_eq!(onto_busy(1), 0);
    assert!(onto_busy(2) > 0);
}

/// What detector `d` does as PE `me` of `pes` while `f` runs: the energy
/// it sends (to, energy) and the timers it sets (after).
fn energy_sent(
    d: &mut lbcheck::protocol::energy::Energy,
    me: u32,
    pes: u32,
    f: impl FnOnce(&mut lbcheck::protocol::energy::Energy, &mut Ctx),
) -> (Vec<(u32, String)>, Vec<u64>) {
    use lbcheck::protocol::{Command, Msg};
    let (mut sent, mut timers) = (Vec::new(), Vec::new());
    for c in commands(me, pes, 0, |ctx| f(d, ctx)) {
        match c {
            Command::Send { to, msg: Msg::Energy(e) } => sent.push((to, e.to_string())),
            Command::Timer { after } => timers.push(after),
            _ => {}
        }
    }
    (sent, timers)
}

/// 003 §14.7.4's spanning-tree variant: PE 5 of 8 (parent 2) gives its
/// energy back to its parent when it goes idle, and an idle PE forwards
/// energy it receives to its parent; the direct variant sends both to
/// PE 0, at once, setting no timer. Kills `Energy::sink` →
/// `Default::default()` (every PE returning straight to PE 0: correct,
/// and faster, so no property sees it) and `on_idle`'s `idle_hold > 0 &&
/// me != 0` → `||`, `==`, `>=` (a timer of 0 units before giving back).
#[test]
fn tree_energy_climbs_to_the_parent() {
    use lbcheck::base::Fraction;
    use lbcheck::protocol::energy::{Energy, Rules};
    use lbcheck::protocol::{Detector, Msg};
    let half = Fraction::one().half();
    for (tree, sink) in [(true, 2), (false, 0)] {
        let mut d = Energy::new(tree, Rules::PAPER);
        let got = energy_sent(&mut d, 5, 8, |d, ctx| {
            d.on_work_received(ctx, 0, Some(half.clone()));
            d.on_idle(ctx);
        });
        assert_eq!(got, (vec![(sink, half.to_string())], vec![]), "tree {tree}");
        let forwarded = energy_sent(&mut d, 5, 8, |d, ctx| d.on_message(ctx, 11, Msg::Energy(half.clone()), true));
        assert_eq!(forwarded, (vec![(sink, half.to_string())], vec![]), "tree {tree}");
    }
}

/// The seam of the late-energy mutants (`Rules::idle_hold`): a PE other
/// than 0 that goes idle sets a timer of `idle_hold` units and gives its
/// energy back only when it fires; PE 0 keeps its own. Kills `on_idle`'s
/// `idle_hold > 0` → `< 0` (the hold never applied, so the catalogue's
/// late-energy mutants would pass).
#[test]
fn held_energy_goes_back_when_the_timer_fires() {
    use lbcheck::base::Fraction;
    use lbcheck::protocol::energy::{Energy, Rules};
    use lbcheck::protocol::Detector;
    let half = Fraction::one().half();
    let mut d = Energy::new(false, Rules { idle_hold: 7, ..Rules::PAPER });
    let idle = energy_sent(&mut d, 5, 8, |d, ctx| {
        d.on_work_received(ctx, 0, Some(half.clone()));
        d.on_idle(ctx);
    });
    assert_eq!(idle, (vec![], vec![7]));
    assert_eq!(energy_sent(&mut d, 5, 8, |d, ctx| d.on_timer(ctx, true)), (vec![(0, half.to_string())], vec![]));
    let mut root = Energy::new(false, Rules { idle_hold: 7, ..Rules::PAPER });
    assert_eq!(energy_sent(&mut root, 0, 8, |d, ctx| d.on_idle(ctx)), (vec![], vec![]));
}

/// 001 §1.3's synchronous random polling (S-13), exactly: every request
/// leaves at a round start (a multiple of T_round) for another PE; a PE
/// never has two requests out; one that goes idle, or is rejected, with no
/// request out asks at the next round start (the same instant if it is
/// one) unless it terminated first; its reply arrives within the round; a
/// PE sends at most one part a round, not before T_gather into it; a
/// request's `queue` is the requests its PE holds unanswered. Kills
/// `SyncRandomPolling::ask`'s `||` → `&&` (two requests out), `ctx.pes <
/// 2` → `> 2` (no PE of 4 ever asks), every slip in the next round's
/// start (`%` → `/`, `/` → `*`, `!=` → `==`, `next - now` → `+` / `/`:
/// asks late, or never again), the victim's `v + (v >= me)` → `*` (asks
/// itself); `serve_round`'s round number (`/` → `%`, `*`: a round served
/// twice or late) and guard (`||` → `&&`, `% length` → `/` or `+`: before
/// T_gather); `on_exhausted`, `on_timer` → `()` and their guards (never
/// asks again); `queued_requests` → 0 or 1.
#[test]
fn sync_random_polling_follows_its_rounds() {
    use lbcheck::harness::{Driver, RunSpec};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    use lbcheck::sim::SimConfig;
    for (pes, seed) in [(4, 1), (8, 2), (16, 3)] {
        let sim = SimConfig { pes, seed, ..SimConfig::default() };
        let w = "synthetic:size=20000,split=uniform".parse().unwrap();
        let s = RunSpec::new(w, BalancerKind::SyncRandomPolling, DetectorKind::Energy, Driver::Sim(sim));
        let mut watch = SyncWatch::new(pes, sim.sync_rounds());
        let r = s.run_observed(None, &mut |e| watch.observe(e)).expect("no trace");
        assert!(r.outcome.finished() && r.check.failures().is_empty(), "replay: {}", s.replay());
        assert!(watch.bad.is_empty(), "P = {pes}: {:#?}; replay: {}", watch.bad, s.replay());
        assert!(watch.requests >= u64::from(pes), "P = {pes}: {} requests", watch.requests);
    }
}

/// What `sync_random_polling_follows_its_rounds` watches: per PE when its
/// request out left, the round start it is due to ask at and the requests
/// it holds unanswered; the parts sent per (PE, round); what broke.
struct SyncWatch {
    rounds: lbcheck::protocol::sync_polling::Rounds,
    out: Vec<Option<u64>>,
    due: Vec<Option<u64>>,
    held: Vec<u32>,
    parts: std::collections::BTreeSet<(u32, u64)>,
    requests: u64,
    bad: Vec<String>,
}

impl SyncWatch {
    fn new(pes: u32, rounds: lbcheck::protocol::sync_polling::Rounds) -> SyncWatch {
        let n = pes as usize;
        let (out, due, held) = (vec![None; n], vec![None; n], vec![0; n]);
        SyncWatch { rounds, out, due, held, parts: Default::default(), requests: 0, bad: Vec::new() }
    }

    fn observe(&mut self, e: &lbcheck::event::Event) {
        use lbcheck::event::{Event, Kind};
        match *e {
            Event::Send { t, from, to, kind: Kind::Request, .. } => self.asks(t, from, to),
            Event::Send { t, from, kind: Kind::Work, .. } => self.answers(from, Some(t)),
            Event::Send { from, kind: Kind::Reject, .. } => self.answers(from, None),
            Event::Recv { pe, kind: Kind::Request, queue, .. } => self.queued(pe, queue),
            Event::Recv { t, pe, kind: kind @ (Kind::Reject | Kind::Work), .. } => {
                self.replied(t, pe, kind == Kind::Reject)
            }
            Event::Idle { t, pe } if self.out[pe as usize].is_none() => self.due[pe as usize] = Some(self.next(t)),
            Event::Terminated { t, pe } => {
                let never = self.due[pe as usize].filter(|&d| d < t);
                self.bad.extend(never.map(|d| format!("PE {pe} never asked at {d}")));
            }
            _ => {}
        }
    }

    /// The first round start at or after `t`.
    fn next(&self, t: u64) -> u64 {
        t.div_ceil(self.rounds.length) * self.rounds.length
    }

    fn asks(&mut self, t: u64, from: u32, to: u32) {
        let pe = from as usize;
        let (out, due) = (self.out[pe], self.due[pe]);
        if t % self.rounds.length != 0 || to == from || out.is_some() || due.is_some_and(|d| d != t) {
            self.bad
                .push(format!("PE {pe} asks {to} at {t}: T_round {}, out {out:?}, due {due:?}", self.rounds.length));
        }
        (self.out[pe], self.due[pe], self.requests) = (Some(t), None, self.requests + 1);
    }

    /// PE `from` answers a request, with a part sent at `part`, if one.
    fn answers(&mut self, from: u32, part: Option<u64>) {
        self.held[from as usize] = self.held[from as usize].saturating_sub(1);
        let Some(t) = part else { return };
        if !self.parts.insert((from, t / self.rounds.length)) || t % self.rounds.length < self.rounds.gather {
            self.bad.push(format!("PE {from} sends a part at {t}: a second in its round, or before T_gather"));
        }
    }

    fn queued(&mut self, pe: u32, queue: Option<u32>) {
        let held = self.held[pe as usize];
        if queue != Some(held) {
            self.bad.push(format!("PE {pe} holds {held} requests, its `recv` logs queue {queue:?}"));
        }
        self.held[pe as usize] += 1;
    }

    fn replied(&mut self, t: u64, pe: u32, rejected: bool) {
        let pe = pe as usize;
        if self.out[pe].take().is_none_or(|asked| t > asked + self.rounds.length) {
            self.bad.push(format!("PE {pe}'s reply at {t} answers no request of its round"));
        }
        self.due[pe] = rejected.then(|| self.next(t));
    }
}

/// `sync-poll-neighbour`'s seam (SyncRules::random_victim = false) does
/// what the catalogue says: PE i always asks its ring successor
/// (i + 1) mod P. Kills `SyncRandomPolling::ask`'s `me % (pes − 1)` →
/// `me / (pes − 1)`, `me + (pes − 1)`, `me % (pes + 1)`, `me % (pes / 1)`
/// (the mutant asked other PEs, or none that exists).
#[test]
fn sync_poll_neighbour_asks_the_ring_successor() {
    use lbcheck::event::{Event, Kind};
    use lbcheck::harness::{Driver, RunSpec};
    use lbcheck::mutants::Mutant;
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    use lbcheck::sim::SimConfig;
    let mutant: Mutant = "sync-poll-neighbour".parse().unwrap();
    let sim = SimConfig { pes: 5, seed: 1, ..SimConfig::default() };
    let w = "synthetic:size=5000,split=uniform".parse().unwrap();
    let s = RunSpec::new(w, BalancerKind::SyncRandomPolling, DetectorKind::Energy, Driver::Sim(sim));
    let s = s.with_mutant(Some(mutant));
    let mut asked = std::collections::BTreeSet::new();
    let mut watch = |e: &Event| {
        if let Event::Send { from, to, kind: Kind::Request, .. } = *e {
            asked.insert((from, to));
        }
    };
    s.run_observed(None, &mut watch).expect("no trace");
    let expect: std::collections::BTreeSet<(u32, u32)> = (0..5).map(|i| (i, (i + 1) % 5)).collect();
    assert!(asked.is_subset(&expect) && asked.len() >= 3, "asked {asked:?}; replay: {}", s.replay());
}

/// 001 §1.3's service point, on one PE holding 64 units with `asks`
/// requests queued, polled past T_gather: (parts sent, rejects sent).
fn sync_service(rules: lbcheck::protocol::sync_polling::SyncRules, asks: u32) -> (usize, usize) {
    use lbcheck::problem::dfs::Strategy;
    use lbcheck::problem::Workload;
    use lbcheck::protocol::sync_polling::{Rounds, SyncRandomPolling};
    use lbcheck::protocol::{Balancer, Command, Msg};
    let w: Workload = "synthetic:size=64,split=balanced".parse().unwrap();
    let mut pe = SyncRandomPolling::new(rules, Rounds { length: 100, gather: 10 });
    commands(0, 8, 0, |ctx| {
        pe.start(ctx, Some(w.root(Strategy::BottomHalf)));
        (1..=asks).for_each(|from| pe.on_message(ctx, from, Msg::Request));
    });
    let out = commands(0, 8, 11, |ctx| pe.on_poll(ctx));
    let sent = |work: bool| {
        out.iter().filter(|c| matches!(c, Command::Send { msg, .. } if matches!(msg, Msg::Work { .. }) == work)).count()
    };
    (sent(true), sent(false))
}

/// The service point: one request of a round gets a part, the others a
/// reject; under `sync-serve-none-when-many`'s rule a lone request is
/// still served and two or more are all rejected. Kills `serve_round`'s
/// `i == chosen && …` → `||` (every request served), `serves_when_many
/// || !many` → `&&` (the paper's rule serves none of many) and its `!`
/// deleted (the mutant's rule serves only many).
#[test]
fn sync_service_serves_one_request_a_round() {
    use lbcheck::protocol::sync_polling::SyncRules;
    let none_of_many = SyncRules { serves_when_many: false, ..SyncRules::PAPER };
    assert_eq!(sync_service(SyncRules::PAPER, 3), (1, 2));
    assert_eq!(sync_service(SyncRules::PAPER, 1), (1, 0));
    assert_eq!(sync_service(none_of_many, 3), (0, 3));
    assert_eq!(sync_service(none_of_many, 1), (1, 0));
}

/// What four-counter's PE 0 alone (P = 1, idle) emits while `f` runs:
/// the waves it completed, the timers it set, whether it announced.
fn four_counter_out(
    d: &mut lbcheck::protocol::four_counter::FourCounter,
    f: impl FnOnce(&mut lbcheck::protocol::four_counter::FourCounter, &mut Ctx),
) -> (Vec<u64>, Vec<u64>, bool) {
    use lbcheck::protocol::Command;
    let out = commands(0, 1, 0, |ctx| f(d, ctx));
    let waves = out.iter().filter_map(|c| if let Command::Wave { wave, .. } = c { Some(*wave) } else { None });
    let timers = out.iter().filter_map(|c| if let Command::Timer { after } = c { Some(*after) } else { None });
    (waves.collect(), timers.collect(), out.iter().any(|c| matches!(c, Command::Announce)))
}

/// The seam of `wave-pause` (`Rules::pause`): PE 0 sets a timer of
/// `pause` units after each wave and starts the next one only when it
/// fires; with the paper's rules (no pause) two waves run at once and it
/// announces. Kills `wave_done`'s `pause > 0` → `< 0`, `== 0`, `>= 0`
/// (the pause never applied, or a timer of 0 after every wave) and
/// `FourCounter::on_timer` → `()` (a paused PE 0 never waves again): the
/// references never pause, so the quick profile's runs could not tell.
#[test]
fn a_paused_wave_resumes_when_the_timer_fires() {
    use lbcheck::protocol::four_counter::{FourCounter, Rules};
    use lbcheck::protocol::Detector;
    let mut paper = FourCounter::new(Rules::PAPER);
    assert_eq!(four_counter_out(&mut paper, |d, ctx| d.start(ctx, false, None)), (vec![1, 2], vec![], true));
    let mut paused = FourCounter::new(Rules { pause: 7, ..Rules::PAPER });
    assert_eq!(four_counter_out(&mut paused, |d, ctx| d.start(ctx, false, None)), (vec![1], vec![7], false));
    assert_eq!(four_counter_out(&mut paused, |d, ctx| d.on_timer(ctx, true)), (vec![2], vec![], true));
}

/// 001 §2 at P = 1 with a work message in flight to itself: a wave would
/// complete at once with the same totals (S ≠ R) forever, so after two
/// such waves PE 0 waits until it goes idle again (after the message
/// arrived), then two waves with S = R announce. Kills `wave_done`'s
/// stall guard `prev == Some(totals)` → `!=` (the first wave already
/// waits: one wave, not two) and `totals.0 != totals.1` → `==` (the
/// guard never holds: waves without end, the test's stack overflows);
/// no reference run reaches the stall (001's balancers never send work
/// to themselves), so the quick profile could not tell.
#[test]
fn a_lone_pe_waits_for_its_own_work_message() {
    use lbcheck::protocol::four_counter::{FourCounter, Rules};
    use lbcheck::protocol::Detector;
    let mut d = FourCounter::new(Rules::PAPER);
    let sent = |d: &mut FourCounter, ctx: &mut Ctx| {
        d.start(ctx, true, None);
        assert_eq!(d.on_work_sent(ctx, 1), None);
        d.on_idle(ctx);
    };
    assert_eq!(four_counter_out(&mut d, sent), (vec![1, 2], vec![], false));
    let arrived = |d: &mut FourCounter, ctx: &mut Ctx| {
        d.on_work_received(ctx, 0, None);
        d.on_idle(ctx);
    };
    assert_eq!(four_counter_out(&mut d, arrived), (vec![3, 4], vec![], true));
}

/// Of a random polling run on 16 PEs with Δt = 64 (requests pile up at the
/// few busy PEs between their polls) under `params`: the longest queue a
/// request found on arrival (its `recv`'s `queue`), and the most parts one
/// PE sent at one instant (one poll's answers).
fn queues_and_bursts(params: lbcheck::protocol::random_polling::RandomPollingParams) -> (u32, u32) {
    use lbcheck::event::{Event, Kind};
    let mut s = super::scenario("synthetic:size=50000,split=uniform", lbcheck::protocol::DetectorKind::Energy, 16, 1);
    *s.balancer.polling_mut().expect("random polling") = params;
    super::sim(&mut s).dt = 64;
    let (mut longest, mut last, mut burst, mut most) = (0, None, 0, 0);
    let observe = &mut |e: &Event| match *e {
        Event::Recv { kind: Kind::Request, queue: Some(q), .. } => longest = longest.max(q),
        Event::Send { t, from, kind: Kind::Work, .. } => {
            burst = if last == Some((t, from)) { burst + 1 } else { 1 };
            (last, most) = (Some((t, from)), most.max(burst));
        }
        _ => {}
    };
    let r = s.run_observed(None, observe).unwrap();
    assert!(r.check.all_pass(), "{params:?}: {:?}; replay: {}", r.check.failures(), s.replay());
    (longest, most)
}

/// 001 Fig. 1 answers one request a poll, 003 §14.7.2's Service_requests
/// (`--serve all`) every queued one; queue trimming (001 §4) rejects a
/// request that finds `--queue-limit` queued, so none finds more (and,
/// requests piling up, some find exactly that many); `sqrt` is ⌈√16⌉ = 4.
/// Kills `RandomPollingParams::serves_all` → `true`, `false`, `==` → `!=`;
/// `queue_limit` → `None`, `Some(0)`, `Some(1)`; `QueueLimit::of`'s
/// ⌈√P⌉ (→ 0, 1, `*` → `+`, `/`, `>=` → `<`); `on_request`'s `full` and
/// queueing guards (`&&` → `||`, `>=` → `<`, `!` deleted): the
/// properties hold under each (a balancer that serves more, or trims
/// more, less or never, is still correct), and only `run_cli`'s slower
/// tests ran these flags.
#[test]
fn random_polling_serves_and_trims_as_its_flags_say() {
    use lbcheck::protocol::random_polling::{QueueLimit, RandomPollingParams, Serve};
    let with = |serve, queue_limit| RandomPollingParams { serve, queue_limit, ..Default::default() };
    let (longest, most) = queues_and_bursts(with(None, None));
    assert!(longest > 4 && most == 1, "serve one, no limit: longest queue {longest}, most parts at once {most}");
    assert_eq!(queues_and_bursts(with(Some(Serve::One), None)).1, 1);
    assert!(queues_and_bursts(with(Some(Serve::All), None)).1 >= 2, "--serve all answers several at a poll");
    assert_eq!(queues_and_bursts(with(None, Some(QueueLimit::Fixed(3)))).0, 3);
    assert_eq!(queues_and_bursts(with(None, Some(QueueLimit::Sqrt))).0, 4);
    for (pes, root) in [(1, 1), (2, 2), (4, 2), (5, 3), (16, 4), (17, 5), (1 << 20, 1 << 10)] {
        assert_eq!(QueueLimit::Sqrt.of(pes), root, "⌈√{pes}⌉");
    }
}

/// `--queue-limit` prints as it parses (the replay line and the run
/// specification carry it as text). Kills `QueueLimit`'s `Display` →
/// `Ok(Default::default())` (an empty limit in the replay) and `FromStr`
/// without its `"sqrt"` arm.
#[test]
fn queue_limits_print_as_they_parse() {
    use lbcheck::protocol::random_polling::QueueLimit;
    for (text, limit) in [("sqrt", QueueLimit::Sqrt), ("3", QueueLimit::Fixed(3))] {
        assert_eq!(text.parse::<QueueLimit>().ok(), Some(limit), "{text}");
        assert_eq!(limit.to_string(), text);
    }
    assert!("root".parse::<QueueLimit>().is_err());
}

/// 001 Fig. 1 event by event on 2 and 5 PEs (one slot): an idle PE asks a
/// uniformly random *other* PE, at once (when it goes idle, and again when
/// a reject reaches it idle), one request out at a time; every PE is asked
/// by someone, and on 2 PEs work moves. Kills the victim rule's
/// `v + (v >= me)` → `*`, `>=` → `<` (PEs ask themselves), `victim` → 0,
/// `ask`'s `pes < 2` → `<=` (2 PEs never poll), `on_exhausted`'s and the
/// reject arm's `!` deleted (a PE that stops asking): every property
/// holds under each, slower.
#[test]
fn random_polling_asks_another_pe_at_once_when_idle() {
    use lbcheck::event::{Event, Kind};
    for (pes, seed) in [(2, 1), (2, 2), (5, 1), (5, 2), (5, 3)] {
        let s =
            super::scenario("synthetic:size=50000,split=uniform", lbcheck::protocol::DetectorKind::Energy, pes, seed);
        let n = pes as usize;
        let (mut asked, mut out, mut idle, mut due, mut moved) =
            (vec![0; n], vec![false; n], vec![false; n], vec![None; n], 0);
        let mut announced = false; // then PEs stop asking
        let observe = &mut |e: &Event| {
            if announced {
                return;
            }
            if let Some(late) = due.iter().position(|d: &Option<u64>| d.is_some_and(|t| t < e.time())) {
                panic!("P = {pes}, seed {seed}: PE {late} idle since {:?} without asking", due[late]);
            }
            match *e {
                Event::Send { from, to, kind: Kind::Request, .. } => {
                    assert!(from != to && !out[from as usize], "P = {pes}, seed {seed}: PE {from} asks {to}");
                    (asked[to as usize], out[from as usize], due[from as usize]) = (asked[to as usize] + 1, true, None);
                }
                Event::Send { kind: Kind::Work, .. } => moved += 1,
                Event::Recv { pe, kind: Kind::Reject | Kind::Work, .. } => {
                    out[pe as usize] = false;
                    if idle[pe as usize] {
                        due[pe as usize] = Some(e.time()); // a reject (work makes it busy first)
                    }
                }
                Event::Busy { pe, .. } => (idle[pe as usize], due[pe as usize]) = (false, None),
                Event::Idle { pe, t } => {
                    idle[pe as usize] = true;
                    due[pe as usize] = (!out[pe as usize]).then_some(t);
                }
                Event::Announce { .. } => announced = true,
                _ => {}
            }
        };
        let r = s.run_observed(None, observe).unwrap();
        assert!(r.check.all_pass(), "{:?}; replay: {}", r.check.failures(), s.replay());
        assert!(asked.iter().all(|&k| k > 0) && moved > 0, "P = {pes}, seed {seed}: asked {asked:?}, {moved} parts");
    }
}

/// Two slots (002 §3): a request is served from the nonempty slot of
/// smallest generation (the larger parts). PE 0 holds a root (generation
/// 0) and receives a part of generation 2 into its second slot; at its
/// next poll it splits the root (a part of generation 1); when the young
/// part is worked out, it asks at its next poll (it still holds the root).
/// Kills `give`'s `!oldest` with its `!` deleted (the newest slot split:
/// the seam of `split-deepest-slot`, whose run the quick profile does not
/// hold) and `slot_emptied` → `false` (a PE then asks only when work
/// arrives into an empty slot: work still reaches busy PEs).
#[test]
fn a_second_slot_is_served_from_the_oldest_subproblem() {
    use lbcheck::problem::{dfs::Strategy, Subproblem, WorkLog, Workload};
    use lbcheck::protocol::random_polling::{RandomPolling, Rules};
    use lbcheck::protocol::{Balancer, Command, Msg};
    let w: Workload = "synthetic:size=1000,split=uniform".parse().unwrap();
    let (root, mut young) = (w.root(Strategy::BottomHalf), w.root(Strategy::BottomHalf));
    young.split().expect("a part");
    let young = young.split().expect("another part");
    assert_eq!((root.generation(), young.generation()), (0, 2));
    let mut pe = RandomPolling::new(Rules::paper(), None).with_slots(2);
    let out = commands(0, 2, 0, |ctx| {
        pe.start(ctx, Some(root));
        pe.on_message(ctx, 1, Msg::Work { task: young, energy: None });
        pe.on_message(ctx, 1, Msg::Request);
        pe.on_poll(ctx);
    });
    let splits: Vec<u32> =
        out.iter().filter_map(|c| if let Command::Split { gen } = c { Some(*gen) } else { None }).collect();
    assert_eq!(splits, [1]);
    let young = pe.task_mut().expect("the slot worked on: the youngest");
    assert_eq!(young.generation(), 2);
    young.work(u64::MAX, &mut WorkLog::default());
    let asks = commands(0, 2, 1, |ctx| pe.on_poll(ctx));
    assert!(matches!(asks[..], [Command::Send { to: 1, msg: Msg::Request }]), "a slot emptied: asks at once");
}

/// `lbcheck simulate --json ARGS`'s report (exit 0 asserted).
fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate", "--json"];
    all.extend(args);
    let (code, out, err) = super::lbcheck(&all);
    assert_eq!(code, 0, "{args:?}:\n{out}{err}");
    serde_json::from_str(&out).unwrap()
}

/// Pacheco's search keeps one subproblem, so it reports its incumbent
/// through [`Balancer::incumbent`](lbcheck::protocol::Balancer::incumbent)'s
/// default: under `--bound broadcast` each better bound goes to the P − 1
/// others (003 §14.7.1). Kills the default's `-> None` (only random
/// polling, which overrides it, broadcast in the quick profile).
#[test]
fn pacheco_broadcasts_each_better_bound() {
    let args = ["--balancer", "pacheco", "--bound", "broadcast", "--termination", "four-counter"];
    let v = simulate_json(&[&args[..], &["--workload", "tsp:cities=9,seed=2", "--pes", "7", "--seed", "2"]].concat());
    assert_eq!(v["optimum"], v["sequential_optimum"], "{}", v["replay"]);
    let bounds = v["messages"]["bound"].as_u64().unwrap();
    assert!(bounds > 0 && bounds % 6 == 0, "P − 1 = 6 per improvement: {bounds}");
}

/// First-solution mode with Pacheco's search (002 §4.5): every PE drops
/// its subproblem when it hears of the stop, through
/// [`Balancer::discard`](lbcheck::protocol::Balancer::discard)'s default.
/// Kills the default's body → `()` (PEs searched on after the stop).
#[test]
fn pacheco_drops_its_work_at_the_first_solution() {
    let args = ["--balancer", "pacheco", "--workload", "puzzle15:moves=40,seed=1", "--pes", "16"];
    let v = simulate_json(&[&args[..], &["--bound", "first-solution"]].concat());
    for (name, p) in v["properties"].as_object().unwrap() {
        assert_eq!(p["pass"], true, "{name}: {}", p["detail"]);
    }
    let (full, first) = (v["t_seq"].as_u64().unwrap(), v["nodes"].as_u64().unwrap());
    assert!(first < full, "the search stopped early: {first} nodes vs {full}");
}

/// A balancer that never deactivates (Pacheco's search: the default
/// [`Balancer::inactive_window`](lbcheck::protocol::Balancer::inactive_window),
/// `None`) works its first slice whole: PE 0's first `work` event is Δt
/// units at t = Δt (001 Fig. 1's slice; here Δt = 10). Kills the
/// default's → `Some((0, 1))` (PE 0 parked until t = 1), `Some((1, 0))`
/// and `Some((1, 1))` (the first slice cut to end at t = 1): runs that stay
/// correct, so no property can tell.
#[test]
fn a_balancer_without_an_inactive_window_works_its_first_slice_whole() {
    let trace = std::env::temp_dir().join(format!("lbcheck-first-slice-{}.jsonl", std::process::id()));
    let path = trace.to_str().unwrap();
    let args = ["--balancer", "pacheco", "--workload", "synthetic:size=200", "--pes", "4", "--seed", "1", "--dt", "10"];
    simulate_json(&[&args[..], &["--trace", path]].concat());
    let text = std::fs::read_to_string(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    let first = text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).find(|e| e["ev"] == "work");
    let first = first.expect("a work event");
    assert_eq!((&first["pe"], &first["t"], &first["units"]), (&0.into(), &10.into(), &10.into()), "{first}");
}

mod check;

/// 000 §1.2's K·P pieces stay within 2^24: K = 64 on 2^18 PEs is the
/// most, one PE more is refused (the exit-2 test asks 2^20 PEs, far past
/// the limit). Kills `InitialSplit::validate`'s `>` → `>=`, `==`, `<`, its
/// `*` → `+`, `/` and `<<` → `>>` (read ahead of cargo-mutants).
#[test]
fn the_random_initialisation_allows_up_to_2_24_pieces() {
    use lbcheck::protocol::initial::{InitialSplit, InitialSplitError};
    assert_eq!(InitialSplit::Random(64).validate(1 << 18), Ok(()));
    assert_eq!(InitialSplit::Random(1).validate(1 << 24), Ok(()));
    let pes = (1 << 18) + 1;
    assert_eq!(InitialSplit::Random(64).validate(pes), Err(InitialSplitError::TooManyPieces { k: 64, pes }));
}

/// The threaded layer's runs on 3 PEs start with 002 §3's breadth-first
/// split (but Pacheco's, whose start is Generate + Scatter), the others
/// with the root at PE 0. Kills `InitialSplit::from(bool)` → the default
/// (no threaded run would split: the campaign is not in the profile).
#[test]
fn the_threaded_layer_splits_breadth_first_on_3_pes() {
    use lbcheck::campaign::{swarm::thread_specs, Options};
    use lbcheck::protocol::{BalancerKind, DetectorKind};
    for b in [BalancerKind::RandomPolling, BalancerKind::Pacheco] {
        for (name, spec) in thread_specs(&Options::default(), "x", b, DetectorKind::Energy) {
            let want = spec.driver.pes() == 3 && b != BalancerKind::Pacheco;
            assert_eq!(spec.driver.initial_split(), want, "{name}");
        }
    }
}

/// 002 §3's initial split is breadth-first: on P = 4 every part is of
/// generation ⌈log2 P⌉ = 2, each with energy 1/4; the linear split (a
/// chain, the last part split first) gives generations 1, 2, 3, 3. Kills
/// `assign`'s `mode == InitialSplit::Bfs` → `!=` (the two orders swap:
/// every property holds, only the parts' generations change).
#[test]
fn the_initial_split_is_breadth_first_and_the_linear_one_a_chain() {
    use lbcheck::problem::{dfs::Strategy, Workload};
    use lbcheck::protocol::initial::{assign, InitialSplit};
    let w: Workload = "synthetic:size=4096,atomic=1,split=uniform,seed=3".parse().unwrap();
    let generations = |mode| {
        let starts = assign(w.root(Strategy::default()), 4, mode, 1);
        starts.iter().map(|s| s.splits).collect::<Vec<u64>>()
    };
    assert_eq!(generations(InitialSplit::Bfs), [2, 2, 2, 2]);
    let mut chain = generations(InitialSplit::Linear);
    chain.sort_unstable();
    assert_eq!(chain, [1, 2, 3, 3]);
}

/// 000 §1.2's randomised initialisation splits until there are K·P pieces
/// (when the tree affords them), whose energies sum to one. Kills
/// `random_pieces`' loop guard `pieces.len() < target` → `==` / `>` and
/// `!open.is_empty()` → `open.is_empty()` (no split at all: PE 0 keeps the
/// root, every property holds, and the test above reads one piece as
/// consistent), and `<` → `<=` (one piece too many).
#[test]
fn the_random_initialisation_makes_k_pieces_per_pe() {
    use lbcheck::base::Fraction;
    use lbcheck::problem::{dfs::Strategy, Workload};
    use lbcheck::protocol::initial::random_pieces;
    let w: Workload = "synthetic:size=2000,atomic=1,split=uniform,seed=3".parse().unwrap();
    for (pes, k) in [(1u32, 8u32), (3, 4), (5, 2)] {
        let p = random_pieces(w.root(Strategy::default()), pes, k, 7);
        assert_eq!(p.pieces.len(), (k * pes) as usize, "P = {pes}, K = {k}");
        let total = p.pieces.iter().fold(Fraction::zero(), |sum, x| &sum + &x.energy);
        assert_eq!(total, Fraction::one(), "P = {pes}, K = {k}");
    }
}

/// What PE r keeps of the randomised initialisation (`local_random`, each
/// PE computing the whole sequence): the pieces of index ≡ r (mod P), so
/// the PEs' shares together are every piece, energies summing to one.
/// Kills `local_random` → `vec![]` (only a unit test, outside the quick
/// profile, called it).
#[test]
fn each_pe_keeps_its_share_of_the_random_pieces() {
    use lbcheck::base::Fraction;
    use lbcheck::problem::{dfs::Strategy, Workload};
    use lbcheck::protocol::initial::{local_random, random_pieces};
    let w: Workload = "synthetic:size=2000,atomic=1,split=uniform,seed=3".parse().unwrap();
    let (pes, k) = (3u32, 4u32);
    let all = random_pieces(w.root(Strategy::default()), pes, k, 7).pieces;
    let mut total = Fraction::zero();
    for rank in 0..pes {
        let mine = local_random(w.root(Strategy::default()), pes, k, 7, rank);
        let want: Vec<&Fraction> = all.iter().skip(rank as usize).step_by(pes as usize).map(|p| &p.energy).collect();
        assert_eq!(mine.iter().map(|(_, e)| e).collect::<Vec<_>>(), want, "PE {rank}");
        total = mine.iter().fold(total, |sum, (_, e)| &sum + e);
    }
    assert_eq!((all.len(), total), ((k * pes) as usize, Fraction::one()));
}
