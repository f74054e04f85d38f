/*
 * work_request.pml -- Pacheco's Par_dfs / Service_requests / Work_remains
 * with and without Send_all_rejects, 003 §14.7.2-§14.7.3.
 *
 * N = 3 PEs.  PE 0 starts with the root work.  A busy PE (Par_dfs) repeats:
 * expand nodes (nondeterministically its local stack may become empty; it
 * may also go on for ever -- an arbitrarily large subtree), then
 * Service_requests: every pending request is answered with work (a split;
 * at most MAXSPLIT splits in total) or with a rejection (Nodes_available
 * false).  An idle PE runs the Work_remains loop of 003 §14.7.3:
 *     while (TRUE) {
 *         Send_all_rejects();                 -- omitted with -DNO_SEND_ALL_REJECTS
 *         if (Search_complete()) return FALSE;
 *         else if (!request_sent) { send request to New_request(); request_sent = TRUE; }
 *         else if (Reply_received(...)) { if (work) return TRUE; else request_sent = FALSE; }
 *     }
 * Search_complete is modelled as an oracle (all PEs idle and no work in
 * flight), i.e. an exact termination detector such as 003 §14.7.4 (checked
 * separately in energy.pml).  The polling loop blocks instead of spinning
 * when nothing can change (no reply, no pending request, not complete).
 *
 * Properties
 *   requests_answered (LTL, pan -a -f): every request eventually gets its
 *       reply, unless the search completes first (a PE leaves Work_remains
 *       when Search_complete is true, possibly with its request outstanding):
 *           [] (waiting[i] -> <> (!waiting[i] || complete))   for every i
 *       "Exactly one reply" is checked by assertions: a reply is only sent
 *       into an empty reply channel and only received by a waiting PE.
 *   Assertions + no invalid end states (safety run, pan with -DSAFETY):
 *       legitimate termination (leaving Work_remains) is a valid end state.
 *
 * -DSCATTER starts the way the Rust reference does (`lbcheck simulate
 * --balancer pacheco`, src/protocol/pacheco.rs): Generate + Scatter of
 * 003 §14.7. PEs 1 and 2 wait in the Scatter (rejecting requests at once,
 * as idle PEs do) until PE 0's first service point sends each of them a
 * part. Without it PEs 1 and 2 start idle in Work_remains.  The Rust
 * reference runs the same Service_requests (every pending request
 * answered at a service point) and Send_all_rejects; its mutant
 * `no-send-all-rejects` is this model's -DNO_SEND_ALL_REJECTS.
 *
 * Expected: with Send_all_rejects everything holds.  With
 * -DNO_SEND_ALL_REJECTS SPIN finds the "busy deadlock" of 003 §14.7.3:
 * two idle PEs request work from each other and never answer, so both wait
 * for ever while PE 0 does all the remaining work (a fair acceptance cycle
 * violating requests_answered).
 */

#define N 3
#ifndef MAXSPLIT
#define MAXSPLIT 2
#endif

bool busy[N];
bool waiting[N];                 /* request_sent: a request is outstanding  */
byte nsplits;                    /* splits so far                          */
byte wif;                        /* work replies in flight                 */
chan req[N] = [N] of { byte };   /* requests to PE j, carry requester id   */
chan rep[N] = [1] of { bit };    /* reply to PE i: 1 = work, 0 = reject    */

#define complete (!busy[0] && !busy[1] && !busy[2] && wif == 0)

hidden byte who, x;

/* answer one pending request with work or a rejection */
inline reply(j, w) {
  assert(len(rep[j]) == 0);      /* at most one reply per request */
  if
  :: w -> nsplits++; wif++; rep[j]!1
  :: else -> rep[j]!0
  fi
}

proctype PE(byte i)
{
#ifdef SCATTER
  if
  :: i == 0 -> atomic { wif = wif + N - 1; rep[1]!1; rep[2]!1 }   /* Generate + Scatter */
  :: else -> skip
  fi;
#endif
  if
  :: busy[i] -> goto par_dfs
  :: else -> goto work_remains
  fi;

par_dfs:
  do
  :: /* expand nodes; work remains */
     atomic {
       /* Service_requests */
       do
       :: req[i]?who ->
          if
          :: nsplits < MAXSPLIT -> reply(who, 1)
          :: true -> reply(who, 0)
          fi
       :: empty(req[i]) -> break
       od;
       who = 0
     }
  :: /* local stack became empty; still run Service_requests, which can
        only reject now */
     atomic {
       busy[i] = false;
       do
       :: req[i]?who -> reply(who, 0)
       :: empty(req[i]) -> break
       od;
       who = 0
     };
     goto work_remains
  od;

work_remains:
  do
  :: atomic {
#ifndef NO_SEND_ALL_REJECTS
       /* Send_all_rejects */
       do
       :: req[i]?who -> reply(who, 0)
       :: empty(req[i]) -> break
       od;
       who = 0;
#endif
       if
       :: complete -> goto done        /* Search_complete */
       :: else -> skip
       fi
     };
     if
     :: !waiting[i] ->
        /* New_request: any other PE */
        atomic {
          if
          :: req[(i + 1) % N]!i
          :: req[(i + 2) % N]!i
          fi;
          waiting[i] = true
        }
     :: waiting[i] ->
        if
        :: atomic { rep[i]?x ->
             assert(waiting[i]);
             waiting[i] = false;
             if
             :: x == 1 -> busy[i] = true; wif--; x = 0; goto par_dfs
             :: else -> skip
             fi }
        /* Reply_received is tested first: a present reply is always taken */
#ifndef NO_SEND_ALL_REJECTS
        :: len(rep[i]) == 0 && len(req[i]) > 0 -> skip  /* round the loop: reject it */
#endif
        :: len(rep[i]) == 0 && complete -> skip         /* round the loop: terminate */
        fi
     fi
  od;

done:
  skip
}

init {
  atomic {
    busy[0] = true;
#ifdef SCATTER
    waiting[1] = true; waiting[2] = true;   /* in the Scatter: PE 0's part is their reply */
#endif
    run PE(0); run PE(1); run PE(2)
  }
}

ltl requests_answered {
  [] ((waiting[0] -> <> (!waiting[0] || complete)) &&
      (waiting[1] -> <> (!waiting[1] || complete)) &&
      (waiting[2] -> <> (!waiting[2] || complete)))
}
