/*
 * four_counter.pml -- four-counter termination detection with waves over a
 * reduction tree, 001 §2 (Sanders, Asynchronous Random Polling), after
 * Mattern 1987 ("Algorithms for distributed termination detection").
 *
 * 3 PEs in a tree: PE 0 is the root, PEs 1 and 2 are its children.
 * PE 0 starts with the root work.  A PE holding work may send part of it to
 * another PE (a work message; at most MAXSEND work messages in total, so the
 * computation is finite), may finish its work and go idle, and receives work
 * messages (becoming busy).  Each PE i counts work messages sent (S_i) and
 * received (R_i).  PE 0 runs waves sequentially: wave k starts (PE 0 sends
 * a wave request down to its children) only after wave k-1's result is back
 * at PE 0; children send their readings up to PE 0.
 *
 * THE EXACT CONDITION (the Rust detector implements exactly this):
 *   Each PE contributes its counters (S_i, R_i) to a wave only at a moment
 *   when it holds no work (a busy PE defers its contribution until it goes
 *   idle). Wave k yields totals S_k = Σ S_i, R_k = Σ R_i. PE 0 announces
 *   termination after wave k ≥ 2 iff S_{k-1} = R_{k-1} = S_k = R_k.
 *   Safety reason: let t* be a moment between the end of wave k-1 and the
 *   start of wave k. Counters are monotone and a message is received only
 *   after it is sent, so R_{k-1} ≤ R(t*) ≤ S(t*) ≤ S_k; equality
 *   R_{k-1} = S_k forces R(t*) = S(t*) (no work message in flight at t*)
 *   and R(t*) = R_{k-1} (no PE received work between its wave-(k-1)
 *   reading, taken while idle, and t*); a PE becomes busy only by receiving
 *   work, so every PE is idle at t*, and then no PE can ever become busy
 *   again: the computation had terminated.
 *
 * -DONE_WAVE: the unsound variant that announces after a single wave with
 * S_k = R_k.  SPIN finds a counterexample to no_early_termination, e.g.:
 * wave reads X while idle; then Y (PE 0, busy with the root) sends work to
 * X, finishes and is read (S=1,R=0); X sends part of its work to Z, Z
 * finishes and is read (S=0,R=1); totals S=1=R but X is still busy.
 *
 * Properties
 *   no_early_termination  (assertion at the announcement): no PE holds work
 *                         and no work message is in flight.
 *   termination_detected  (LTL, pan -a -f):  <> announced.
 */

#define N 3
#ifndef MAXSEND
#define MAXSEND 4
#endif

bool busy[N];                       /* PE holds work                     */
byte S[N], R[N];                    /* work messages sent / received     */
byte nsent;                         /* total work messages (bounded)     */
bool announced;
chan work[N] = [1] of { bit };      /* work messages to PE j             */
chan down[N] = [1] of { bit };      /* wave request, PE 0 -> child j     */
chan up      = [2] of { byte, byte };  /* (S_i, R_i) child -> PE 0       */

/* wave state at PE 0 */
bool waving;                        /* a wave is in progress             */
bool own_pending;                   /* PE 0 has not yet contributed      */
bool have_prev;                     /* at least one wave completed       */
byte ncontrib, accS, accR, prevS, prevR;
byte hs, hr, ck;                    /* scratch, always reset to 0 */

inline check_no_early_termination() {
  ck = 0;
  do
  :: ck < N -> assert(!busy[ck] && len(work[ck]) == 0); /* no_early_termination */
               ck++
  :: else -> break
  od;
  ck = 0
}

/* PE i sends part of its work to PE jj */
#define SEND(jj) \
  :: atomic { !announced && busy[i] && nsent < MAXSEND && len(work[jj]) == 0 -> \
       nsent++; S[i]++; work[jj]!1 }

proctype Worker(byte i)
{
  do
  :: announced -> break
  SEND((i + 1) % N)
  SEND((i + 2) % N)
  /* finish the local work and go idle */
  :: atomic { !announced && busy[i] -> busy[i] = false }
  /* child: contribute (S_i, R_i) to the current wave, only while idle */
  :: atomic { i != 0 && !busy[i] && len(down[i]) > 0 -> down[i]?_; up!S[i],R[i] }
  od
}

/* Receipt of work messages.  A PE receives a work message (busy or idle),
 * counts it in R_j and becomes busy.  Receipt is a separate process so that
 * weak fairness guarantees every message is eventually received (a PE
 * cannot postpone a pending receipt forever by doing other steps). */
proctype Net()
{
  do
  :: announced -> break
  :: atomic { !announced && len(work[0]) > 0 -> work[0]?_; R[0]++; busy[0] = true }
  :: atomic { !announced && len(work[1]) > 0 -> work[1]?_; R[1]++; busy[1] = true }
  :: atomic { !announced && len(work[2]) > 0 -> work[2]?_; R[2]++; busy[2] = true }
  od
}

/* PE 0's part of the detection protocol (runs interleaved with Worker(0)) */
proctype Root()
{
  do
  :: announced -> break
  /* start a wave (only after the previous wave's result is back) */
  :: atomic { !announced && !waving ->
       waving = true; own_pending = true; ncontrib = 0; accS = 0; accR = 0;
       down[1]!1; down[2]!1 }
  /* PE 0's own contribution, only while PE 0 holds no work */
  :: atomic { waving && own_pending && !busy[0] ->
       own_pending = false; accS = accS + S[0]; accR = accR + R[0]; ncontrib++ }
  /* a child's contribution arrives */
  :: atomic { up?hs,hr -> accS = accS + hs; accR = accR + hr; ncontrib++; hs = 0; hr = 0 }
  /* wave complete: evaluate */
  :: atomic { waving && ncontrib == N ->
#ifdef ONE_WAVE
       if
       :: accS == accR -> announced = true; check_no_early_termination()
       :: else -> skip
       fi;
#else
       if
       :: have_prev && prevS == prevR && prevR == accS && accS == accR ->
            announced = true; check_no_early_termination()
       :: else -> skip
       fi;
#endif
       prevS = accS; prevR = accR; have_prev = true;
       waving = false; ncontrib = 0; accS = 0; accR = 0 }
  od
}

init {
  atomic {
    busy[0] = true;
    run Worker(0); run Worker(1); run Worker(2); run Net(); run Root()
  }
}

ltl termination_detected { <> announced }
