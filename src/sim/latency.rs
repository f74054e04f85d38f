//! Message latencies of 001's machine (001 §1.1 leaves the network's delays
//! to the adversary; the papers' bounds hold for any delays up to T_rout).
//! A [`Network`] draws a message's latency in its range a..=b by a
//! [`Shape`], may keep each link FIFO, and may follow an adversarial
//! [`Schedule`] that slows one class of messages: swarm testing (issue 16)
//! draws all of these from the seed, so the checkers meet the orders a
//! uniform draw makes rare.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::base::topology::{Hops, Topology};
use crate::base::BadValue;
use crate::event::Kind;
use crate::protocol::PeId;

/// How a latency is drawn within a..=b.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// Uniform in a..=b (the default).
    #[default]
    Uniform,
    /// a with probability 1 − p, b with probability p (p in thousandths).
    Bimodal {
        /// p, in thousandths (0..=1000).
        permille: u16,
    },
    /// Heavy-tailed: a Pareto tail of index 1 truncated to b,
    /// P[latency ≥ x] = a/x for a ≤ x ≤ b (⌊a·2^20/u⌋ with u uniform in
    /// 1..=2^20, capped at b).
    Heavy,
}

/// Which messages an adversarial schedule slows down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// Every message drawn by the shape (the default).
    #[default]
    Plain,
    /// Detector messages (energy, waves, control) take b, work messages a: a wave
    /// crawls while work overtakes it, the window in which a PE read idle
    /// receives work and passes it on (001 §2's reason for two waves).
    SlowControl,
    /// Work messages take b, detector messages a: returned energy races
    /// ahead of the work it was split from (003 §14.7.4's reason for
    /// attaching energy to work).
    SlowWork,
    /// Requests take [`HELD`] + b (the `requests-unread` mutant's network,
    /// never a run's declared schedule: like a PE that reads its requests
    /// only long after they arrived, so its requesters idle meanwhile).
    HeldRequests,
}

/// How a link carries a message of length l over d hops (000 §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routing {
    /// Store-and-forward: each hop takes the whole message, T_rout·d·l.
    Packet,
    /// Cut-through: the head opens the path and the rest follows, T_rout·(l + d).
    CutThrough,
    /// Charges l + d under packet routing (the `routing-additive`
    /// mutant's network, never a run's declared routing).
    PacketAdditive,
}

impl Routing {
    /// The transfer time of a message of length `l` over `d` hops, at
    /// `latency` per hop and unit.
    pub fn transfer(self, latency: u64, d: u64, l: u64) -> u64 {
        match self {
            Routing::Packet => latency.saturating_mul(d).saturating_mul(l),
            Routing::CutThrough | Routing::PacketAdditive => latency.saturating_mul(d.saturating_add(l)),
        }
    }
}

/// How long [`Schedule::HeldRequests`] holds a request beyond b.
pub const HELD: u64 = 10_000;

impl Shape {
    /// A latency in a..=b.
    fn draw(self, (a, b): (u64, u64), rng: &mut ChaCha8Rng) -> u64 {
        match self {
            Shape::Uniform => rng.random_range(a..=b),
            Shape::Bimodal { permille } => match rng.random_range(0..1000) < permille {
                true => b,
                false => a,
            },
            Shape::Heavy => {
                let u = rng.random_range(1..=1u64 << 20);
                (a.saturating_mul(1 << 20) / u).clamp(a, b)
            }
        }
    }
}

impl Schedule {
    /// The forced latency of a message of `kind`, if the schedule forces one.
    fn forced(self, kind: Kind, (a, b): (u64, u64)) -> Option<u64> {
        let control = matches!(kind, Kind::Energy | Kind::WaveDown | Kind::WaveUp | Kind::Control);
        let work = kind == Kind::Work;
        match self {
            Schedule::SlowControl if control => Some(b),
            Schedule::SlowControl if work => Some(a),
            Schedule::SlowWork if work => Some(b),
            Schedule::SlowWork if control => Some(a),
            Schedule::HeldRequests if kind == Kind::Request => Some(HELD + b),
            _ => None,
        }
    }
}

/// The network of one run: its latency draws, its topology (a message
/// takes its latency once per hop, 000 §2.1) and, for FIFO links, each
/// link's last delivery time.
pub struct Network {
    range: (u64, u64),
    shape: Shape,
    schedule: Schedule,
    fifo: Option<HashMap<(PeId, PeId), u64>>,
    /// Hop distances; `None`: a crossbar (one hop).
    hops: Option<Hops>,
    /// How messages with a length are routed (000 §6.1).
    routing: Option<Routing>,
    rng: ChaCha8Rng,
}

