//! Unbalanced Tree Search (UTS) trees, exactly as ../shared/uts.md specifies
//! (Olivier et al., LCPC 2006), balanced as DFS stacks (002 §4.1).

pub mod node;
pub mod params;
pub mod samples;

pub use node::UtsNode;
pub use params::{GeoShape, TreeKind, UtsParams};

use super::dfs::{DfsStack, Strategy, TreeRule};

/// Expands UTS nodes under fixed tree parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UtsRule {
    /// The tree's parameters.
    pub params: UtsParams,
}

impl TreeRule for UtsRule {
    type Node = UtsNode;

    #[inline]
    fn expand(&self, node: &UtsNode, out: &mut Vec<UtsNode>) -> u32 {
        let n = node.num_children(&self.params);
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
    DfsStack::new(
        UtsRule { params },
        UtsNode::root(params.root_seed),
        strategy,
    )
}
