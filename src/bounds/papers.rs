//! The papers' bounds as functions. Each names its source; the statistical
//! tests in [`super::claims`] compare measurements with these.

/// The Lemma 3 constant c used throughout: proofs/Bounds.v proves
/// 8 − ln 8 − 2 > 3 for exactly this constant (`lemma3_exponent_gt3_c8`),
/// so the Lemma 3 bound with c = 8 is at most e^(−3h).
pub const LEMMA3_C: f64 = 8.0;

/// 001 Lemma 1.3: the expected queue length an arriving request meets is
/// at most Σ_i queue_i / P ≤ 1 (at most P requests are active at a time).
pub const QUEUE_MEAN_BOUND: f64 = 1.0;

/// 000 Lemma 1 eq. (2), the Chernoff lower tail: for X ~ Binomial(n, p) and
/// 0 < ε < 1, P[X ≤ (1 − ε)np] ≤ e^(−ε²np/3).
pub fn chernoff_lower(n: u64, p: f64, eps: f64) -> f64 {
    assert!(eps > 0.0 && eps < 1.0, "000 eq. (2) needs 0 < ε < 1, got {eps}");
    (-eps * eps * n as f64 * p / 3.0).exp()
}

/// 000 Lemma 1 eq. (3), the Chernoff upper tail: for X ~ Binomial(n, p) and
/// α > 1, P[X ≥ αnp] ≤ e^((1 − 1/α − ln α)·αnp).
pub fn chernoff_upper(n: u64, p: f64, alpha: f64) -> f64 {
    assert!(alpha > 1.0, "000 eq. (3) needs α > 1, got {alpha}");
    ((1.0 - 1.0 / alpha - alpha.ln()) * alpha * n as f64 * p).exp()
}

/// 000 eq. (1), T_par ∈ Ω(T_seq/n + h), in the exact form a run can be held
/// to: T_par ≥ max(T_seq / P, g · T_split), where g is the longest chain of
/// splits the run made (its largest generation): each split of the chain
/// costs T_split after the previous one.
pub fn lower_bound_eq1(t_seq: u64, pes: u32, chain: u64, t_split: u64) -> f64 {
    (t_seq as f64 / f64::from(pes)).max((chain * t_split) as f64)
}

/// 001 Lemma 1.3 for a given state: a request sent to a uniformly random PE
/// meets an expected queue of (Σ queue lengths) / P, which is ≤ 1 whenever
/// at most P requests are outstanding.
pub fn expected_queue(outstanding: u64, pes: u32) -> f64 {
    outstanding as f64 / f64::from(pes)
}

/// 001 Lemma 3 (proof), one term: the probability that subproblem I⟨i⟩ is
/// reached by exactly k of cPh red requests is P_k ≤ (c h e² / k)^k e^(−ch)
/// (the paper's (chPe/k)^k P^(−k) e^(−(ch−k)); issue 4 writes it without the h).
pub fn lemma3_term(c: f64, h: u64, k: u64) -> f64 {
    assert!(k >= 1, "001 Lemma 3's term needs k ≥ 1");
    let (k, h) = (k as f64, h as f64);
    (k * (c * h * std::f64::consts::E.powi(2) / k).ln() - c * h).exp()
}

/// 001 Lemma 3 (proof): the k = h bound P_k ≤ (ce²)^h e^(−ch) = e^(−h(c − ln c − 2)),
/// which bounds every term with k < h when c > 1/e.
pub fn lemma3_shape(c: f64, h: u64) -> f64 {
    (-(h as f64) * (c - c.ln() - 2.0)).exp()
}

/// 001 Lemma 3: P[gen(I⟨i⟩) < h] ≤ Σ_{k<h} P_k ≤ h·e^(−h(c − ln c − 2)) for
/// one PE, and the union bound over the P PEs: P[∃i: gen(I⟨i⟩) < h] ≤
/// P·h·e^(−h(c − ln c − 2)) (capped at 1), after cPh red requests.
pub fn lemma3_union(c: f64, h: u64, pes: u32) -> f64 {
    (f64::from(pes) * h as f64 * lemma3_shape(c, h)).min(1.0)
}

