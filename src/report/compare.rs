//! `lbcheck compare` as a table.

use super::columns;
use crate::bounds::compare::Comparison;

/// One row per quantity, then the verdict and the reference configuration.
pub fn table(rows: &[Comparison], verdict: &str, reference: &str) -> String {
    let cells: Vec<[String; 8]> = rows
        .iter()
        .map(|c| {
            [
                c.quantity.to_string(),
                format!("{}/{}", c.n.0, c.n.1),
                format!("{:.4}", c.median.0),
                format!("{:.4}", c.median.1),
                format!("{:.3}", c.ratio),
                format!("{:+.3}", c.delta),
                format!("{:.2e} (α {:.1e})", c.p, c.alpha),
                c.verdict.clone(),
            ]
        })
        .collect();
    let head = ["quantity", "n user/ref", "median user", "median ref", "ratio", "Cliff δ", "p", "verdict"];
    format!("{}verdict: {verdict}\nreference: {reference}\n", columns(head, &cells))
}
