//! Arbitrary bytes as a trace: reading, checking and recovering the replay
//! command from the header must never panic; a trace is either rejected
//! with a message or checked (`lbcheck::fuzz::trace`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lbcheck::fuzz::trace(data));