/// The parameters of 001 Thm 1 / 002 Thm 1 (time units of the simulator).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machine {
    /// Number of PEs.
    pub pes: u32,
    /// T_seq.
    pub t_seq: u64,
    /// T_atomic.
    pub t_atomic: u64,
    /// h, the splitting depth.
    pub h: u64,
    /// Δt, which plays 1/ε's part (Δt > T_poll/(εα), 001 §3).
    pub dt: u64,
    /// T_rout.
    pub t_rout: u64,
    /// T_split.
    pub t_split: u64,
    /// T_poll: the PE time one poll costs (001 §3).
    pub t_poll: u64,
}

impl Machine {
    /// ε = T_poll/Δt: with α = 1 (exact slices) Δt = T_poll/ε is the
    /// smallest Δt that 001 §3's condition Δt ≥ T_poll/(εα) allows, and the
    /// polling overhead is at most ε·T_seq in all (each poll follows a full slice).
    pub fn eps(&self) -> f64 {
        self.t_poll as f64 / self.dt.max(1) as f64
    }

    /// The lower-order term of 001 Thm 1 without its constant:
    /// T_atomic + h·(Δt + T_rout + T_split).
    pub fn rest(&self) -> f64 {
        (self.t_atomic + self.h * (self.dt + self.t_rout + self.t_split)) as f64
    }

    /// 001 Thm 1 / 002 Thm 1 with the hidden constant `c` made explicit:
    /// T_par ≤ (1 + ε)·T_seq/P + C·(T_atomic + h·(1/ε + T_rout + T_split)),
    /// with 1/ε measured as Δt.
    pub fn thm1_t_par(&self, eps: f64, c: f64) -> f64 {
        (1.0 + eps) * self.t_seq as f64 / f64::from(self.pes) + c * self.rest()
    }

    /// The normalised excess R = (T_par − (1 + ε)·T_seq/P) / (T_atomic + h(Δt + T_rout + T_split)):
    /// 001 Thm 1 says R is bounded by a constant.
    pub fn excess(&self, t_par: u64) -> f64 {
        (t_par as f64 - (1.0 + self.eps()) * self.t_seq as f64 / f64::from(self.pes)) / self.rest()
    }

    /// 002 Thm 1: O(P·h) messages overall, with the constant `c` explicit.
    pub fn messages_bound(&self, c: f64) -> f64 {
        c * f64::from(self.pes) * self.h as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-300)
    }

    #[test]
    fn chernoff_tails_by_hand() {
        // e^(−0.25·50/3) = e^(−4.1666…)
        assert!(close(chernoff_lower(100, 0.5, 0.5), 0.015_503_853_599_009_3));
        // (1 − 1/2 − ln 2)·2·10 = −3.862943…
        assert!(close(chernoff_upper(100, 0.1, 2.0), 0.021_006_074_709_707_95));
    }

    #[test]
    fn lower_bound_takes_the_larger_term() {
        assert_eq!(lower_bound_eq1(1000, 4, 3, 10), 250.0);
        assert_eq!(lower_bound_eq1(1000, 4, 30, 10), 300.0);
        assert_eq!(expected_queue(8, 8), QUEUE_MEAN_BOUND);
    }

    #[test]
    fn lemma3_by_hand() {
        // c = 8, h = 1: e^(−(8 − ln 8 − 2)) = 8·e^(−6) = 0.019829…
        assert!(close(lemma3_shape(8.0, 1), 8.0 * (-6.0f64).exp()));
        assert!(close(lemma3_shape(8.0, 1), 0.019_830_017_413_330_87));
        // the k = h term is the shape itself; smaller k give smaller terms
        assert!(close(lemma3_term(8.0, 5, 5), lemma3_shape(8.0, 5)));
        assert!(lemma3_term(8.0, 5, 2) < lemma3_term(8.0, 5, 4));
        // 8 − ln 8 − 2 > 3 (proofs/Bounds.v): the shape is below e^(−3h)
        assert!(lemma3_shape(LEMMA3_C, 10) < (-30.0f64).exp());
        assert!(close(lemma3_union(8.0, 10, 64), 640.0 * lemma3_shape(8.0, 10)));
        assert_eq!(lemma3_union(8.0, 1, 64), 1.0);
    }

    #[test]
    fn thm1_by_hand() {
        let m = Machine { pes: 4, t_seq: 4000, t_atomic: 4, h: 10, dt: 10, t_rout: 10, t_split: 5, t_poll: 0 };
        assert_eq!(m.rest(), 254.0);
        assert_eq!(m.thm1_t_par(0.5, 2.0), 1500.0 + 508.0);
        assert_eq!(m.excess(1000 + 254), 1.0);
        assert_eq!(m.messages_bound(3.0), 120.0);
    }
}
