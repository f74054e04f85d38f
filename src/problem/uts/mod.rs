//! Unbalanced Tree Search (UTS) trees, exactly as ../shared/uts.md specifies
//! (Olivier et al., LCPC 2006), balanced as DFS stacks (002 §4.1).

pub mod node;
pub mod params;
pub mod samples;
mod shani;

pub use node::UtsNode;
pub use params::{GeoShape, TreeKind, UtsParams};

use super::dfs::{DfsStack, Strategy, TreeRule};

/// Expands UTS nodes under fixed tree parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UtsRule {
    /// The tree's parameters.
    pub params: UtsParams,
    /// Whether the CPU's SHA extensions are used (checked once, at creation).
    shani: bool,
}

impl UtsRule {
    /// The rule for `params`, using the CPU's SHA extensions when present.
    pub fn new(params: UtsParams) -> UtsRule {
        UtsRule { params, shani: shani::available() }
    }
}

impl TreeRule for UtsRule {
    type Node = UtsNode;

    #[inline]
    fn expand(&self, node: &UtsNode, out: &mut Vec<UtsNode>) -> u32 {
        let n = node.num_children(&self.params);
        #[cfg(target_arch = "x86_64")]
        if self.shani {
            // SAFETY: `shani` is true only where `shani::available()` said so.
            unsafe { shani::expand(node, n, out) };
            return n;
        }
        out.extend((0..n).map(|i| node.child(i)));
        n
    }

    #[inline]
    fn id(&self, node: &UtsNode) -> u64 {
        node.id()
    }

    #[inline]
    fn height(&self, node: &UtsNode) -> u32 {
        node.height
    }
}

/// A UTS subproblem: a DFS stack of UTS nodes.
pub type UtsStack = DfsStack<UtsRule>;

/// The root subproblem of the tree `params`, split with `strategy`.
pub fn root(params: UtsParams, strategy: Strategy) -> UtsStack {
    DfsStack::new(UtsRule::new(params), UtsNode::root(params.root_seed), strategy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::sequential;

    /// The portable path (the `sha1` crate) builds the same published tree.
    #[test]
    fn portable_path_builds_the_default_tree() {
        let params = UtsParams::default();
        let rule = UtsRule { params, shani: false };
        let run = sequential::run(DfsStack::new(rule, UtsNode::root(0), Strategy::default()));
        assert_eq!((run.log.fp.units, run.log.max_depth, run.log.leaves), (1732, 6, 1050));
        assert_eq!(run, sequential::run(root(params, Strategy::default())));
    }
}