impl Network {
    /// Latencies in `range` (a = b: fixed), drawn from `rng`.
    pub fn new(range: (u64, u64), shape: Shape, schedule: Schedule, fifo_links: bool, rng: ChaCha8Rng) -> Network {
        Network { range, shape, schedule, fifo: fifo_links.then(HashMap::new), hops: None, routing: None, rng }
    }

    /// This network on `topology` (a crossbar needs no table).
    pub fn on(self, topology: Topology, pes: u32) -> Network {
        let hops = (topology != Topology::Crossbar).then(|| topology.distances(pes));
        Network { hops, ..self }
    }

    /// This network routing messages with a length by `routing`.
    pub fn routed(self, routing: Option<Routing>) -> Network {
        Network { routing, ..self }
    }

    /// How long a message of `kind` from `from` to `to`, leaving at
    /// `leaves`, travels: its latency (drawn once) × its hops, and on a
    /// FIFO link at least until the link's previous message arrived. A
    /// fixed latency draws nothing, so the default machine's streams are
    /// unchanged.
    pub fn delay(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64) -> u64 {
        self.transfer(from, to, kind, leaves, None)
    }

    /// [`Self::delay`] of a message of length `len` under the network's
    /// routing: its latency is that of one hop and unit ([`Routing::transfer`]).
    pub fn delay_of_length(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64, len: u64) -> u64 {
        self.transfer(from, to, kind, leaves, Some(len))
    }

    fn transfer(&mut self, from: PeId, to: PeId, kind: Kind, leaves: u64, len: Option<u64>) -> u64 {
        let (a, b) = self.range;
        let latency = match self.schedule.forced(kind, self.range) {
            Some(l) => l,
            None if a == b => a,
            None => self.shape.draw(self.range, &mut self.rng),
        };
        let d = self.hops.as_ref().map_or(1, |h| h.hops(from, to).max(1));
        let latency = match (self.routing, len) {
            (Some(r), Some(l)) => r.transfer(latency, d, l),
            _ => latency.saturating_mul(d),
        };
        let Some(last) = self.fifo.as_mut().map(|f| f.entry((from, to)).or_insert(0)) else { return latency };
        let at = leaves.saturating_add(latency).max(*last);
        *last = at;
        at - leaves
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Uniform => f.write_str("uniform"),
            Shape::Bimodal { permille } => write!(f, "bimodal:{}", Permille(*permille)),
            Shape::Heavy => f.write_str("heavy"),
        }
    }
}

/// p in thousandths, written as a decimal (`0.05`).
struct Permille(u16);

impl fmt::Display for Permille {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("0"),
            1000 => f.write_str("1"),
            p => write!(f, "0.{}", format!("{p:03}").trim_end_matches('0')),
        }
    }
}

impl FromStr for Shape {
    type Err = BadValue;
    /// `uniform`, `heavy`, or `bimodal:P` with P a decimal in 0..=1 of at
    /// most three digits after the point.
    fn from_str(s: &str) -> Result<Shape, BadValue> {
        let expected = "uniform, heavy or bimodal:P (P a decimal in 0..=1, at most 3 decimals, e.g. bimodal:0.05)";
        let bad = || BadValue::new("latency shape", s, expected);
        match s {
            "uniform" => Ok(Shape::Uniform),
            "heavy" => Ok(Shape::Heavy),
            _ => {
                let p = s.strip_prefix("bimodal:").ok_or_else(bad)?;
                parse_permille(p).map(|permille| Shape::Bimodal { permille }).ok_or_else(bad)
            }
        }
    }
}

/// A decimal in 0..=1 with at most three decimals, in thousandths.
fn parse_permille(p: &str) -> Option<u16> {
    let (int, frac) = p.split_once('.').unwrap_or((p, ""));
    if frac.len() > 3 || !frac.chars().all(|c| c.is_ascii_digit()) || !matches!(int, "0" | "1") {
        return None;
    }
    let value = int.parse::<u16>().ok()? * 1000 + format!("{frac:0<3}").parse::<u16>().ok()?;
    (value <= 1000).then_some(value)
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Schedule::Plain => "plain",
            Schedule::SlowControl => "slow-control",
            Schedule::SlowWork => "slow-work",
            Schedule::HeldRequests => "held-requests",
        })
    }
}

