(** * Safety of four-counter termination detection with waves
    (001 §2, after Mattern 1987)

    Sanders, "Asynchronous Random Polling Dynamic Load Balancing", §2, adapts
    the four counter method of Mattern ("Algorithms for distributed
    termination detection", Distributed Computing 2:161-175, 1987): every PE
    counts the work messages it has sent (S_i) and received (R_i); PE 0 runs
    global additions (waves) over a reduction tree, one after another.

    THE EXACT CONDITION (implemented by the Rust detector):
    "Each PE contributes its counters (S_i, R_i) to a wave only at a moment
    when it holds no work (a busy PE defers its contribution until it goes
    idle). Wave k yields totals S_k = Σ S_i, R_k = Σ R_i. PE 0 announces
    termination after wave k ≥ 2 iff S_{k-1} = R_{k-1} = S_k = R_k."

    Model and assumptions (stated as section hypotheses below):
    - Time is [nat]; the PEs are the elements of a finite list [pes].
    - [sent i t] and [recv i t] are PE i's counters at time t; both are
      monotone in t ([sent_mono], [recv_mono]).
    - A message is received only after it has been sent, so at every time
      the total received is at most the total sent ([recv_le_sent]); the
      number of work messages in flight at t is S(t) - R(t).
    - [busy i t]: PE i holds work at time t.  A PE becomes busy only by
      receiving work: if it is idle at t and busy at t+1, then R_i
      increased between t and t+1 ([busy_rise]).
    - Wave k-1 reads PE i at time [a i] <= t_star, while PE i is idle
      ([a_le], [a_idle]); wave k reads PE i at time [b i] >= t_star ([b_ge]),
      where t_star is a moment between the end of wave k-1 and the start of
      wave k (waves are sequential).
    Theorem [mattern_safety]: if R_{k-1} = S_k then at t_star no work message
    is in flight (S(t_star) = R(t_star)) and every PE is idle.
    Corollary [four_counter_safety]: the condition S_{k-1} = R_{k-1} =
    S_k = R_k implies the same.
    Theorem [terminated_stable] (with the extra assumption [send_busy]: a
    PE sends work only while it holds work): from t_star on, every PE stays
    idle and nothing is ever in flight again -- the computation had
    terminated. *)

From Coq Require Import List Arith Lia.
Import ListNotations.

(** ** Sums over a list of PEs *)

Definition sumL (f : nat -> nat) (l : list nat) : nat :=
  fold_right (fun i acc => f i + acc) 0 l.

Lemma sumL_le : forall f g l,
  (forall i, In i l -> f i <= g i) -> sumL f l <= sumL g l.
Proof.
  intros f g l; induction l as [|a l IH]; simpl; intros H.
  - lia.
  - assert (f a <= g a) by (apply H; left; reflexivity).
    assert (sumL f l <= sumL g l) by (apply IH; intros; apply H; right; assumption).
    lia.
Qed.

Lemma sumL_eq_pointwise : forall f g l,
  (forall i, In i l -> f i <= g i) -> sumL f l = sumL g l ->
  forall i, In i l -> f i = g i.
Proof.
  intros f g l; induction l as [|a l IH]; simpl; intros H Hs i Hi.
  - contradiction.
  - assert (f a <= g a) by (apply H; left; reflexivity).
    assert (sumL f l <= sumL g l) by (apply sumL_le; intros; apply H; right; assumption).
    destruct Hi as [<- | Hi].
    + lia.
    + apply IH; [intros; apply H; right; assumption | lia | assumption].
Qed.

Section FourCounter.

Variable pes : list nat.
Variables sent recv : nat -> nat -> nat.   (* PE -> time -> count *)
Variable busy : nat -> nat -> bool.        (* PE -> time -> holds work *)

Hypothesis sent_mono : forall i t t', t <= t' -> sent i t <= sent i t'.
Hypothesis recv_mono : forall i t t', t <= t' -> recv i t <= recv i t'.

Definition Stot (t : nat) := sumL (fun i => sent i t) pes.
Definition Rtot (t : nat) := sumL (fun i => recv i t) pes.
Definition in_flight (t : nat) := Stot t - Rtot t.

Hypothesis recv_le_sent : forall t, Rtot t <= Stot t.

Hypothesis busy_rise : forall i t,
  busy i t = false -> busy i (S t) = true -> recv i t < recv i (S t).

(** A PE idle at t and busy at t' >= t received work in between. *)
Lemma busy_needs_recv : forall i t d,
  busy i t = false -> busy i (t + d) = true -> recv i t < recv i (t + d).
Proof.
  intros i t d Hidle; induction d as [|d IH]; intros Hbusy.
  - rewrite Nat.add_0_r in Hbusy; congruence.
  - rewrite Nat.add_succ_r in *.
    destruct (busy i (t + d)) eqn:Eb.
    + assert (H1 := IH eq_refl).
      assert (H2 := recv_mono i (t + d) (S (t + d)) ltac:(lia)). lia.
    + assert (H1 := busy_rise i (t + d) Eb Hbusy).
      assert (H2 := recv_mono i t (t + d) ltac:(lia)). lia.
Qed.

(** ** The two waves *)

Variable tstar : nat.
Variables a b : nat -> nat.     (* reading times of waves k-1 and k *)
Hypothesis a_le : forall i, In i pes -> a i <= tstar.
Hypothesis a_idle : forall i, In i pes -> busy i (a i) = false.
Hypothesis b_ge : forall i, In i pes -> tstar <= b i.

Definition S_prev := sumL (fun i => sent i (a i)) pes.   (* S_{k-1} *)
Definition R_prev := sumL (fun i => recv i (a i)) pes.   (* R_{k-1} *)
Definition S_cur  := sumL (fun i => sent i (b i)) pes.   (* S_k *)
Definition R_cur  := sumL (fun i => recv i (b i)) pes.   (* R_k *)

(** R_{k-1} <= R(t_star) <= S(t_star) <= S_k *)
Lemma chain : R_prev <= Rtot tstar /\ Rtot tstar <= Stot tstar /\ Stot tstar <= S_cur.
Proof.
  split; [|split].
  - apply sumL_le; intros i Hi; apply recv_mono, a_le; assumption.
  - apply recv_le_sent.
  - apply sumL_le; intros i Hi; apply sent_mono, b_ge; assumption.
Qed.

Theorem mattern_safety :
  R_prev = S_cur ->
  in_flight tstar = 0 /\ Stot tstar = Rtot tstar /\
  (forall i, In i pes -> busy i tstar = false).
Proof.
  intros Heq.
  destruct chain as [H1 [H2 H3]].
  assert (HRS : Stot tstar = Rtot tstar) by lia.
  split; [unfold in_flight; lia | split; [assumption |]].
  (* no PE received work between its wave-(k-1) reading and t_star *)
  assert (Hpt : forall i, In i pes -> recv i (a i) = recv i tstar).
  { apply (sumL_eq_pointwise (fun i => recv i (a i)) (fun i => recv i tstar)).
    - intros i Hi; apply recv_mono, a_le; assumption.
    - unfold R_prev, Rtot in *; lia. }
  intros i Hi.
  destruct (busy i tstar) eqn:Eb; [|reflexivity].
  exfalso.
  assert (Ha := a_le i Hi).
  replace tstar with (a i + (tstar - a i)) in Eb by lia.
  assert (Hlt := busy_needs_recv i (a i) (tstar - a i) (a_idle i Hi) Eb).
  replace (a i + (tstar - a i)) with tstar in Hlt by lia.
  rewrite (Hpt i Hi) in Hlt. lia.
Qed.

Corollary four_counter_safety :
  S_prev = R_prev -> R_prev = S_cur -> S_cur = R_cur ->
  in_flight tstar = 0 /\ (forall i, In i pes -> busy i tstar = false).
Proof.
  intros _ H _. destruct (mattern_safety H) as [H1 [_ H3]]. split; assumption.
Qed.

(** ** Termination is stable: nothing happens after t_star *)

Hypothesis send_busy : forall i t, sent i t < sent i (S t) -> busy i t = true.

Theorem terminated_stable :
  R_prev = S_cur ->
  forall d, Stot (tstar + d) = Rtot (tstar + d) /\
            (forall i, In i pes -> busy i (tstar + d) = false) /\
            (forall i, In i pes -> sent i (tstar + d) = sent i tstar /\
                                   recv i (tstar + d) = recv i tstar).
Proof.
  intros Heq d; induction d as [|d [IHs [IHb IHc]]].
  - rewrite Nat.add_0_r. destruct (mattern_safety Heq) as [_ [Hs Hb]].
    repeat split; auto.
  - rewrite Nat.add_succ_r.
    set (t := tstar + d) in *.
    (* idle PEs do not send *)
    assert (Hsent : forall i, In i pes -> sent i (S t) = sent i t).
    { intros i Hi. assert (Hm := sent_mono i t (S t) ltac:(lia)).
      destruct (Nat.eq_dec (sent i (S t)) (sent i t)) as [E|E]; [assumption|].
      assert (Hb := send_busy i t ltac:(lia)). rewrite IHb in Hb by assumption.
      discriminate. }
    assert (HS : Stot (S t) = Stot t).
    { unfold Stot. assert (forall l, (forall i, In i l -> sent i (S t) = sent i t) ->
        sumL (fun i => sent i (S t)) l = sumL (fun i => sent i t) l) as Hl.
      { induction l as [|x l IHl]; simpl; intros Hx; [reflexivity|].
        rewrite Hx by (left; reflexivity). rewrite IHl by (intros; apply Hx; right; assumption).
        reflexivity. }
      apply Hl, Hsent. }
    assert (HR1 : Rtot t <= Rtot (S t)).
    { apply sumL_le; intros; apply recv_mono; lia. }
    assert (HR2 := recv_le_sent (S t)).
    assert (Hrecv : forall i, In i pes -> recv i t = recv i (S t)).
    { apply (sumL_eq_pointwise (fun i => recv i t) (fun i => recv i (S t))).
      - intros; apply recv_mono; lia.
      - unfold Rtot in *; lia. }
    split; [lia | split].
    + intros i Hi. destruct (busy i (S t)) eqn:Eb; [|reflexivity].
      assert (H := busy_rise i t (IHb i Hi) Eb). rewrite (Hrecv i Hi) in H. lia.
    + intros i Hi. destruct (IHc i Hi) as [Hc1 Hc2]. split.
      * rewrite Hsent by assumption. assumption.
      * rewrite <- Hrecv by assumption. assumption.
Qed.

End FourCounter.
