//! `requests_answered` (001 Fig. 1: a request is answered by work or a
//! reject): every request PE i sent that PE j received gets exactly one
//! reply sent j→i after the receipt.
//!
//! Per ordered pair, the requests received at j from i and not yet answered
//! are kept (with their lines). A `reject` j→i answers the oldest; with none
//! outstanding it is an unrequested reply (a failure at its line). A `work`
//! message j→i answers the oldest if there is one, and is otherwise not a
//! reply (an initial distribution, say). At the end, a request still
//! unanswered fails — unless it reached j after j had `terminated`: once the
//! run is over no answer is due.
//!
//! A request must also be received in time ([`super::unread`]): a request
//! sent at s to PE j fails when j starts a work slice (a `work` event's
//! t − units) at or after s + 2·L + Δt before the request's `recv` — or
//! never receives it although it worked that late. L is the largest
//! latency (`recv` − `send`) of the trace's other messages, or the
//! declared latency (`run.latency`'s upper end, else `run.t_rout`) if
//! larger, at least 1; Δt the declared one (1 if none). The slack allows a
//! program that logs a request's `recv` at its next poll rather than on
//! arrival. A request in flight at the end whose target did no work that
//! late passes. Only for `clock: work`.

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;

use super::unread::Unread;
use super::{list_some, Book, Metrics, Property, Verdict};
use crate::event::{Event, Kind, TraceHeader};

/// A received request: its line and whether the receiver had terminated.
type Pending = (usize, bool);

/// State of the `requests_answered` check.
///
/// A requester nearly always has one request out (random polling's rule,
/// 001 Fig. 1): its oldest unanswered one is kept in a slot of its own,
/// indexed by the requester, and only the others in a map (issue 30: the
/// map's hashing per request and per reply was ≈ 5 % of a checked run).
/// For each pair (replier j, requester i) the requests not answered yet
/// are, oldest first, the slot's if it holds one of j's, then `more`'s.
pub(super) struct RequestsAnswered {
    /// Requester i → (replier j, its oldest request not answered yet).
    first: Vec<Option<(u32, Pending)>>,
    /// (replier j, requester i) → the further requests received and not
    /// answered yet, oldest first (never empty).
    more: HashMap<(u32, u32), VecDeque<Pending>>,
    received: u64,
    replies: u64,
    violation: Option<(usize, String)>,
    unread: Unread,
}

impl RequestsAnswered {
    /// For the run of `header`.
    pub(super) fn new(header: &TraceHeader) -> RequestsAnswered {
        RequestsAnswered {
            unread: Unread::new(header),
            first: vec![None; header.pes.min(super::MAX_PES) as usize],
            more: HashMap::default(),
            received: 0,
            replies: 0,
            violation: None,
        }
    }

    fn on_request(&mut self, line: usize, j: u32, i: u32, book: &Book) {
        self.push(j, i, (line, book.activity.has_terminated(j)));
    }

    /// Books a request i made that j received, behind i's others to j.
    fn push(&mut self, j: u32, i: u32, pending: Pending) {
        match self.first.get_mut(i as usize) {
            Some(slot @ None) if !self.more.contains_key(&(j, i)) => *slot = Some((j, pending)),
            _ => self.more.entry((j, i)).or_default().push_back(pending),
        }
        self.received += 1;
    }

    /// Takes the oldest request i made to j off the books; false if none.
    fn answer(&mut self, j: u32, i: u32) -> bool {
        let answered = match self.first.get_mut(i as usize) {
            Some(slot) if slot.as_ref().is_some_and(|&(to, _)| to == j) => {
                *slot = Self::pop(&mut self.more, j, i).map(|p| (j, p));
                true
            }
            _ => Self::pop(&mut self.more, j, i).is_some(),
        };
        self.replies += u64::from(answered);
        answered
    }

    /// The oldest of `more`'s requests i made to j, taken off.
    fn pop(more: &mut HashMap<(u32, u32), VecDeque<Pending>>, j: u32, i: u32) -> Option<Pending> {
        if more.is_empty() {
            return None;
        }
        let Entry::Occupied(mut q) = more.entry((j, i)) else { return None };
        let oldest = q.get_mut().pop_front();
        if q.get().is_empty() {
            q.remove();
        }
        oldest
    }

