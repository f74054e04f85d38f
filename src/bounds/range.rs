//! What range of P a reduced profile (`--max-pes K`, issue 31) must keep
//! for each claim to hold its stated α: every suite keeps its cells with
//! P ≤ K (p, n or the machine size in 004's and 000's suites), and a claim
//! that needs a range ([`Need`]) names the smallest K it needs, computed
//! from its own cells' P values — a trend claim needs a number of distinct
//! P values, a claim counting runs needs enough cells. Below it, `lbcheck
//! bounds` refuses (exit 2) with a message naming that K instead of
//! running a claim whose α would not hold (../shared/STATISTICS.md).
//!
//! A refusal is per claim ([`mark_refused`]): the claims whose needs a K
//! meets still run, with their α (each is computed on the cells kept:
//! its constant fitted on their calibration runs, its test runs from the
//! same cells, the same code as on the whole profile), and the others are
//! reported `REFUSED` with the smallest K they need; the invocation exits
//! 1 if a claim that ran failed, else 2 if one was refused, else 0. Only
//! a K under every cell (no P at all) is refused before any run
//! ([`refuse_all`]).

use super::claims::Claim;

/// The distinct P values a slope needs (least squares: two; a claim
/// whose reference still rises over its first values asks for more).
pub const SLOPE_POINTS: usize = 2;

/// What one claim (or a group of claims) needs of the P values kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Need {
    /// The claims, as the message names them.
    pub claims: &'static str,
    /// True for trend (slope) claims: the message starts "trend needs".
    pub trend: bool,
    /// The smallest `--max-pes` under which they run with their α
    /// (`u32::MAX`: the profile never gives them enough).
    pub pes: u32,
    /// Why, for the message.
    pub why: String,
}

impl Need {
    /// `claims` need `points` distinct P values of their cells `cell_pes`
    /// (a slope needs two; more where the reference's own slope over the
    /// first values is still a finite-size rise).
    pub fn distinct(claims: &'static str, cell_pes: &[u32], points: usize, why: &str) -> Need {
        let pes = nth_distinct(cell_pes, points);
        Need { claims, trend: true, pes, why: format!("{why} (the {points} smallest P of its cells)") }
    }

    /// `claims` need `cells` of the cells `cell_pes` (one entry per cell).
    pub fn cells(claims: &'static str, cell_pes: &[u32], cells: usize, why: &str) -> Need {
        let mut sorted = cell_pes.to_vec();
        sorted.sort_unstable();
        let pes = cells.checked_sub(1).and_then(|i| sorted.get(i)).copied().unwrap_or(u32::MAX);
        Need { claims, trend: false, pes, why: why.to_string() }
    }
}

/// The `n`-th smallest distinct value of `pes` (1-based; `u32::MAX` if
/// there are fewer): the smallest K under which `n` values stay.
pub fn nth_distinct(pes: &[u32], n: usize) -> u32 {
    let mut sorted = pes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    n.checked_sub(1).and_then(|i| sorted.get(i)).copied().unwrap_or(u32::MAX)
}

impl Need {
    /// Whether `claim` is one of the claims this need is for (named in `claims`).
    pub fn covers(&self, claim: &str) -> bool {
        self.claims.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == claim)
    }
}

/// The P values of `all_pes` that `--max-pes max_pes` keeps, as a phrase.
fn kept(all_pes: &[u32], max_pes: u32) -> String {
    let kept: Vec<u32> = all_pes.iter().copied().filter(|&p| p <= max_pes).collect();
    match (kept.iter().min(), kept.iter().max()) {
        (Some(lo), Some(hi)) if lo < hi => format!("P = {lo} … {hi}"),
        (Some(lo), _) => format!("only P = {lo}"),
        _ => format!("no P at all (the smallest is {})", all_pes.iter().min().copied().unwrap_or(0)),
    }
}

/// Why `--max-pes max_pes` runs no claim at all (`None`: it keeps a cell):
/// [`refuse`]'s message.
pub fn refuse_all(needs: &[Need], all_pes: &[u32], max_pes: u32) -> Option<String> {
    let any = all_pes.iter().any(|&p| p <= max_pes);
    if any {
        return None;
    }
    refuse(needs, all_pes, max_pes)
}

