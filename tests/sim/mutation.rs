//! Kills for cargo-mutants' survivors in src/protocol/ (`bash
//! scripts/mutants.sh`, docs/mutants.md "cargo-mutants"): each test names
//! the mutant it was shown to fail on. Exact, on the protocols' public
//! helpers, milliseconds each; they are in the quick test profile
//! (.cargo/mutants.toml) by the filter `mutation::`.

use lbcheck::protocol::simd_phase::SimdRules;
use lbcheck::protocol::{tree_children, tree_children_from, tree_parent};

/// The announcement tree rooted at a PE other than 0 (a user detector's
/// [`announcer`](lbcheck::protocol::Detector::announcer), e.g. P − 1):
/// every other PE is a child of exactly one PE, and the root's children
/// are root + 1, root + 2 (mod P). Kills `tree_children_from`'s
/// `pes - root` → `pes + root` (no shipped detector announces from a PE
/// other than 0).
#[test]
fn the_announcement_tree_from_any_root_spans_every_pe() {
    for pes in 1..=9u32 {
        for root in 0..pes {
            let mut seen = vec![0u32; pes as usize];
            for pe in 0..pes {
                tree_children_from(root, pe, pes).for_each(|c| seen[c as usize] += 1);
            }
            let expect: Vec<u32> = (0..pes).map(|p| u32::from(p != root)).collect();
            assert_eq!(seen, expect, "P = {pes}, root {root}");
        }
    }
    let first: Vec<u32> = tree_children_from(3, 3, 4).collect();
    assert_eq!(first, [0, 1]);
}

/// The reduction tree: a PE's children have it as their parent.
#[test]
fn tree_children_and_parent_agree() {
    for pes in 1..=9u32 {
        for pe in 0..pes {
            for c in tree_children(pe, pes) {
                assert_eq!(tree_parent(c), Some(pe), "P = {pes}");
            }
        }
    }
    assert_eq!(tree_parent(0), None);
}

/// SIMD phases' static trigger: at least half the PEs idle, at least one.
/// Kills `SimdRules::triggered`'s `idle > 0` → `idle < 0` (never
/// triggered).
#[test]
fn the_simd_trigger_is_half_idle() {
    assert!(SimdRules::triggered(1, 2));
    assert!(SimdRules::triggered(2, 4));
    assert!(!SimdRules::triggered(1, 4));
    assert!(!SimdRules::triggered(0, 0));
}
