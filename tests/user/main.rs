//! A user's own protocols under lbcheck (the `harness::User*` entry
//! points, `lbcheck::testing`, the user's `bounds` and loom layers),
//! hostile implementations, and the fuzz targets' bodies. A binary apart
//! from `tests/sim`: these instantiate lbcheck's campaign for the test
//! crate's own protocol types, which compiles in parallel with `tests/sim`
//! instead of after it, and keeps cargo-mutants' quick profile (`--test
//! sim`) from rebuilding them for every mutant.

mod fuzz;
mod fuzz_bodies;
mod hostile;
mod testing;
mod user;
mod user_bounds;
mod user_loom;

// The examples' user protocols, once: each inclusion would be a type of
// its own, and lbcheck's generic campaign compiled again for it.
#[path = "../../examples/shared/dijkstra_scholten.rs"]
mod dijkstra_scholten;
#[path = "../../examples/shared/round_robin.rs"]
mod round_robin;

#[path = "../common/mod.rs"]
mod common;
pub use common::*;
