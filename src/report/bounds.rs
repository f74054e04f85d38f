//! The claims of `lbcheck bounds` as a table.

use crate::bounds::claims::Claim;

/// One row per claim: name and source, sample size, measured value, bound,
/// confidence interval, α, verdict.
pub fn table(claims: &[Claim]) -> String {
    let head = ["claim", "N", "measured", "bound / fitted constant", "confidence interval", "α", "verdict"];
    let rows: Vec<[String; 7]> = claims
        .iter()
        .map(|c| {
            let alpha = c.alpha.map_or("exact".into(), |a| format!("{a:.1e}"));
            let verdict = if c.pass { "PASS" } else { "FAIL" };
            let name = format!("{} ({})", c.name, c.reference);
            [name, c.n.to_string(), c.measured.clone(), c.bound.clone(), c.ci.clone(), alpha, verdict.into()]
        })
        .collect();
    super::columns(head, &rows)
}
