//! The published UTS sample trees (UTS's sample_trees.sh, ../shared/uts.md).

/// A named sample tree and its published statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Name used in `uts:NAME`.
    pub name: &'static str,
    /// UTS arguments.
    pub args: &'static str,
    /// Published node count (root included).
    pub nodes: u64,
    /// Published depth (root 0).
    pub depth: u32,
    /// Published leaf count.
    pub leaves: u64,
}

/// Every named sample (UTS's GEO/HYBRID samples and its BIN samples T3, T3L).
pub const SAMPLES: &[Sample] = &[
    Sample { name: "default", args: "", nodes: 1732, depth: 6, leaves: 1050 },
    Sample { name: "T1", args: "-t 1 -a 3 -d 10 -b 4 -r 19", nodes: 4130071, depth: 10, leaves: 3305118 },
    Sample { name: "T5", args: "-t 1 -a 0 -d 20 -b 4 -r 34", nodes: 4147582, depth: 20, leaves: 2181318 },
    Sample { name: "T2", args: "-t 1 -a 2 -d 16 -b 6 -r 502", nodes: 4117769, depth: 81, leaves: 2342762 },
    Sample {
        name: "T4",
        args: "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4 -r 1",
        nodes: 4132453,
        depth: 134,
        leaves: 3108986,
    },
    Sample { name: "T3", args: "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", nodes: 4112897, depth: 1572, leaves: 3599034 },
    Sample { name: "T1L", args: "-t 1 -a 3 -d 13 -b 4 -r 29", nodes: 102181082, depth: 13, leaves: 81746377 },
    Sample { name: "T1XL", args: "-t 1 -a 3 -d 15 -b 4 -r 29", nodes: 1635119272, depth: 15, leaves: 1308100063 },
    Sample {
        name: "T3L",
        args: "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
        nodes: 111345631,
        depth: 17844,
        leaves: 89076904,
    },
];

/// The sample called `name` (case-sensitive, as UTS names them).
pub fn by_name(name: &str) -> Option<&'static Sample> {
    SAMPLES.iter().find(|s| s.name == name)
}
