//! A user's detector in-process (issue 29 item 1): lbcheck's own energy
//! detector (003 §14.7.4), wrapped as a user's, passes `check_detector`
//! with every balancer that runs in PEs; its mutant `energy-early-return`,
//! wrapped the same way, fails it. The trace of a user's detector names it
//! and carries its control messages as `control` with the payload as `data`.

use lbcheck::base::Fraction;
use lbcheck::campaign::{user, Options, Profile, Silent, Verdict};
use lbcheck::event::{Event, Kind};
use lbcheck::harness::{Driver, HeaderError, RunSpec, UserDetector};
use lbcheck::mutants::{seams, Mutant};
use lbcheck::protocol::energy::Energy;
use lbcheck::protocol::safra::Safra;
use lbcheck::protocol::{BalancerKind, Ctx, DetectorKind, Msg, PeId};
use lbcheck::sim::SimConfig;

use crate::dijkstra_scholten::{DijkstraScholten, Variant};

/// The quick profile on a few swarm runs per balancer (`#0`, `#3`, `#30`–`#39`),
/// every threaded run and every exploration.
fn options() -> Options {
    let only = ["/#0", "/#3", "threads/", "explore/"].map(String::from).to_vec();
    Options { profile: Profile::Quick, seed: 1, only, ..Options::default() }
}

#[test]
fn the_energy_detector_as_a_users_passes_every_layer() {
    let mine = UserDetector { name: "my-energy".into(), make: |_| Energy::new(false, seams::energy(None)) };
    let r = user::check_detector(&options(), &mine, &Silent);
    let failed: Vec<_> = r.cases.iter().filter(|c| c.verdict != Verdict::Pass).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    for layer in ["simulate", "threads", "explore"] {
        assert!(r.cases.iter().any(|c| c.layer == layer), "no {layer} case");
    }
    let balancers: Vec<_> = r.cases.iter().filter(|c| c.layer == "explore").map(|c| c.name.as_str()).collect();
    let expected = ["random-polling", "random-destination", "priority-bnb", "pacheco", "sync-random-polling"];
    let expected: Vec<_> =
        expected.iter().chain(&["neighbour-polling"]).map(|b| format!("user/my-energy/{b}")).collect();
    assert_eq!(balancers, expected);
    assert!(r.cases.iter().all(|c| c.spec.is_none() && c.replay.as_ref().unwrap().contains("`my-energy`")));
}

#[test]
fn a_broken_energy_detector_as_a_users_fails() {
    let rules = seams::energy(Some(Mutant::EnergyEarlyReturn));
    let broken = UserDetector { name: "my-energy-early-return".into(), make: move |_| Energy::new(false, rules) };
    let r = user::check_detector(&options(), &broken, &Silent);
    let caught: Vec<_> = r.cases.iter().filter(|c| c.verdict == Verdict::Fail).collect();
    assert!(!r.passed() && caught.iter().any(|c| c.layer == "explore"), "{:#?}", r.cases);
    assert!(caught.iter().all(|c| c.detail.contains("my-energy-early-return") || c.layer == "explore"), "{caught:#?}");
}

/// The header names the user's detector (and the checker its rules as
/// unknown); Safra's token, sent by the "user's" copy, is `control` with
/// the token as `data`.
#[test]
fn a_users_detector_is_named_and_its_messages_are_control_with_data() {
    let mine = UserDetector { name: "my-safra".into(), make: |_| Safra::new(seams::safra(None)) };
    let driver = Driver::Sim(SimConfig { pes: 4, seed: 3, ..SimConfig::default() });
    let spec = RunSpec::new("uts:default".parse().unwrap(), BalancerKind::RandomPolling, DetectorKind::Energy, driver);
    let mut trace = Vec::new();
    let r = spec.run_composed(&mine.erased(), Some(&mut trace), &mut |_| {}).unwrap();
    assert!(r.check.all_pass(), "{:?}", r.check.failures());
    let text = String::from_utf8(trace).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["detector"], "my-safra");
    let Event::Header(h) = serde_json::from_str(text.lines().next().unwrap()).unwrap() else { panic!("a header") };
    assert_eq!(RunSpec::from_header(&h), Err(HeaderError::UserDetector("my-safra".into())));
    let conformance = &r.check.properties["detector_conformance"].detail;
    assert!(conformance.contains("my-safra"), "{conformance}");
    let events = text.lines().skip(1).map(|l| serde_json::from_str::<Event>(l).unwrap());
    let tokens: Vec<_> = events
        .filter_map(|e| match e {
            Event::Send { kind: Kind::Control, data, .. } => data,
            _ => None,
        })
        .collect();
    assert!(!tokens.is_empty() && tokens.iter().all(|d| d.get("q").is_some() && d.get("black").is_some()));
}

