//! 004's bounds (S-9 … S-11): the suites `lbcheck bounds --balancer
//! random-destination` ([`search`], Thm 1) and `--balancer scatter`
//! ([`scatter`], Thm 3), each with Lemmas 6 and 7 as exact formula checks
//! ([`lemmas`]). Like the random-polling suite, a fitted constant is the
//! largest normalised value over calibration runs (always the reference);
//! test runs (other seeds; the mutant under test) are held to (1 + MARGIN)
//! times it, and each statistical test has α = FAMILY_ALPHA / (its suite's
//! number of statistical tests), Bonferroni ([`crate::bounds::claims::alpha_of`]).

pub mod lemmas;
pub mod scatter;
pub mod search;
