//! A foreign implementation writing lbcheck traces: work stealing with
//! Safra's token-ring termination detector (EWD998), written independently
//! of lbcheck's own (`src/protocol/safra.rs`). It uses nothing of lbcheck
//! but `docs/trace-format.md`: plain JSON lines, fingerprints computed by
//! hand, the token logged as `control` messages whose `data` is
//! `{"q": count, "black": colour}` (the format's "Safra's token"), so that
//! `detector_conformance` checks its rules.
//!
//! ```text
//! cargo run --release --example safra_trace -- --out safra.jsonl
//! cargo run --release -- check-trace safra.jsonl                  # exit 0
//! cargo run --release --example safra_trace -- --bug eager-token --out bad.jsonl
//! cargo run --release -- check-trace bad.jsonl                    # exit 1: no_early_termination
//! ```
//!
//! The model: one time unit per tick; a busy PE works one unit per tick
//! (items are the unit indices of `synthetic:size=N`), serves a request by
//! halving its range, and an idle PE asks a random PE for work. Messages
//! take 1–3 ticks. Safra: each PE counts basic (work) messages sent minus
//! received and turns black on receiving one; the token goes from PE 0 to
//! P−1, P−2, …, 0, passed on only by an idle PE, which adds its count and
//! colour and turns white; PE 0 announces when a white token comes back
//! with count + its own = 0 and it is white and idle. The seeded bug
//! `eager-token` passes the token on while busy, so a round can find every
//! count balanced while PEs still hold work.

use std::collections::VecDeque;
use std::io::Write;

use serde_json::{json, Value};

struct Options {
    pes: usize,
    units: u64,
    seed: u64,
    eager_token: bool,
    out: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options { pes: 4, units: 2000, seed: 1, eager_token: false, out: None };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--pes" => o.pes = value()?.parse().map_err(|e| format!("--pes: {e}"))?,
            "--units" => o.units = value()?.parse().map_err(|e| format!("--units: {e}"))?,
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => o.out = Some(value()?),
            "--bug" => match value()?.as_str() {
                "eager-token" => o.eager_token = true,
                b => return Err(format!("unknown bug `{b}` (known: eager-token)")),
            },
            _ => return Err(format!("unknown argument `{a}` (see the file's doc comment)")),
        }
    }
    if o.pes < 2 || o.units < 1 {
        return Err("--pes must be at least 2 and --units at least 1".into());
    }
    Ok(o)
}

/// The fingerprint of the trace format: units, then the wrapping sums of
/// x, x², x³ over the items x, as 16 hex digits each.
fn fingerprint(items: impl Iterator<Item = u64>) -> String {
    let (mut n, mut s1, mut s2, mut s3) = (0u64, 0u64, 0u64, 0u64);
    for x in items {
        n += 1;
        s1 = s1.wrapping_add(x);
        s2 = s2.wrapping_add(x.wrapping_mul(x));
        s3 = s3.wrapping_add(x.wrapping_mul(x).wrapping_mul(x));
    }
    format!("{n}-{s1:016x}{s2:016x}{s3:016x}")
}

#[derive(Clone, Copy)]
enum Body {
    Request,
    Reject,
    Work { lo: u64, hi: u64, gen: u32 },
    Token { count: i64, black: bool },
    Terminate,
}

struct Message {
    arrive: u64,
    from: usize,
    to: usize,
    id: u64,
    body: Body,
}

#[derive(Default)]
struct Pe {
    /// Items lo..hi of generation gen, if busy.
    range: Option<(u64, u64, u32)>,
    asking: bool,
    count: i64,
    black: bool,
    token: Option<(i64, bool)>,
    done: bool,
}

struct Sim {
    o: Options,
    t: u64,
    pes: Vec<Pe>,
    net: VecDeque<Message>,
    next_id: u64,
    rng: u64,
    out: Vec<Value>,
}

