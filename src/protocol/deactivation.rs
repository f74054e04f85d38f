//! A deactivated worker's window (002 §3, last paragraph; S-17): the
//! `--deactivate PE:FROM..TO` of random polling ([`super::random_polling`]).

use super::PeId;
use crate::base::BadValue;

/// The latest end of a window, 10^15 (the simulator's largest detection
/// horizon): model times stay far from 2^64, where the simulator's clock
/// would wrap (a window ending at 2^64 − 1 hung it).
pub const MAX_END: u64 = 1_000_000_000_000_000;

/// A deactivated worker's window (S-17): PE `pe` from `from` until `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deactivation {
    /// The PE.
    pub pe: PeId,
    /// Model time it stops working.
    pub from: u64,
    /// Model time it works again (after `from`).
    pub to: u64,
}

impl std::str::FromStr for Deactivation {
    type Err = BadValue;
    fn from_str(s: &str) -> Result<Deactivation, BadValue> {
        let bad = || BadValue::new("--deactivate", s, "PE:FROM..TO with integers FROM < TO <= 10^15");
        let (pe, window) = s.split_once(':').ok_or_else(bad)?;
        let (from, to) = window.split_once("..").ok_or_else(bad)?;
        let d = Deactivation {
            pe: pe.parse().map_err(|_| bad())?,
            from: from.parse().map_err(|_| bad())?,
            to: to.parse().map_err(|_| bad())?,
        };
        if d.from >= d.to || d.to > MAX_END {
            return Err(bad());
        }
        Ok(d)
    }
}

impl std::fmt::Display for Deactivation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}..{}", self.pe, self.from, self.to)
    }
}

crate::serde_as_text!(Deactivation);
