//! 000 §2.1's assumptions, enforced: the bounds of 000, 001 and 002 are
//! stated for h ∈ Ω(log n) and T_seq ∈ Ω(n) (n = P PEs). A verdict on runs
//! outside that regime would be silently meaningless (Thm 1's lower-order
//! term, Lemma 3's α), so `lbcheck bounds` refuses it (exit 2) naming the
//! assumption and the measured values ([`refuse`]). Ω hides its constant;
//! the check takes the constants [`C_H`] and [`C_SEQ`]: h ≥ log2 P and
//! T_seq ≥ P·h (every PE has at least a chain of h units to work).

use super::suite::Sample;

/// h ≥ C_H · log2 P.
pub const C_H: f64 = 1.0;
/// T_seq ≥ C_SEQ · P · h.
pub const C_SEQ: f64 = 1.0;

/// The first assumption `s` breaks, as "what (measured)".
pub fn broken(pes: u32, t_seq: u64, h: u64) -> Option<String> {
    let log = f64::from(pes.max(2)).log2();
    if (h as f64) < C_H * log {
        return Some(format!("h ∈ Ω(log P): h = {h} < {C_H}·log2 P = {log:.1} at P = {pes}"));
    }
    let need = C_SEQ * f64::from(pes) * h as f64;
    if (t_seq as f64) < need {
        return Some(format!("T_seq ∈ Ω(P): T_seq = {t_seq} < {C_SEQ}·P·h = {need:.0} at P = {pes}, h = {h}"));
    }
    None
}

/// Why the verdict on `samples` is refused: the calibration runs (the
/// reference on the workloads; a mutant's test runs could inflate a
/// measured h) that break 000 §2.1's assumptions (the first named with
/// its replay), or `None`.
pub fn refuse(samples: &[Sample]) -> Option<String> {
    let reference = samples.iter().filter(|s| s.phase == super::suite::Phase::Calibrate);
    let bad: Vec<(&Sample, String)> =
        reference.filter_map(|s| broken(s.pes, s.machine.t_seq, s.machine.h).map(|w| (s, w))).collect();
    let (first, why) = bad.first()?;
    Some(format!(
        "000 §2.1's assumptions do not hold on {} calibration runs, so no bound applies to them: {why} (first: {})",
        bad.len(),
        first.replay
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_assumption_is_named_with_its_values() {
        assert_eq!(broken(64, 1 << 20, 12), None);
        let h = broken(64, 1 << 20, 5).expect("h < log2 64");
        assert!(h.starts_with("h ∈ Ω(log P): h = 5 < 1·log2 P = 6.0 at P = 64"), "{h}");
        let seq = broken(64, 500, 8).expect("T_seq < P·h");
        assert!(seq.starts_with("T_seq ∈ Ω(P): T_seq = 500 < 1·P·h = 512"), "{seq}");
    }
}