impl Sim {
    fn random(&mut self, n: u64) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % n
    }

    fn log(&mut self, v: Value) {
        self.out.push(v);
    }

    fn send(&mut self, from: usize, to: usize, body: Body) {
        self.next_id += 1;
        let id = self.next_id;
        let arrive = self.t + 1 + self.random(3);
        let (kind, data) = match body {
            Body::Request => ("request", None),
            Body::Reject => ("reject", None),
            Body::Work { .. } => ("work", None),
            Body::Token { count, black } => ("control", Some(json!({"q": count, "black": black}))),
            Body::Terminate => ("terminate", None),
        };
        let mut e = json!({"ev": "send", "t": self.t, "from": from, "to": to, "id": id, "kind": kind});
        if let Some(d) = data {
            e["data"] = d;
        }
        self.log(e);
        if let Body::Work { .. } = body {
            self.pes[from].count += 1;
        }
        self.net.push_back(Message { arrive, from, to, id, body });
    }

    fn deliver(&mut self, m: Message) {
        let kind = match m.body {
            Body::Request => "request",
            Body::Reject => "reject",
            Body::Work { .. } => "work",
            Body::Token { .. } => "control",
            Body::Terminate => "terminate",
        };
        let (t, pe) = (self.t, m.to);
        self.log(json!({"ev": "recv", "t": t, "pe": pe, "from": m.from, "id": m.id, "kind": kind}));
        match m.body {
            Body::Request if self.pes[pe].done => {} // exempt: it arrived after its receiver terminated
            Body::Request => self.serve(pe, m.from),
            Body::Reject => self.pes[pe].asking = false,
            Body::Work { lo, hi, gen } => {
                let p = &mut self.pes[pe];
                (p.count, p.black, p.asking, p.range) = (p.count - 1, true, false, Some((lo, hi, gen)));
                self.log(json!({"ev": "busy", "t": t, "pe": pe}));
            }
            Body::Token { count, black } => self.pes[pe].token = Some((count, black)),
            Body::Terminate => self.terminate(pe),
        }
    }

    /// Halves the server's range for the requester, or rejects.
    fn serve(&mut self, pe: usize, to: usize) {
        match self.pes[pe].range {
            Some((lo, hi, gen)) if hi - lo >= 2 => {
                let mid = lo + (hi - lo) / 2;
                self.pes[pe].range = Some((lo, mid, gen + 1));
                let t = self.t;
                self.log(json!({"ev": "split", "t": t, "pe": pe, "gen": gen + 1}));
                self.send(pe, to, Body::Work { lo: mid, hi, gen: gen + 1 });
            }
            _ => self.send(pe, to, Body::Reject),
        }
    }

    fn terminate(&mut self, pe: usize) {
        self.pes[pe].done = true;
        let t = self.t;
        self.log(json!({"ev": "terminated", "t": t, "pe": pe}));
    }

    /// One unit of work, or a request when idle.
    fn step(&mut self, pe: usize) {
        let t = self.t;
        if let Some((lo, hi, gen)) = self.pes[pe].range {
            let fp = fingerprint(lo..lo + 1);
            self.log(json!({"ev": "work", "t": t + 1, "pe": pe, "units": 1, "gen": gen, "fp": fp}));
            self.pes[pe].range = (lo + 1 < hi).then_some((lo + 1, hi, gen));
            if self.pes[pe].range.is_none() {
                self.log(json!({"ev": "idle", "t": t + 1, "pe": pe}));
            }
        } else if !self.pes[pe].asking {
            self.pes[pe].asking = true;
            let victim = (pe + 1 + self.random(self.o.pes as u64 - 1) as usize) % self.o.pes;
            self.send(pe, victim, Body::Request);
        }
    }

    /// Safra: an idle PE (or any PE, with the bug) passes the token on.
    fn token(&mut self, pe: usize) {
        let Some((count, black)) = self.pes[pe].token else { return };
        if self.pes[pe].range.is_some() && !self.o.eager_token {
            return;
        }
        self.pes[pe].token = None;
        let p = &self.pes[pe];
        let (mine, was_black) = (p.count, p.black);
        self.pes[pe].black = false;
        if pe > 0 {
            return self.send(pe, pe - 1, Body::Token { count: count + mine, black: black || was_black });
        }
        if !black && !was_black && count + mine == 0 {
            return self.announce();
        }
        self.send(0, self.o.pes - 1, Body::Token { count: 0, black: false });
    }

    fn announce(&mut self) {
        let t = self.t;
        self.log(json!({"ev": "announce", "t": t, "pe": 0}));
        self.terminate(0);
        for pe in 1..self.o.pes {
            self.send(0, pe, Body::Terminate);
        }
    }

    fn run(&mut self) {
        let t = self.t;
        self.log(json!({"ev": "busy", "t": t, "pe": 0}));
        self.pes[0].range = Some((0, self.o.units, 0));
        self.pes[0].token = Some((0, true)); // a black token: round 1 starts at once
        let give_up = 100 * self.o.units; // a detector that never announces leaves a trace without `end`
        while !(self.pes.iter().all(|p| p.done) && self.net.is_empty()) && self.t < give_up {
            let (now, later): (Vec<_>, Vec<_>) = self.net.drain(..).partition(|m| m.arrive <= self.t);
            self.net = later.into();
            now.into_iter().for_each(|m| self.deliver(m));
            for pe in 0..self.o.pes {
                if !self.pes[pe].done {
                    self.token(pe); // first: this tick's work is logged at t + 1
                    if !self.pes[pe].done {
                        self.step(pe);
                    }
                }
            }
            self.t += 1;
        }
        if self.t < give_up {
            let t = self.out.iter().filter_map(|e| e["t"].as_u64()).max().unwrap_or(0);
            self.log(json!({"ev": "end", "t": t}));
        }
    }
}

fn main() -> std::process::ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(why) => {
            eprintln!("safra_trace: {why}");
            return std::process::ExitCode::from(2);
        }
    };
    let header = json!({"ev": "header", "version": 1, "pes": o.pes, "workload": format!("synthetic:size={}", o.units),
        "split": "halve", "balancer": "random-stealing", "detector": "safra", "t_split": 0});
    let rng = o.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let pes = (0..o.pes).map(|_| Pe::default()).collect();
    let mut sim = Sim { o, t: 0, pes, net: VecDeque::new(), next_id: 0, rng, out: vec![header] };
    sim.run();
    let mut out: Box<dyn Write> = match &sim.o.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("safra_trace: cannot create {path}: {e}");
                return std::process::ExitCode::from(2);
            }
        },
        None => Box::new(std::io::stdout().lock()),
    };
    sim.out.sort_by_key(|e| e["t"].as_u64().unwrap_or(0)); // stable: the header (no t) stays first
    for e in &sim.out {
        if writeln!(out, "{e}").is_err() {
            return std::process::ExitCode::from(1);
        }
    }
    std::process::ExitCode::SUCCESS
}