    fn on_reject(&mut self, line: usize, j: u32, i: u32) {
        if !self.answer(j, i) && self.violation.is_none() {
            let why =
                format!("line {line}: PE {j} sent a reject to PE {i}, which had no request outstanding at PE {j}");
            self.violation = Some((line, why));
        }
    }

    /// Every request not answered yet: (line, replier, requester, late).
    fn pending(&self) -> impl Iterator<Item = (usize, u32, u32, bool)> + '_ {
        let first = (self.first.iter().enumerate())
            .filter_map(|(i, slot)| slot.map(|(j, (line, late))| (line, j, i as u32, late)));
        let more = (self.more.iter()).flat_map(|(&(j, i), q)| q.iter().map(move |&(line, late)| (line, j, i, late)));
        first.chain(more)
    }

    /// Requests never answered although due: (line, replier, requester), by line.
    fn unanswered(&self) -> Vec<(usize, u32, u32)> {
        let mut out: Vec<_> = self.pending().filter(|p| !p.3).map(|(line, j, i, _)| (line, j, i)).collect();
        out.sort_unstable();
        out
    }
}

impl RequestsAnswered {
    /// Prefetches PE `pe`'s records ([`super::Checker::prefetch`]).
    pub(super) fn prefetch(&self, pe: u32) {
        self.unread.prefetch(pe);
    }
}

impl Property for RequestsAnswered {
    const NAME: &'static str = "requests_answered";

    #[inline(always)]
    fn observe(&mut self, line: usize, e: &Event, book: &Book) {
        self.unread.observe(e, book);
        match *e {
            Event::Recv { pe, from, kind: Kind::Request, .. } => self.on_request(line, pe, from, book),
            Event::Send { from, to, kind: Kind::Reject, .. } => self.on_reject(line, from, to),
            Event::Send { from, to, kind: Kind::Work, .. } => {
                self.answer(from, to);
            }
            _ => {}
        }
    }

    fn finish(mut self, _: &Metrics, book: &Book) -> Verdict {
        if let Some((line, why)) = self.violation.take() {
            return Verdict::fail(why, Some(line));
        }
        if let Some((line, why)) = self.unread.finish(book) {
            return Verdict::fail(why, Some(line));
        }
        let unanswered = self.unanswered();
        let late = self.pending().count() - unanswered.len();
        let Some(&(first, _, _)) = unanswered.first() else {
            return Verdict::pass(format!(
                "{} requests received, each answered exactly once ({} replies); {late} arrived after the receiver terminated",
                self.received, self.replies
            ));
        };
        let list: Vec<String> = unanswered.iter().map(|(l, j, i)| format!("{i}→{j} (received line {l})")).collect();
        let why = format!("unanswered requests (requester→receiver): {}", list_some(&list));
        Verdict::fail(why, Some(first))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::*;
    use super::*;

    const NAME: &str = RequestsAnswered::NAME;

    #[test]
    fn correct_streams_pass() {
        assert_passes(NAME, &run(1, single_pe()));
        let r = run(2, two_pes());
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.starts_with("2 requests received, each answered exactly once (2 replies)"));
    }

