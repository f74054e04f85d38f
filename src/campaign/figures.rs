//! Figures the campaign's report plots, as written to `report.json` and
//! read back (a shard's part over MPI): NaN and the infinities are written
//! as `null` and read as NaN.

use serde::{Deserialize, Deserializer, Serialize};

/// What the report plots of the suite: the normalised quantities of the
/// test runs against P, and the constants fitted on the calibration runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Figures {
    /// (P, R) per test run: R = (T_par − T_seq/P) / (T_atomic + h(Δt + T_rout + T_split)), 001 Thm 1.
    #[serde(deserialize_with = "pairs_or_nan")]
    pub r: Vec<(u32, f64)>,
    /// (P, balancer messages / (P·h)) per test run, 002 Thm 1.
    #[serde(deserialize_with = "pairs_or_nan")]
    pub traffic: Vec<(u32, f64)>,
    /// C of 001 Thm 1, fitted.
    #[serde(deserialize_with = "f64_or_nan")]
    pub c_t_par: f64,
    /// The constant of 002 Thm 1's O(P·h) messages, fitted.
    #[serde(deserialize_with = "f64_or_nan")]
    pub c_traffic: f64,
    /// Test runs are held to (1 + margin) × the fitted constant.
    #[serde(deserialize_with = "f64_or_nan")]
    pub margin: f64,
}

/// An `f64` read back: JSON writes NaN and the infinities as `null`, read as NaN.
pub(crate) fn f64_or_nan<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// (P, x) pairs read back, `null` as NaN.
pub(crate) fn pairs_or_nan<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(u32, f64)>, D::Error> {
    let pairs = Vec::<(u32, Option<f64>)>::deserialize(d)?;
    Ok(pairs.into_iter().map(|(p, x)| (p, x.unwrap_or(f64::NAN))).collect())
}
