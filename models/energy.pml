/*
 * energy.pml -- energy-based distributed termination detection,
 * 003 §14.7.4 (Pacheco, Parallel Programming with MPI, ch. 14).
 *
 * P PEs (default 3).  Energy is kept as exact integers scaled by 2^K
 * (K = bounded split depth; default K = 4, so the total energy "1" is 16
 * units).  Rules of 003 §14.7.4 as modelled here:
 *   1. PE 0 starts with the root work and all the energy (2^K units).
 *   4. A PE holding work that serves an idle PE (nondeterministically, which
 *      abstracts "receives a request") keeps half its energy and sends half
 *      together with the work.  A PE holding 1 unit cannot split (this
 *      bounds the split depth to K).  Halving is exact whenever the energy
 *      is even (always the case in the flat variant, where energies are
 *      powers of two); an odd amount e (tree variant only) sends floor(e/2)
 *      and keeps the rest, still exactly conserving the integer total.
 *   5. A PE that runs out of work returns all its energy to PE 0 (PE 0
 *      keeps its own).  PE 0 adds returned energy whenever it arrives.
 *   PE 0 announces termination when it is idle and holds all 2^K units.
 *
 * -DTREE: spanning-tree variant ("energy-tree", last paragraph of 003
 * §14.7.4): returns go to the parent (i-1)/2; a busy PE adds a return it
 * receives to its own energy; an idle PE forwards every return it
 * receives to its parent immediately (one atomic step).
 *
 * The total number of splits is bounded by MAXSPLIT so that every
 * computation is finite (a finite search tree); state is finite anyway.
 *
 * Properties
 *   energy_conserved      (assertion, checked after every transition):
 *                         sum of PE energies + energy in every work
 *                         message + energy in every return message == 2^K.
 *   no_early_termination  (assertion, checked after every transition):
 *                         once PE 0 has announced, no PE holds work and no
 *                         work message is in flight.
 *   termination_detected  (LTL, verify with pan -a -f):  <> announced.
 *   Reaching a state where no process can move before the announcement is
 *   reported by pan as an invalid end state (PEs only terminate after it).
 */

#ifndef P
#define P 3
#endif
#ifndef K
#define K 4
#endif
#ifndef MAXSPLIT
#define MAXSPLIT 6
#endif
#define TOTAL (1 << K)

#ifdef TREE
#define PARENT(i) (((i) - 1) / 2)
#else
#define PARENT(i) 0
#endif

bool busy[P];                      /* PE holds work                        */
byte energy[P];                    /* energy held, in units of 2^-K        */
bool announced;                    /* PE 0 has announced termination       */
byte nsplits;                      /* splits so far (bounded by MAXSPLIT)  */
chan work[P] = [1] of { byte };    /* work message to PE j, carries energy */
chan ret[P]  = [P] of { byte };    /* energy returns destined to PE j      */

hidden int tot;                    /* scratch for check(), not in state    */
hidden byte ck, cn, cm, ce;

/* Called as the last statement of every atomic transition, so it is
 * evaluated in every reachable state.  Energy in a multi-slot channel is
 * summed by rotating the FIFO once (leaves its contents unchanged). */
inline check() {
  tot = 0; ck = 0;
  do
  :: ck < P ->
     tot = tot + energy[ck];
     if
     :: len(work[ck]) > 0 -> work[ck]?<cm>; tot = tot + cm
     :: else -> skip
     fi;
     cn = 0;
     do
     :: cn < len(ret[ck]) -> ret[ck]?cm; tot = tot + cm; ret[ck]!cm; cn++
     :: else -> break
     od;
     ck++
  :: else -> break
  od;
  assert(tot == TOTAL);                                 /* energy_conserved */
  if
  :: announced ->
     ck = 0;
     do
     :: ck < P -> assert(!busy[ck] && len(work[ck]) == 0); /* no_early_termination */
                  ck++
     :: else -> break
     od
  :: else -> skip
  fi;
  ck = 0; cn = 0; cm = 0
}

/* Serve idle PE jj: split the work, keep half the energy, send half. */
#define SERVE(jj) \
  :: atomic { !announced && (jj) != i && busy[i] && energy[i] >= 2 && \
              nsplits < MAXSPLIT && !busy[jj] && len(work[jj]) == 0 -> \
       nsplits++; \
       work[jj]!(energy[i] / 2); \
       energy[i] = energy[i] - energy[i] / 2; \
       check() }

proctype PE(byte i)
{
  do
  :: announced -> break
  SERVE(0)
  SERVE(1)
  SERVE(2)
#if P > 3
  SERVE(3)
#endif
#if P > 4
  SERVE(4)
#endif
#if P > 5
  SERVE(5)
#endif
  /* run out of work: return all energy (PE 0 keeps its own) */
  :: atomic { !announced && busy[i] &&
              (i == 0 || len(ret[PARENT(i)]) < P) ->
       busy[i] = false;
       if
       :: i != 0 -> ret[PARENT(i)]!energy[i]; energy[i] = 0
       :: else -> skip
       fi;
       check() }
  /* receive work together with its energy */
  :: atomic { !announced && !busy[i] && len(work[i]) > 0 ->
       work[i]?ce; energy[i] = energy[i] + ce; busy[i] = true; ce = 0;
       check() }
  /* receive returned energy: PE 0 always adds it; in the tree variant a
     busy PE adds it to its own energy */
  :: atomic { len(ret[i]) > 0 && (i == 0 || busy[i]) ->
       ret[i]?ce; energy[i] = energy[i] + ce; ce = 0;
       check() }
#ifdef TREE
  /* tree variant: an idle non-root PE forwards a return to its parent */
  :: atomic { i != 0 && !busy[i] && len(ret[i]) > 0 &&
              len(ret[PARENT(i)]) < P ->
       ret[i]?ce; ret[PARENT(i)]!ce; ce = 0;
       check() }
#endif
  /* PE 0 announces termination when idle and holding all the energy */
  :: atomic { i == 0 && !announced && !busy[0] && energy[0] == TOTAL ->
       announced = true;
       check() }
  od
}

init {
  atomic {
    busy[0] = true;
    energy[0] = TOTAL;
    ck = 0;
    do
    :: ck < P -> run PE(ck); ck++
    :: else -> break
    od;
    ck = 0;
    check()
  }
}

ltl termination_detected { <> announced }