/// A detector rooted at the last PE (Dijkstra–Scholten's, EWD687a, from
/// the example) declares it: the header's `announcer` is P − 1, the
/// `terminate` broadcast from there reaches every PE, and every property
/// holds on every balancer in a few runs; rooted there but announcing
/// early (the acks-early variant) it is caught.
#[test]
fn a_detector_rooted_elsewhere_declares_its_announcer() {
    let last =
        UserDetector { name: "ds-last".into(), make: |_| DijkstraScholten::new(Variant::Correct).rooted_at_last() };
    let driver = Driver::Sim(SimConfig { pes: 5, seed: 2, ..SimConfig::default() });
    let spec = RunSpec::new("uts:default".parse().unwrap(), BalancerKind::Pacheco, DetectorKind::Energy, driver);
    let mut trace = Vec::new();
    let r = spec.run_composed(&last.erased(), Some(&mut trace), &mut |_| {}).unwrap();
    assert!(r.check.all_pass(), "{:?}", r.check.failures());
    let header: serde_json::Value = serde_json::from_slice(trace.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(header["announcer"], 4);
    let o = Options { only: ["/#0", "/#3", "/P=3/", "explore/"].map(String::from).to_vec(), ..options() };
    let r = user::check_detector(&o, &last, &Silent);
    assert!(r.passed() && r.cases.iter().any(|c| c.layer == "threads"), "{:#?}", r.cases);
    let early = |_| DijkstraScholten::new(Variant::AcksEarly).rooted_at_last();
    let r = user::check_detector(&options(), &UserDetector { name: "ds-last-early".into(), make: early }, &Silent);
    assert!(!r.passed());
}

/// A detector that panics (here at a PE's first idle moment).
#[derive(Clone, Debug)]
struct Panics;

impl<T> lbcheck::protocol::Detector<T> for Panics {
    fn start(&mut self, _: &mut Ctx<T>, _: bool, _: Option<Fraction>) {}
    fn on_work_sent(&mut self, _: &mut Ctx<T>, _: u32) -> Option<Fraction> {
        None
    }
    fn on_work_received(&mut self, _: &mut Ctx<T>, _: PeId, _: Option<Fraction>) {}
    fn on_idle(&mut self, _: &mut Ctx<T>) {
        panic!("my detector's own assertion");
    }
    fn on_message(&mut self, _: &mut Ctx<T>, _: PeId, _: Msg<T>, _: bool) {}
}

/// A user's protocol that panics fails its cases, with the panic's
/// message, instead of aborting the whole check: `protocol_assertion`
/// (base::caught) in every layer, the explorer's included.
#[test]
fn a_panicking_detector_fails_its_cases() {
    let o = Options { only: ["/#0", "explore/"].map(String::from).to_vec(), ..options() };
    let r = user::check_detector(&o, &UserDetector { name: "panics".into(), make: |_| Panics }, &Silent);
    assert!(!r.cases.is_empty() && r.cases.iter().all(|c| c.verdict == Verdict::Fail), "{:#?}", r.cases);
    assert!(r.cases.iter().all(|c| c.detail.contains("my detector's own assertion at ")), "{:#?}", r.cases);
    let runs = r.cases.iter().filter(|c| c.layer != "explore");
    assert!(runs.clone().count() > 0 && runs.clone().all(|c| c.failed[0] == "protocol_assertion"), "{:#?}", r.cases);
}
