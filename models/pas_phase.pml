/*
 * pas_phase.pml -- one phase of hypercube poll-and-shuffle with its
 * matching, 000 §3.1 (Fig. 2), S-2; the Rust reference is
 * src/protocol/poll_and_shuffle.rs on the phased machine src/sim/phased/.
 *
 * P = 4 PEs (a 2-cube); the phase's dimension i is chosen
 * nondeterministically (0 or 1), so both pairings are checked.  Each PE
 * starts the phase with 0..MAXW work units (nondeterministic; 0 = an
 * empty subproblem, an idle PE).  During the phase a PE works up to
 * TPHASE units, one at a time, interleaved arbitrarily with the others,
 * or until it runs out.  The barrier (000 §2.1's global time: the phase
 * ends for every PE at once) is reached when every PE has finished its
 * phase work.  Then every idle PE k sends a request to its dimension-i
 * partner k XOR 2^i; a PE receiving a request splits (half its units,
 * rounded down, if it holds at least 2: an atomic piece cannot be split)
 * and sends the part, or sends a reject.  The exchange is over when every
 * PE has decided whether to ask and every reply has arrived.
 *
 * Properties (assertions; safety run, pan with -DSAFETY):
 *   phase_discipline (as src/check/phase.rs checks it on event streams):
 *     - a request is sent only at the barrier (never during the phase);
 *     - it goes from k to k XOR 2^i (checked at receipt, on the sender id);
 *     - a PE receives at most one request in the phase (a matching).
 *   work_conserved: units held + units in work messages + units worked
 *     == the units at the start, after every transition (every change is
 *     in an atomic block that ends with the check); at the end nothing is
 *     in flight and every reply was received.
 *   No invalid end states: every PE finishes the phase.
 *
 * -DMID_PHASE_REQUEST is mutant `pas-mid-phase-request` (src/mutants):
 * an idle PE asks the moment it runs out (or at once, if it starts idle),
 * mid-phase, not after the barrier.  SPIN finds the counterexample: a
 * request sent before the barrier.
 */

#define P 4
#ifndef MAXW
#define MAXW 3
#endif
#ifndef TPHASE
#define TPHASE 2
#endif

byte w[P];                       /* work units held                        */
byte worked;                     /* units worked in the phase              */
byte total;                      /* units at the start                     */
byte inflight;                   /* units in work messages                 */
byte dim;                        /* the phase's dimension i                */
byte nended;                     /* PEs that finished their phase work     */
bool barrier;                    /* every PE finished: the barrier         */
byte decided;                    /* PEs that decided whether to ask        */
byte nasked;                     /* requests sent                          */
byte nreplied;                   /* replies received                       */
byte received[P];                /* requests received, per PE              */
chan req[P] = [P] of { byte };   /* requests to PE j: the requester's id   */
chan rep[P] = [1] of { byte };   /* reply to PE k: units (0 = a reject)    */

#define conserved (w[0] + w[1] + w[2] + w[3] + inflight + worked == total)
#define partner(k) ((k) ^ (1 << dim))

inline ask(k) {
  assert(barrier);               /* phase_discipline: only at the barrier */
  nasked++;
  req[partner(k)]!k
}

/* PE k answers the request of `who`: a split-off part or a reject */
inline serve(k, who) {
  received[k]++;
  assert(received[k] <= 1);      /* phase_discipline: a matching          */
  assert(who == partner(k));     /* phase_discipline: the partner asked   */
  if
  :: w[k] >= 2 -> part = w[k] / 2; w[k] = w[k] - part; inflight = inflight + part
  :: else -> part = 0
  fi;
  rep[who]!part;
  part = 0;
  assert(conserved)
}

proctype PE(byte k)
{
  byte n, who, part, got;
  bool sent;
  /* the phase: up to TPHASE units, or until the subproblem runs out */
  do
  :: atomic { w[k] > 0 && n < TPHASE -> w[k]--; worked++; n++; assert(conserved) }
  :: w[k] == 0 || n == TPHASE -> break
#ifdef MID_PHASE_REQUEST
  :: atomic { w[k] == 0 && !sent -> ask(k); sent = true }
#endif
  od;
  atomic { nended++; if :: nended == P -> barrier = true :: else -> skip fi };
  barrier;
  /* the exchange */
  atomic {
    if
    :: w[k] == 0 && !sent -> ask(k); sent = true
    :: else -> skip
    fi;
    decided++
  };
  do
  :: atomic { req[k]?who -> serve(k, who); who = 0 }
  :: atomic { rep[k]?got -> assert(sent); w[k] = w[k] + got; inflight = inflight - got; nreplied++; got = 0; assert(conserved) }
  :: atomic { decided == P && nreplied == nasked && empty(req[k]) -> break }
  od;
  assert(inflight == 0)          /* every part sent has arrived */
}

init {
  byte k;
  atomic {
    if :: dim = 0 :: dim = 1 fi;
    do
    :: k < P ->
       if
       :: w[k] = 0 :: w[k] = 1 :: w[k] = 2 :: w[k] = MAXW
       fi;
       total = total + w[k];
       k++
    :: else -> break
    od;
    run PE(0); run PE(1); run PE(2); run PE(3)
  }
}
