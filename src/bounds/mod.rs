//! The papers' bounds as functions, and statistical tests of a balancer
//! against them (../shared/STATISTICS.md).
//!
//! - [`papers`]: each bound as a function with its source: 000 Lemma 1's
//!   Chernoff tails (eq. (2), (3)), 000 eq. (1)'s lower bound, 001 Lemma 1.3
//!   (queue length), 001 Lemma 3 (generation depth, with c = 8 as proved in
//!   proofs/Bounds.v), 001 Thm 1 / 002 Thm 1 (T_par and O(P·h) messages).
//! - [`stats`]: exact Clopper–Pearson bounds and binomial tails, empirical
//!   tail vs bound, t-based upper confidence bounds, the trend test.
//! - [`plan`], [`suite`], [`observe`]: the quick and full profiles, the
//!   simulated runs and what they measure.
//! - [`twosample`], [`compare`]: Mann–Whitney tests of a user's batch of
//!   runs against the reference's (`lbcheck compare`).
//! - [`claims`]: the claims checked on those runs, each with its α, the
//!   fitted constants and the verdicts `lbcheck bounds` prints.

pub mod claims;
pub mod compare;
pub mod observe;
pub mod papers;
pub mod plan;
pub mod stats;
pub mod suite;
pub mod twosample;
