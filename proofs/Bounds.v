(** * Arithmetic facts behind the statistical tests

    001 Lemma 3 (Sanders, Asynchronous Random Polling, proof of Lemma 3)
    bounds the probability that a subproblem is reached by fewer than h of
    cPh red requests by a term of the form e^(-h(c - ln c - 2)); the bound
    is only useful when the exponent c - ln c - 2 is positive.

    The Rust statistical test uses c = 8 for 001 Lemma 3.  For c = 8 we
    prove c - ln c - 2 > 0 ([lemma3_exponent_positive_c8]), in fact > 3
    ([lemma3_exponent_gt3_c8]), hence e^(-h(c - ln c - 2)) <= e^(-3h) for
    every h >= 0 ([lemma3_bound_c8]). *)

From Coq Require Import Reals Lra.
Open Scope R_scope.

(** e > 2, from exp x > 1 + x for x <> 0. *)
Lemma exp1_gt_2 : 2 < exp 1.
Proof. assert (H := exp_ineq1 1 ltac:(lra)). lra. Qed.

(** ln 2 < 1 *)
Lemma ln2_lt_1 : ln 2 < 1.
Proof.
  rewrite <- (ln_exp 1). apply ln_increasing; [lra | apply exp1_gt_2].
Qed.

(** ln 8 = 3 ln 2 < 3 *)
Lemma ln8_lt_3 : ln 8 < 3.
Proof.
  replace 8 with (2 * (2 * 2)) by lra.
  rewrite ln_mult, ln_mult by lra.
  assert (H := ln2_lt_1). lra.
Qed.

(** The weaker fact asked for directly: ln 8 < 6, via exp 6 = exp 3 * exp 3
    > 4 * 4 = 16 > 8. *)
Lemma ln8_lt_6 : ln 8 < 6.
Proof.
  assert (H3 : 4 < exp 3) by (assert (H := exp_ineq1 3 ltac:(lra)); lra).
  assert (H6 : 8 < exp 6).
  { replace 6 with (3 + 3) by lra. rewrite exp_plus.
    assert (0 < exp 3) by apply exp_pos. nra. }
  rewrite <- (ln_exp 6). apply ln_increasing; lra.
Qed.

(** 001 Lemma 3 with c = 8: the exponent c - ln c - 2 is positive. *)
Theorem lemma3_exponent_positive_c8 : 8 - ln 8 - 2 > 0.
Proof. assert (H := ln8_lt_6). lra. Qed.

Theorem lemma3_exponent_gt3_c8 : 8 - ln 8 - 2 > 3.
Proof. assert (H := ln8_lt_3). lra. Qed.

(** Hence the tail bound of 001 Lemma 3 with c = 8 is at most e^(-3h). *)
Theorem lemma3_bound_c8 : forall h, 0 <= h ->
  exp (- (h * (8 - ln 8 - 2))) <= exp (- (3 * h)).
Proof.
  intros h Hh.
  assert (H := lemma3_exponent_gt3_c8).
  destruct (Rle_lt_or_eq_dec 0 h Hh) as [Hpos | <-].
  - left. apply exp_increasing. nra.
  - right. f_equal. ring.
Qed.
