//! Arbitrary bytes as a trace: reading, checking and recovering the replay
//! command from the header must never panic; a trace is either rejected
//! with a message or checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lbcheck::check::{check_events, Reference};
use lbcheck::event::{read_trace, Event};
use lbcheck::harness::RunSpec;
use lbcheck::problem::Fingerprint;

fuzz_target!(|data: &[u8]| {
    let Ok(events) = read_trace(data) else { return };
    if let Some((_, Event::Header(h))) = events.first() {
        if let Ok(Some(spec)) = RunSpec::from_header(h) {
            let _ = (spec.validate(), spec.replay()); // the replay path of check-trace
        }
    }
    let _ = check_events(&events, |h| {
        if h.pes == 0 || h.pes > 1 << 16 {
            return Err("PE count out of range");
        }
        Ok(Reference { fp: Fingerprint::EMPTY, t_seq: 0, critical: None, pruning: None, pruned_critical: None })
    });
});
