//! Arbitrary bytes → a small simulated run of a reference (PEs, workload,
//! latencies, event order, split choices, detector: the one generator,
//! `lbcheck::fuzz::scenario`); every property must hold.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| lbcheck::fuzz::references(data));