    #[test]
    fn a_request_never_answered_fails_at_its_receipt() {
        let mut events = two_pes();
        events.retain(|e| !matches!(e, Event::Send { id: 4, .. } | Event::Recv { id: 4, .. }));
        let i = position(&events, |e| matches!(e, Event::Recv { id: 3, .. }));
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i)));
        assert_eq!(v.detail, format!("unanswered requests (requester→receiver): 0→1 (received line {})", line_of(i)));
    }

    #[test]
    fn an_unrequested_reject_fails_on_its_line() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Send { id: 4, .. }));
        events.insert(i + 1, send(12, 1, 0, 7, Kind::Reject));
        events.insert(i + 2, recv(12, 0, 1, 7, Kind::Reject));
        let v = assert_fails(NAME, &run(2, events), Some(line_of(i + 1)));
        assert!(v.detail.contains("PE 1 sent a reject to PE 0, which had no request outstanding"), "{}", v.detail);
    }

    #[test]
    fn a_reject_before_the_request_arrived_is_unrequested() {
        let mut events = two_pes();
        let i = position(&events, |e| matches!(e, Event::Recv { id: 3, .. }));
        events.swap(i, i + 1); // the reject is sent before the request is received
        assert_fails(NAME, &run(2, events), Some(line_of(i)));
    }

    #[test]
    fn requests_reaching_a_terminated_pe_need_no_answer() {
        let mut events = two_pes();
        let end = events.pop().unwrap();
        events.push(send(19, 1, 0, 8, Kind::Request));
        events.push(recv(19, 0, 1, 8, Kind::Request));
        events.push(end);
        let r = run(2, events);
        assert_passes(NAME, &r);
        assert!(r.properties[NAME].detail.ends_with("1 arrived after the receiver terminated"));
    }

    /// A hand-written foreign trace: PE 1 asks PE 0 at t = 1; PE 0 works
    /// on in slices of 10 and reads the request at `read` (never: `None`).
    fn ignored_request(read: Option<u64>) -> Vec<Event> {
        let mut events = vec![
            Event::Busy { t: 0, pe: 0 },
            send(1, 1, 0, 1, Kind::Request),
            work(10, 0, 0, 0, 10),
            work(20, 0, 0, 10, 20),
            work(30, 0, 0, 20, 30),
        ];
        if let Some(t) = read {
            let at = events.iter().position(|e| e.time() > t).unwrap_or(events.len());
            events.insert(at, recv(t, 0, 1, 1, Kind::Request));
            events.extend([send(30, 0, 1, 3, Kind::Reject), recv(32, 1, 0, 3, Kind::Reject)]);
        }
        events.extend([
            Event::Idle { t: 32, pe: 0 },
            Event::Announce { t: 32, pe: 0 },
            Event::Terminated { t: 32, pe: 0 },
            send(32, 0, 1, 2, Kind::Terminate),
            recv(34, 1, 0, 2, Kind::Terminate),
            Event::Terminated { t: 34, pe: 1 },
            Event::End { t: 34 },
        ]);
        events
    }

    /// The hole an outside implementation found: a request never received
    /// while its target works on (L = 2, Δt = 1: tolerance 5) fails, and so
    /// does one read only after the target started a slice 9 units after it
    /// was sent; read on arrival it passes.
    #[test]
    fn a_request_never_received_while_its_target_works_fails() {
        let v = assert_fails(NAME, &run(2, ignored_request(None)), Some(line_of(1)));
        assert!(
            v.detail.contains("PE 1's request to PE 0 (sent at t = 1) was never received while PE 0 started a work slice 19 time units later (tolerance 2·L + Δt = 5, L = 2"),
            "{}",
            v.detail
        );
        let v = assert_fails(NAME, &run(2, ignored_request(Some(25))), Some(line_of(1)));
        assert!(
            v.detail.contains("was not received while PE 0 started a work slice 9 time units later"),
            "{}",
            v.detail
        );
        assert_passes(NAME, &run(2, ignored_request(Some(3))));
    }

    proptest::proptest! {
        /// The slot and the map answer as one FIFO queue per (replier,
        /// requester) pair would: a requester with requests out to several
        /// repliers at once, replies in any order, some to no request.
        #[test]
        fn agrees_with_a_queue_per_pair(ops in proptest::collection::vec((0..3u32, 0..3u32, proptest::bool::ANY), 1..120)) {
            use std::collections::HashMap;
            let mut r = RequestsAnswered::new(&header(3));
            let mut model: HashMap<(u32, u32), VecDeque<Pending>> = HashMap::new();
            for (line, (j, i, request)) in ops.into_iter().enumerate() {
                if request {
                    r.push(j, i, (line, line % 5 == 0));
                    model.entry((j, i)).or_default().push_back((line, line % 5 == 0));
                } else {
                    let want = model.get_mut(&(j, i)).and_then(|q| q.pop_front()).is_some();
                    proptest::prop_assert_eq!(r.answer(j, i), want, "line {}: {}→{}", line, i, j);
                }
                let mut have: Vec<_> = r.pending().collect();
                let mut want: Vec<_> =
                    model.iter().flat_map(|(&(j, i), q)| q.iter().map(move |&(l, late)| (l, j, i, late))).collect();
                have.sort_unstable();
                want.sort_unstable();
                proptest::prop_assert_eq!(have, want);
            }
        }
    }

    #[test]
    fn work_without_a_request_is_not_a_reply() {
        let mut events = two_pes();
        events.insert(1, send(0, 0, 1, 9, Kind::Work));
        events.insert(2, recv(0, 1, 0, 9, Kind::Work));
        let r = run(2, events);
        assert_passes(NAME, &r);
    }
}
