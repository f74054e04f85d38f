(** * Energy-based distributed termination detection (003 §14.7.4)

    Pacheco, "Parallel Programming with MPI", ch. 14, §14.7.4: process 0
    starts with all the energy (1); a process that fills a request for work
    keeps half its energy and sends half with the work; a process that runs
    out of work sends all its energy to process 0; energy is never created
    or destroyed, so process 0 may announce termination once it is idle and
    holds energy 1.  The energies are exact rationals ([Q]), as the book
    recommends (pairs of integers instead of floating point).

    The model: [P] PEs (indices [0 .. P-1]); a state holds a per-PE energy
    ([nat -> Q]), a per-PE "holds work" flag, and the list of messages in
    flight, each with a destination, an amount of energy and a kind (work
    message or energy return).  Three transfer rules (steps):
    - [s_serve]: a PE [i] holding work serves PE [j]: it keeps half of its
      energy and sends the other half together with (part of) its work;
    - [s_out]:   a PE [i] runs out of work: it returns all its energy to
      PE 0 as a message (PE 0 sends its own energy to itself, uniformly);
    - [s_recv]:  any message in flight is received (in any order): its
      amount is added to the destination's energy; a work message makes
      the destination hold work.

    Proved: [energy_conserved] (total energy, PEs + in flight, is 1 in every
    reachable state), the invariants [nonneg_inv] (all energies and
    message amounts are >= 0) and [work_pos_inv] (a PE holding work has
    positive energy; a work message carries positive energy), and
    [no_early_termination] (if PE 0 is idle and holds exactly 1, then every
    other PE and every message holds 0, no PE holds work and no work message
    is in flight). *)

From Coq Require Import QArith Lqa List Arith Lia.
Import ListNotations.

Open Scope Q_scope.

(** ** Finite sums *)

Definition sumf (f : nat -> Q) (l : list nat) : Q :=
  fold_right (fun i acc => f i + acc) 0 l.

Definition upd {A} (f : nat -> A) (i : nat) (v : A) : nat -> A :=
  fun k => if Nat.eq_dec k i then v else f k.

Lemma upd_eq {A} (f : nat -> A) i v : upd f i v i = v.
Proof. unfold upd; destruct (Nat.eq_dec i i); congruence. Qed.

Lemma upd_neq {A} (f : nat -> A) i v k : k <> i -> upd f i v k = f k.
Proof. intros H; unfold upd; destruct (Nat.eq_dec k i); congruence. Qed.

Lemma sumf_upd_notin : forall f i v l,
  ~ In i l -> sumf (upd f i v) l == sumf f l.
Proof.
  intros f i v l; induction l as [|a l IH]; simpl; intros Hn.
  - reflexivity.
  - rewrite upd_neq by (intro; apply Hn; left; congruence).
    assert (H := IH (fun H => Hn (or_intror H))). lra.
Qed.

Lemma sumf_upd_in : forall f i v l,
  NoDup l -> In i l -> sumf (upd f i v) l == sumf f l - f i + v.
