//! The `bitonic` layer: parallel bitonic sorts on simulated hypercubes of
//! p = 2^d ranks (003 §14.3–14.4, S-25; [`crate::bitonic`]), each checked
//! against every property of [`crate::bitonic::check`], among them that
//! the output is exactly a sequential sort of the input (`multiset_kept`
//! compares it with `sort_unstable` of the keys, padding dropped). The
//! inputs: drawn keys with duplicates (uniform in 0..n/2), already sorted
//! and reversed ones, p dividing n or not, fewer keys than ranks. With a
//! bitonic mutant under test ([`crate::mutants::seams::bitonic`]) every
//! case sorts with the mutant's merge-split, so the layer fails; a case
//! where the mutant cannot act (too few ranks or keys) is skipped.

use std::time::Instant;

use super::shard::Shard;
use super::{cost, Case, Options, Profile, Progress, Verdict};
use crate::base::rng::derive_seed;
use crate::bitonic::check::properties;
use crate::bitonic::{hypercube, input, Order};
use crate::mutants::{seams, Mutant, Site};

/// One sort: p ranks, n keys, the input's order, its index among equal ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort {
    /// Ranks p (a power of two).
    pub pes: u32,
    /// Keys n.
    pub keys: u32,
    /// The input's order.
    pub order: Order,
    /// Which draw of this (p, n, order): seeds differ.
    pub draw: u32,
}

/// The sorts of `profile`: 64 keys on 8 ranks on several seeds, sizes
/// from 2 to 256 ranks (the full profile: 1024 ranks, 2^16 keys, more
/// seeds), n not a multiple of p, n < p, sorted and reversed inputs.
pub fn sorts(profile: Profile) -> Vec<Sort> {
    let s = |pes, keys, order, draw| Sort { pes, keys, order, draw };
    let seeds = if profile == Profile::Full { 16 } else { 4 };
    let mut all: Vec<Sort> = (0..seeds).map(|i| s(8, 64, Order::Random, i)).collect();
    let sizes = [(1, 10), (2, 16), (4, 32), (8, 61), (8, 5), (16, 256), (64, 1000), (256, 4096)];
    all.extend(sizes.map(|(p, n)| s(p, n, Order::Random, 0)));
    for (p, n) in [(8, 64), (16, 256), (64, 1000)] {
        all.extend([s(p, n, Order::Sorted, 0), s(p, n, Order::Reversed, 0)]);
    }
    if profile == Profile::Full {
        all.extend((0..4).map(|i| s(1024, 1 << 16, Order::Random, i)));
        all.extend([s(1024, 1 << 16, Order::Sorted, 0), s(1024, 1 << 16, Order::Reversed, 0)]);
    }
    all
}

impl Sort {
    /// The case's name: `p=8/n=64/random/#0`.
    pub fn name(&self) -> String {
        format!("p={}/n={}/{}/#{}", self.pes, self.keys, self.order, self.draw)
    }

    /// The seed of its keys, drawn from the campaign's.
    pub fn seed(&self, base: u64) -> u64 {
        derive_seed(base, &format!("bitonic/{}", self.name()), 0)
    }
}

/// The layer, one unit of `shard` per sort; with a mutant that does not
/// act in bitonic sort, one skipped case saying so.
pub fn run(o: &Options, shard: &Shard, progress: &dyn Progress) -> Vec<Case> {
    let chosen: Vec<Sort> = sorts(o.profile).into_iter().filter(|s| o.selects("bitonic", &s.name())).collect();
    if let Some(m) = o.mutant.filter(|m| m.entry().site != Site::Bitonic && !chosen.is_empty()) {
        let why = format!("mutant `{m}` does not act in bitonic sort");
        return vec![Case::skip("bitonic", m.to_string(), why)];
    }
    let units: Vec<_> = chosen.into_iter().map(|s| (shard.take(cost::bitonic(s.pes, s.keys)), s)).collect();
    progress.start("bitonic", units.iter().filter(|(u, _)| u.mine).count());
    let cases = units.into_iter().flat_map(|(unit, sort)| {
        let run = || {
            let case = case(&sort, o.seed, o.mutant);
            progress.done("bitonic", &case);
            vec![case]
        };
        shard.put(unit, "bitonic", unit.mine.then(run))
    });
    cases.collect()
}

/// One sort as a case: every property of the run (with `mutant`'s
/// merge-split), or a skip where the mutant cannot act.
pub fn case(sort: &Sort, base: u64, mutant: Option<Mutant>) -> Case {
    let start = Instant::now();
    let (name, seed) = (sort.name(), sort.seed(base));
    let flag = mutant.map(|m| format!(" --mutant {m}")).unwrap_or_default();
    let (p, n, order) = (sort.pes, sort.keys, sort.order);
    let replay = Some(format!("lbcheck bitonic --pes {p} --keys {n} --order {order} --seed {seed}{flag}"));
    if let Some(why) = mutant.and_then(|m| seams::bitonic_inert(m, p, u64::from(n))) {
        return Case { replay, ..Case::skip("bitonic", name, why) };
    }
    let run = hypercube::sort(&input(n as usize, seed, order), p, seams::bitonic(mutant));
    let verdicts = properties(&run);
    let failed: Vec<String> = verdicts.iter().filter(|v| !v.pass).map(|v| v.name.to_string()).collect();
    let (verdict, detail) = match failed.is_empty() {
        true => (
            Verdict::Pass,
            format!("{n} keys ({order}) on {p} ranks: every property holds, the output equals a sequential sort"),
        ),
        false => {
            let why: Vec<String> =
                verdicts.iter().filter(|v| !v.pass).map(|v| format!("{}: {}", v.name, v.detail)).collect();
            (Verdict::Fail, format!("{n} keys ({order}) on {p} ranks — {}", why.join("; ")))
        }
    };
    Case { verdict, detail, failed, replay, secs: start.elapsed().as_secs_f64(), ..Case::skip("bitonic", name, "") }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference passes every sort of both profiles; each bitonic
    /// mutant fails at least four of the quick profile's sorts on the
    /// property the catalogue names.
    #[test]
    fn the_reference_passes_and_each_bitonic_mutant_fails() {
        for profile in [Profile::Quick, Profile::Full] {
            let cases: Vec<Case> = sorts(profile).iter().map(|s| case(s, 1, None)).collect();
            assert!(cases.iter().all(|c| c.verdict == Verdict::Pass), "{cases:#?}");
        }
        for m in [Mutant::MergeSplitSwappedDecr, Mutant::AndBitHalf, Mutant::MergeDropsDuplicates] {
            let fails = m.entry().fails_under(crate::mutants::Catcher::Bitonic).expect("a bitonic mutant");
            let cases: Vec<Case> = sorts(Profile::Quick).iter().map(|s| case(s, 1, Some(m))).collect();
            let failing = cases.iter().filter(|c| c.failed.iter().any(|f| f == fails)).count();
            assert!(failing >= 4, "{m}: {failing} cases fail `{fails}`");
        }
    }

    #[test]
    fn names_are_unique() {
        let names: std::collections::BTreeSet<String> = sorts(Profile::Full).iter().map(Sort::name).collect();
        assert_eq!(names.len(), sorts(Profile::Full).len());
    }
}