/// Replaces each claim of `claims` that a need unmet under `max_pes`
/// covers by a refused one ([`Claim::refused`]: "trend needs P up to at
/// least K: …"); returns the refusals as "claim: why".
pub fn mark_refused(claims: &mut [Claim], needs: &[Need], all_pes: &[u32], max_pes: u32) -> Vec<String> {
    let mut refusals = Vec::new();
    for c in claims.iter_mut() {
        let Some(n) = needs.iter().filter(|n| n.pes > max_pes && n.covers(c.name)).max_by_key(|n| n.pes) else {
            continue;
        };
        let why = format!(
            "{}: {} {}; --max-pes {max_pes} gives {}",
            needs_p(n.trend, n.pes),
            n.claims,
            n.why,
            kept(all_pes, max_pes)
        );
        refusals.push(format!("{}: {why}", c.name));
        *c = Claim::refused(c, why);
    }
    refusals
}

/// "[trend] needs P up to at least K" (K = `pes`; `u32::MAX`: more P than the profile has).
fn needs_p(trend: bool, pes: u32) -> String {
    let head = if trend { "trend needs" } else { "needs" };
    match pes {
        u32::MAX => format!("{head} more P than this profile has"),
        k => format!("{head} P up to at least {k}"),
    }
}

/// The largest K any of `needs` asks for (the suite's smallest `--max-pes`).
pub fn smallest(needs: &[Need]) -> u32 {
    needs.iter().map(|n| n.pes).max().unwrap_or(0)
}

/// Why `--max-pes max_pes` cannot run the claims of `needs` over a suite
/// whose cells have P values `all_pes` (`None`: it can). Names the claim
/// needing the most, and the smallest K that runs them all.
pub fn refuse(needs: &[Need], all_pes: &[u32], max_pes: u32) -> Option<String> {
    let worst = needs.iter().filter(|n| n.pes > max_pes).max_by_key(|n| n.pes)?;
    let smallest = smallest(needs);
    let range = kept(all_pes, max_pes);
    let head = needs_p(worst.trend, smallest);
    let hint = match smallest {
        u32::MAX => "use another profile".to_string(),
        k => format!("use --max-pes {k} or more"),
    };
    Some(format!("{head}: {} {}; --max-pes {max_pes} gives {range} ({hint})", worst.claims, worst.why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_k_comes_from_the_cells() {
        let pes = [4, 4, 16, 64, 256];
        assert_eq!(nth_distinct(&pes, 1), 4);
        assert_eq!(nth_distinct(&pes, 2), 16);
        assert_eq!(nth_distinct(&pes, 5), u32::MAX);
        assert_eq!(Need::cells("c", &pes, 2, "").pes, 4);
        assert_eq!(Need::cells("c", &pes, 3, "").pes, 16);
    }

    #[test]
    fn the_message_names_the_claim_and_the_range() {
        let pes = [4, 16, 64];
        let needs = [Need::distinct("t", &pes, 2, "slope"), Need::cells("c", &pes, 1, "one cell")];
        assert_eq!(refuse(&needs, &pes, 16), None);
        let why = refuse(&needs, &pes, 8).unwrap();
        assert!(why.starts_with("trend needs P up to at least 16: t slope"), "{why}");
        assert!(why.ends_with("--max-pes 8 gives only P = 4 (use --max-pes 16 or more)"), "{why}");
        assert!(refuse(&needs, &pes, 3).unwrap().contains("no P at all (the smallest is 4)"));
        assert_eq!(refuse_all(&needs, &pes, 4), None);
        assert!(refuse_all(&needs, &pes, 3).is_some());
    }

    /// Only the claims of an unmet need are refused, each naming its K.
    #[test]
    fn a_claim_is_refused_alone() {
        let pes = [4, 16, 64];
        let needs = [Need::distinct("t and u", &pes, 2, "slope"), Need::cells("c", &pes, 1, "one cell")];
        assert!(needs[0].covers("u") && !needs[0].covers("c") && !needs[0].covers("t_"));
        let mut claims =
            vec![Claim::exact("t", "", 1, "".into(), "", true), Claim::exact("c", "", 1, "".into(), "", true)];
        let why = mark_refused(&mut claims, &needs, &pes, 8);
        assert_eq!(why, ["t: trend needs P up to at least 16: t and u slope (the 2 smallest P of its cells); --max-pes 8 gives only P = 4"]);
        assert!(claims[0].is_refused() && !claims[0].passed() && !claims[0].failed() && !claims[1].is_refused());
        assert!(mark_refused(&mut claims, &needs, &pes, 16).is_empty());
    }
}
