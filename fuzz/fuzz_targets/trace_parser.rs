//! Arbitrary bytes as a trace: reading and checking must never panic; a
//! trace is either rejected with a message or checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lbcheck::check::{check_events, Reference};
use lbcheck::event::read_trace;
use lbcheck::problem::Fingerprint;

fuzz_target!(|data: &[u8]| {
    let Ok(events) = read_trace(data) else { return };
    let _ = check_events(&events, |h| {
        if h.pes == 0 || h.pes > 1 << 16 {
            return Err("PE count out of range".into());
        }
        Ok(Reference { fp: Fingerprint::EMPTY, t_seq: 0 })
    });
});