Proof.
  intros f i v l; induction l as [|a l IH]; simpl; intros Hnd Hin.
  - contradiction.
  - inversion Hnd as [|? ? Hna Hnd']; subst.
    destruct Hin as [<- | Hin].
    + rewrite upd_eq. assert (H := sumf_upd_notin f a v l Hna). lra.
    + assert (a <> i) by (intro; subst; contradiction).
      rewrite upd_neq by congruence.
      assert (H' := IH Hnd' Hin). lra.
Qed.

Lemma sumf_nonneg : forall f l,
  (forall k, In k l -> 0 <= f k) -> 0 <= sumf f l.
Proof.
  intros f l; induction l as [|a l IH]; simpl; intros H.
  - lra.
  - assert (0 <= f a) by (apply H; left; reflexivity).
    assert (0 <= sumf f l) by (apply IH; intros; apply H; right; assumption).
    lra.
Qed.

Lemma sumf_zero : forall f l,
  (forall k, In k l -> 0 <= f k) -> sumf f l == 0 -> forall k, In k l -> f k == 0.
Proof.
  intros f l; induction l as [|a l IH]; simpl; intros Hnn Hs k Hk.
  - contradiction.
  - assert (0 <= f a) by (apply Hnn; left; reflexivity).
    assert (0 <= sumf f l) by (apply sumf_nonneg; intros; apply Hnn; right; assumption).
    destruct Hk as [<- | Hk].
    + lra.
    + apply IH; [intros; apply Hnn; right; assumption | lra | assumption].
Qed.

(** ** Messages *)

Inductive kind := WorkMsg | RetMsg.

Record msg := Msg { dst : nat; amt : Q; knd : kind }.

Definition msum (l : list msg) : Q := fold_right (fun m acc => amt m + acc) 0 l.

Lemma msum_app : forall l1 l2, msum (l1 ++ l2) == msum l1 + msum l2.
Proof.
  induction l1 as [|m l1 IH]; simpl; intros l2.
  - lra.
  - assert (H := IH l2). lra.
Qed.

Lemma msum_split : forall l1 m l2, msum (l1 ++ m :: l2) == amt m + msum (l1 ++ l2).
Proof.
  intros. rewrite !msum_app. simpl. lra.
Qed.

Lemma msum_nonneg : forall l, (forall m, In m l -> 0 <= amt m) -> 0 <= msum l.
Proof.
  induction l as [|a l IH]; simpl; intros H.
  - lra.
  - assert (0 <= amt a) by (apply H; left; reflexivity).
    assert (0 <= msum l) by (apply IH; intros; apply H; right; assumption).
    lra.
Qed.

Lemma msum_zero : forall l,
  (forall m, In m l -> 0 <= amt m) -> msum l == 0 -> forall m, In m l -> amt m == 0.
Proof.
  induction l as [|a l IH]; simpl; intros Hnn Hs m Hm.
  - contradiction.
  - assert (0 <= amt a) by (apply Hnn; left; reflexivity).
    assert (0 <= msum l) by (apply msum_nonneg; intros; apply Hnn; right; assumption).
    destruct Hm as [<- | Hm].
    + lra.
    + apply IH; [intros; apply Hnn; right; assumption | lra | assumption].
Qed.

(** ** The transition system *)

Section EnergyModel.

Variable P : nat.
Hypothesis P_pos : (0 < P)%nat.

Definition pes := seq 0 P.

Lemma pes_nodup : NoDup pes.
Proof. apply seq_NoDup. Qed.

Lemma in_pes : forall i, In i pes <-> (i < P)%nat.
Proof. intros i; unfold pes; rewrite in_seq; lia. Qed.

Record state := St { en : nat -> Q; work : nat -> bool; msgs : list msg }.

Definition total (s : state) : Q := sumf (en s) pes + msum (msgs s).

Definition init : state :=
  St (fun k => if Nat.eq_dec k 0 then 1 else 0)
     (fun k => if Nat.eq_dec k 0 then true else false)
     [].

Inductive step : state -> state -> Prop :=
  (** serve: keep half, send half with the work *)
  | s_serve : forall s i j,
      (i < P)%nat -> (j < P)%nat -> i <> j -> work s i = true ->
      step s (St (upd (en s) i ((1#2) * en s i))
                 (work s)
                 (Msg j ((1#2) * en s i) WorkMsg :: msgs s))
  (** run out of work: return everything to PE 0 *)
  | s_out : forall s i,
      (i < P)%nat -> work s i = true ->
      step s (St (upd (en s) i 0)
                 (upd (work s) i false)
                 (Msg 0 (en s i) RetMsg :: msgs s))
  (** receive any message in flight: add its amount *)
  | s_recv : forall s l1 m l2,
      msgs s = l1 ++ m :: l2 -> (dst m < P)%nat ->
      step s (St (upd (en s) (dst m) (en s (dst m) + amt m))
                 (match knd m with
                  | WorkMsg => upd (work s) (dst m) true
                  | RetMsg => work s
                  end)
                 (l1 ++ l2)).

Inductive reachable : state -> Prop :=
  | r_init : reachable init
  | r_step : forall s s', reachable s -> step s s' -> reachable s'.

(** ** Conservation *)

Lemma total_init : total init == 1.
Proof.
  unfold total, init, pes; simpl.
  destruct P as [|n]; [lia|].
  simpl. destruct (Nat.eq_dec 0 0) as [_|]; [|congruence].
  assert (H : sumf (fun k => if Nat.eq_dec k 0 then 1 else 0) (seq 1 n) == 0).
  { assert (Hz : forall m, sumf (fun k => if Nat.eq_dec k 0 then 1 else 0) (seq (S m) n) == 0).
    { clear. induction n as [|n IH]; intros m; simpl.
      - reflexivity.
      - destruct (Nat.eq_dec (S m) 0) as [|_]; [lia|].
        assert (H := IH (S m)). lra. }
    apply Hz. }
  lra.
Qed.

Lemma step_conserves : forall s s', step s s' -> total s' == total s.
Proof.
  intros s s' Hs; destruct Hs as [s i j Hi Hj Hij Hw | s i Hi Hw | s l1 m l2 Hm Hd];
    unfold total; simpl.
  - rewrite sumf_upd_in by (apply pes_nodup || (apply in_pes; assumption)). lra.
  - rewrite sumf_upd_in by (apply pes_nodup || (apply in_pes; assumption)). lra.
  - rewrite sumf_upd_in by (apply pes_nodup || (apply in_pes; assumption)).
    rewrite Hm, msum_split. lra.
Qed.

Theorem energy_conserved : forall s, reachable s -> total s == 1.
Proof.
  intros s Hr; induction Hr as [|s s' Hr IH Hs].
  - apply total_init.
  - assert (H := step_conserves s s' Hs). lra.
Qed.

(** ** Invariants *)

Definition nonneg (s : state) : Prop :=
  (forall i, 0 <= en s i) /\ (forall m, In m (msgs s) -> 0 <= amt m).

Definition work_pos (s : state) : Prop :=
  (forall i, work s i = true -> 0 < en s i) /\
  (forall m, In m (msgs s) -> knd m = WorkMsg -> 0 < amt m).

Lemma in_l1l2 : forall (l1 l2 : list msg) m x, In x (l1 ++ l2) -> In x (l1 ++ m :: l2).
Proof.
  intros l1 l2 m x H; apply in_app_or in H; apply in_or_app.
  destruct H; [left | right; right]; assumption.
Qed.

Lemma in_mid : forall (l1 l2 : list msg) m, In m (l1 ++ m :: l2).
Proof. intros; apply in_or_app; right; left; reflexivity. Qed.

Theorem inv_reachable : forall s, reachable s -> nonneg s /\ work_pos s.
Proof.
  intros s Hr; induction Hr as [|s s' Hr IH Hs].
  - unfold nonneg, work_pos, init; simpl; repeat split.
    + intros i; destruct (Nat.eq_dec i 0); lra.
    + intros m [].
    + intros i; destruct (Nat.eq_dec i 0); [lra | discriminate].
    + intros m [].
  - destruct IH as [[Hen Hm] [Hwp Hmp]].
    destruct Hs as [s i j Hi Hj Hij Hw | s i Hi Hw | s l1 m l2 Hms Hd];
      unfold nonneg, work_pos; simpl; repeat split.
    + (* serve *)
      intros k; unfold upd; destruct (Nat.eq_dec k i);
        [subst; assert (H := Hen i); lra | apply Hen].
    + intros m [<- | Hin]; simpl; [assert (H := Hen i); lra | apply Hm; assumption].
    + intros k Hk; unfold upd; destruct (Nat.eq_dec k i);
        [subst; assert (H := Hwp i Hk); lra | apply Hwp; assumption].
    + intros m [<- | Hin] Hkd; simpl;
        [assert (H := Hwp i Hw); lra | apply Hmp; assumption].
    + (* run out of work *)
      intros k; unfold upd; destruct (Nat.eq_dec k i); [lra | apply Hen].
    + intros m [<- | Hin]; simpl; [apply Hen | apply Hm; assumption].
    + intros k Hk; unfold upd in *; destruct (Nat.eq_dec k i);
        [discriminate | apply Hwp; assumption].
    + intros m [<- | Hin] Hkd; simpl in *; [discriminate | apply Hmp; assumption].
    + (* receive *)
      assert (Hma : 0 <= amt m) by (apply Hm; rewrite Hms; apply in_mid).
      intros k; unfold upd; destruct (Nat.eq_dec k (dst m));
        [assert (H := Hen (dst m)); lra | apply Hen].
    + intros x Hx; apply Hm; rewrite Hms; apply in_l1l2; assumption.
    + assert (Hma : 0 <= amt m) by (apply Hm; rewrite Hms; apply in_mid).
      intros k Hk. destruct (knd m) eqn:Ek.
      * assert (Hmp' : 0 < amt m) by (apply Hmp; [rewrite Hms; apply in_mid | assumption]).
        unfold upd in *; destruct (Nat.eq_dec k (dst m));
          [subst; assert (H := Hen (dst m)); lra | apply Hwp; assumption].
      * unfold upd; destruct (Nat.eq_dec k (dst m));
          [subst; assert (H := Hwp (dst m) Hk); lra | apply Hwp; assumption].
    + intros x Hx; apply Hmp; rewrite Hms; apply in_l1l2; assumption.
Qed.

Corollary nonneg_inv : forall s, reachable s -> nonneg s.
Proof. intros s Hr; apply (inv_reachable s Hr). Qed.

Corollary work_pos_inv : forall s, reachable s -> work_pos s.
Proof. intros s Hr; apply (inv_reachable s Hr). Qed.

(** ** No early termination *)

(** The core argument, for any state with total energy 1 satisfying the
    invariants: if PE 0 holds exactly 1, everything else holds 0. *)
Lemma all_energy_at_zero : forall s,
  total s == 1 -> nonneg s -> en s 0 == 1 ->
  (forall i, (0 < i < P)%nat -> en s i == 0) /\
  (forall m, In m (msgs s) -> amt m == 0).
Proof.
  intros s Ht [Hen Hm] H0.
  unfold total, pes in Ht.
  destruct P as [|n] eqn:EP; [lia|].
  simpl in Ht.
  assert (Hr : 0 <= sumf (en s) (seq 1 n)) by (apply sumf_nonneg; intros; apply Hen).
  assert (Hmsum : 0 <= msum (msgs s)) by (apply msum_nonneg; assumption).
  split.
  - intros i Hi.
    apply (sumf_zero (en s) (seq 1 n)); [intros; apply Hen | lra | apply in_seq; lia].
  - apply msum_zero; [assumption | lra].
Qed.

Theorem no_early_termination : forall s,
  reachable s -> work s 0 = false -> en s 0 == 1 ->
  (forall i, (0 < i < P)%nat -> en s i == 0) /\
  (forall m, In m (msgs s) -> amt m == 0) /\
  (forall i, (i < P)%nat -> work s i = false) /\
  (forall m, In m (msgs s) -> knd m <> WorkMsg).
Proof.
  intros s Hr Hw0 H0.
  destruct (all_energy_at_zero s (energy_conserved s Hr) (nonneg_inv s Hr) H0)
    as [Hpe Hmsg].
  destruct (work_pos_inv s Hr) as [Hwp Hmp].
  repeat split.
  - assumption.
  - assumption.
  - intros i Hi. destruct i as [|i]; [assumption|].
    destruct (work s (S i)) eqn:Ew; [|reflexivity].
    assert (H1 := Hwp (S i) Ew). assert (H2 := Hpe (S i) ltac:(lia)). lra.
  - intros m Hin Hk. assert (H1 := Hmp m Hin Hk). assert (H2 := Hmsg m Hin). lra.
Qed.

End EnergyModel.