impl fmt::Display for Routing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Routing::Packet => "packet",
            Routing::CutThrough => "cut-through",
            Routing::PacketAdditive => "packet-additive",
        })
    }
}

impl FromStr for Routing {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Routing, BadValue> {
        match s {
            "packet" => Ok(Routing::Packet),
            "cut-through" => Ok(Routing::CutThrough),
            _ => Err(BadValue::new("--routing", s, "packet or cut-through")),
        }
    }
}

impl FromStr for Schedule {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Schedule, BadValue> {
        match s {
            "plain" => Ok(Schedule::Plain),
            "slow-control" => Ok(Schedule::SlowControl),
            "slow-work" => Ok(Schedule::SlowWork),
            _ => Err(BadValue::new("schedule", s, "plain, slow-control or slow-work")),
        }
    }
}

crate::serde_as_text!(Shape, Schedule, Routing);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::{stream, Purpose};

    fn net(range: (u64, u64), shape: Shape, schedule: Schedule, fifo: bool) -> Network {
        Network::new(range, shape, schedule, fifo, stream(1, 0, Purpose::Latency))
    }

    #[test]
    fn shapes_stay_in_range_and_have_their_form() {
        let draws = |shape| {
            let mut n = net((2, 50), shape, Schedule::Plain, false);
            (0..20_000).map(|_| n.delay(0, 1, Kind::Request, 0)).collect::<Vec<_>>()
        };
        let bimodal = draws(Shape::Bimodal { permille: 100 });
        assert!(bimodal.iter().all(|&l| l == 2 || l == 50));
        let high = bimodal.iter().filter(|&&l| l == 50).count();
        assert!((1700..2300).contains(&high), "p = 0.1 of 20000: {high}");
        let heavy = draws(Shape::Heavy);
        assert!(heavy.iter().all(|l| (2..=50).contains(l)));
        let above = |x| heavy.iter().filter(|&&l| l > x).count() as f64 / 20_000.0;
        assert!((above(4) - 0.4).abs() < 0.03 && (above(20) - 2.0 / 21.0).abs() < 0.02, "P[L ≥ x] = a/x");
    }

    #[test]
    fn schedules_force_the_classes_they_name() {
        let mut slow = net((1, 9), Shape::Uniform, Schedule::SlowControl, false);
        assert_eq!(slow.delay(0, 1, Kind::WaveUp, 10), 9);
        assert_eq!(slow.delay(0, 1, Kind::Work, 10), 1);
        let mut work = net((1, 9), Shape::Uniform, Schedule::SlowWork, false);
        assert_eq!((work.delay(0, 1, Kind::Work, 0), work.delay(0, 1, Kind::Energy, 0)), (9, 1));
    }

    #[test]
    fn a_message_takes_its_latency_once_per_hop() {
        let mut n = net((3, 3), Shape::Uniform, Schedule::Plain, false).on(Topology::Hypercube, 16);
        assert_eq!((n.delay(0, 1, Kind::Request, 0), n.delay(0, 15, Kind::Work, 0)), (3, 12));
        let mut s = net((1, 9), Shape::Uniform, Schedule::SlowControl, false).on(Topology::FatTree, 8);
        assert_eq!(s.delay(0, 4, Kind::Energy, 0), 9 * 6);
    }

    #[test]
    fn fifo_links_never_reorder_a_link() {
        let mut n = net((1, 40), Shape::Uniform, Schedule::Plain, true);
        let mut last = [0u64; 2];
        for t in 0..2000 {
            let to = (t % 2) as PeId + 1;
            let at = t + n.delay(0, to, Kind::Request, t);
            assert!(at >= last[to as usize - 1] && at > t);
            last[to as usize - 1] = at;
        }
    }

    #[test]
    fn names_round_trip_and_bad_ones_are_refused() {
        for s in ["uniform", "heavy", "bimodal:0.05", "bimodal:1", "bimodal:0"] {
            let shape: Shape = s.parse().unwrap();
            assert_eq!(shape.to_string().parse::<Shape>().unwrap(), shape, "{s}");
        }
        assert_eq!("bimodal:0.05".parse::<Shape>().unwrap(), Shape::Bimodal { permille: 50 });
        for bad in ["bimodal:1.5", "bimodal:0.0005", "bimodal:x", "pareto"] {
            assert!(bad.parse::<Shape>().is_err(), "{bad}");
        }
        assert_eq!("slow-control".parse::<Schedule>().unwrap().to_string(), "slow-control");
    }
}
