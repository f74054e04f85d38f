//! Subcommands of the `lbcheck` binary.

mod tree;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// lbcheck: reference load balancers and the checkers that gate them.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a workload sequentially and print its exact statistics.
    Tree(tree::TreeArgs),
}

/// Runs the chosen subcommand. `Err` means bad input (exit 2).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Tree(a) => tree::run(a),
    }
}
