//! The properties of a parallel bitonic sort (003 §14.4; S-25), each a
//! name and a verdict.

use super::hypercube::{Run, PAD};

/// The property names, in the order [`properties`] reports them.
pub const PROPERTIES: [&str; 5] = ["sorted", "keys_per_rank", "multiset_kept", "hypercube_neighbours", "stages"];

/// One verdict.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    /// The property.
    pub name: &'static str,
    /// True if it holds.
    pub pass: bool,
    /// What was found.
    pub detail: String,
}

/// Every property of `run`.
pub fn properties(run: &Run) -> Vec<Verdict> {
    let v = |name, pass, detail: String| Verdict { name, pass, detail };
    let all: Vec<u64> = run.ranks.iter().flatten().copied().collect();
    let sorted = all.windows(2).position(|w| w[0] > w[1]);
    let per = run.input.len().div_ceil(run.pes as usize);
    let sizes = run.ranks.iter().position(|r| r.len() != per);
    let mut expected = run.input.clone();
    expected.sort_unstable();
    let output = run.output();
    let far = run.exchanges.iter().find(|&&(_, a, b)| (a ^ b).count_ones() != 1);
    let d = run.pes.trailing_zeros();
    vec![
        v(
            "sorted",
            sorted.is_none(),
            match sorted {
                None => format!("{} keys in order across {} ranks", output.len(), run.pes),
                Some(i) => format!("key {} ({}) > key {} ({}) in rank order", i, show(all[i]), i + 1, show(all[i + 1])),
            },
        ),
        v(
            "keys_per_rank",
            sizes.is_none(),
            match sizes {
                None => format!("every rank holds ⌈n/p⌉ = {per} keys (padding included)"),
                Some(r) => format!("rank {r} holds {} keys, not ⌈n/p⌉ = {per}", run.ranks[r].len()),
            },
        ),
        v(
            "multiset_kept",
            output == expected,
            match output == expected {
                true => "the output is a permutation of the input".into(),
                false => format!("{} keys out for {} in; not the input's multiset", output.len(), expected.len()),
            },
        ),
        v(
            "hypercube_neighbours",
            far.is_none(),
            match far {
                None => format!("{} merge-splits, each between ranks one bit apart", run.exchanges.len() / 2),
                Some((s, a, b)) => format!("stage {s}: rank {a} exchanged with rank {b}, not a hypercube neighbour"),
            },
        ),
        v(
            "stages",
            run.stages == d * (d + 1) / 2,
            format!("{} merge-split stages; d(d+1)/2 = {} for d = {d}", run.stages, d * (d + 1) / 2),
        ),
    ]
}

fn show(k: u64) -> String {
    if k == PAD {
        "pad".into()
    } else {
        k.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::super::hypercube::sort;
    use super::super::Rules;
    use super::*;

    fn failing(run: &Run) -> Vec<&'static str> {
        properties(run).into_iter().filter(|v| !v.pass).map(|v| v.name).collect()
    }

    fn keys(n: u64) -> Vec<u64> {
        (0..n).map(|i| (i * 2_654_435_761) % 23).collect() // duplicates on purpose
    }

    #[test]
    fn the_reference_passes_including_padding_and_duplicates() {
        for (n, p) in [(64, 8), (61, 8), (16, 16), (5, 8), (0, 4), (100, 1)] {
            assert_eq!(failing(&sort(&keys(n), p, Rules::PAPER)), Vec::<&str>::new(), "n = {n}, p = {p}");
        }
    }

    #[test]
    fn each_mutant_breaks_its_property() {
        let broken = |rules| failing(&sort(&keys(64), 8, rules));
        assert!(broken(Rules { swapped_decr: true, ..Rules::PAPER }).contains(&"sorted"));
        assert!(broken(Rules { and_bit_half: true, ..Rules::PAPER }).contains(&"sorted"));
        assert!(broken(Rules { drops_duplicates: true, ..Rules::PAPER }).contains(&"multiset_kept"));
    }

    #[test]
    fn a_far_exchange_and_a_missing_stage_are_caught() {
        let mut run = sort(&keys(16), 4, Rules::PAPER);
        run.exchanges.push((0, 0, 3));
        run.stages -= 1;
        assert_eq!(failing(&run), ["hypercube_neighbours", "stages"]);
    }
}
