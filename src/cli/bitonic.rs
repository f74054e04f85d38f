//! `lbcheck bitonic`: a parallel bitonic sort on a simulated hypercube
//! (003 §14.3–14.4, S-25) with its properties, and with `--exhaustive`
//! the 0-1 principle over the sorting network and the parallel version;
//! exit 1 if a property fails.

use std::fmt::Write;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use lbcheck::bitonic::check::{properties, Verdict};
use lbcheck::bitonic::{hypercube, input, serial, Order};
use lbcheck::mutants::{seams, Catcher, Mutant, Site};
use lbcheck::report;
use serde_json::{json, Value};

use super::args::kind;

/// The most keys a run may sort.
const MAX_KEYS: u64 = 1 << 24;
/// The 0-1 inputs of the exhaustive check have this many keys.
const ZERO_ONE_KEYS: usize = 16;

#[derive(Args, Debug)]
pub struct BitonicArgs {
    /// Ranks p, a power of two in 1..=2^16.
    #[arg(long, default_value_t = 8)]
    pes: u32,
    /// Keys n, 0..=2^24 (any n: the ranks are padded to ⌈n/p⌉ keys).
    #[arg(long, default_value_t = 64)]
    keys: u64,
    /// Seed of the keys (uniform in 0..n/2, so duplicates are likely).
    #[arg(long, env = "LBCHECK_SEED", default_value_t = 0)]
    seed: u64,
    /// The input's order: the drawn keys as drawn (random), sorted or reversed.
    #[arg(long, value_enum, default_value_t = Order::Random)]
    order: Order,
    /// Also check every 0-1 input: of the serial network for n = 1, 2, 4, 8,
    /// 16, and of the parallel sort on p ranks for n = 16 (if p <= 16).
    #[arg(long)]
    exhaustive: bool,
    /// A bitonic mutant: merge-split-swapped-decr, and-bit-half, merge-drops-duplicates.
    #[arg(long, value_parser = kind::<Mutant>)]
    mutant: Option<Mutant>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(a: BitonicArgs) -> anyhow::Result<ExitCode> {
    if !a.pes.is_power_of_two() || a.pes > 1 << 16 {
        bail!("--pes {} must be a power of two in 1..=65536 (a hypercube of p = 2^d ranks)", a.pes);
    }
    if a.keys > MAX_KEYS {
        bail!("--keys {} is out of range: valid 0..={MAX_KEYS}", a.keys);
    }
    if let Some(m) = a.mutant.filter(|m| m.entry().site != Site::Bitonic) {
        bail!("mutant `{m}` does not act in bitonic sort (`lbcheck mutants` names its checker: {})", m.fails());
    }
    if let Some(why) = a.mutant.and_then(|m| seams::bitonic_inert(m, a.pes, a.keys)) {
        bail!("{why}; it would have no effect in this run");
    }
    let rules = seams::bitonic(a.mutant);
    let run = hypercube::sort(&input(a.keys as usize, a.seed, a.order), a.pes, rules);
    let mut verdicts = properties(&run);
    if a.exhaustive {
        verdicts.extend(exhaustive(a.pes, rules));
    }
    let out = json!({
        "pes": a.pes, "keys": a.keys, "order": a.order.to_string(), "seed": a.seed, "mutant": a.mutant.map(|m| m.to_string()),
        "stages": run.stages, "exchanges": run.exchanges.len() / 2, "properties": verdicts,
    });
    report::print(&out, a.json, human)?;
    let failed: Vec<&Verdict> = verdicts.iter().filter(|v| !v.pass).collect();
    for v in &failed {
        eprintln!("FAILED {}: {}", v.name, v.detail);
    }
    if let Some(note) = a.mutant.and_then(|m| m.uncaught_by(Catcher::Bitonic)) {
        eprintln!("{note}");
    }
    Ok(if failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The 0-1 principle: the serial network on every 0-1 input of 1 … 16
/// keys, and the parallel sort on every 0-1 input of 16 keys on p ranks.
fn exhaustive(pes: u32, rules: lbcheck::bitonic::Rules) -> Vec<Verdict> {
    let serial_bad = (0..=4).find_map(|k| serial::zero_one_counterexample(1 << k, serial::sort));
    let mut out = vec![Verdict {
        name: "network_zero_one",
        pass: serial_bad.is_none(),
        detail: match &serial_bad {
            None => "the serial network sorts all 0-1 inputs of n = 1, 2, 4, 8, 16 keys (so all inputs)".into(),
            Some(x) => format!("the serial network leaves {x:?} unsorted"),
        },
    }];
    if pes as usize <= ZERO_ONE_KEYS {
        let input = |bits: u32| (0..ZERO_ONE_KEYS).map(|i| u64::from(bits >> i & 1)).collect::<Vec<_>>();
        let fails = |x: &Vec<u64>| properties(&hypercube::sort(x, pes, rules)).into_iter().find(|v| !v.pass);
        let bad = (0u32..1 << ZERO_ONE_KEYS).map(input).find_map(|x| fails(&x).map(|v| (x, v)));
        out.push(Verdict {
            name: "parallel_zero_one",
            pass: bad.is_none(),
            detail: match bad {
                None => format!("every property holds for all 2^16 0-1 inputs of 16 keys on {pes} ranks"),
                Some((x, v)) => format!("0-1 input {x:?} on {pes} ranks fails {}: {}", v.name, v.detail),
            },
        });
    }
    out
}

fn human(out: &Value) -> String {
    let mut s = format!(
        "bitonic sort of {} keys ({}) on {} ranks (seed {}): {} merge-split stages, {} exchanges\n",
        out["keys"],
        out["order"].as_str().unwrap_or_default(),
        out["pes"],
        out["seed"],
        out["stages"],
        out["exchanges"]
    );
    for v in out["properties"].as_array().into_iter().flatten() {
        let verdict = if v["pass"] == true { "PASS" } else { "FAIL" };
        let _ = writeln!(
            s,
            "{:<22} {verdict}  {}",
            v["name"].as_str().unwrap_or_default(),
            v["detail"].as_str().unwrap_or_default()
        );
    }
    s
}
