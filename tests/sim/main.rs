//! Tests of the simulator, the reference protocols and the checker: every
//! property on random scenarios, determinism, the mutants, traces.

mod adaptive;
mod atomic;
mod bitonic;
mod bnb;
mod bounds_reference;
mod campaign;
mod combinations;
mod compare;
mod deactivate;
mod explore;
mod guide;
mod initial_random;
mod local_sync;
mod mutants;
mod mutation;
mod pacheco;
mod phased;
mod properties;
mod registry;
mod reproduce;
mod routing;
mod run_cli;
mod safra;
mod scatter;
mod spec;
mod threads;
mod timeline;
mod topology;
mod trace;
mod two_slots;
mod validation;

#[path = "../common/mod.rs"]
mod common;
pub use common::*;
