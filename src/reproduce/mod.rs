//! Reproductions of the papers' experiments (`lbcheck reproduce`): the
//! experiment re-run under lbcheck's references and checker, its figures
//! next to the paper's, stated as they come out.

pub mod knapsack;
pub mod papers;
pub mod verdict;
