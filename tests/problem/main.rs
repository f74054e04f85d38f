//! Tests of the problem layer: the model's laws for every workload and split
//! strategy, exact UTS golden values, and CLI snapshots.

mod cli;
mod golden;
mod laws;
mod stack_height;
