//! Subcommands of the `lbcheck` binary.

mod args;
mod batch;
mod bitonic;
mod bounds;
mod check;
mod check_impl;
mod check_mpi;
mod check_trace;
mod compare;
mod explore;
mod list;
mod mpi;
mod mutants;
mod output;
mod paper;
mod progress;
mod reproduce;
mod run;
mod scatter;
mod simulate;
mod timeline;
mod tree;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// lbcheck: reference load balancers and the checkers that gate them.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The main job: every layer of checking over every registered reference, with a report (HTML, JSON, JUnit).
    Check(check::CheckArgs),
    /// Run a workload sequentially and print its exact statistics.
    Tree(tree::TreeArgs),
    /// Simulate a balancer and a termination detector on 001's machine and check every property.
    Simulate(simulate::SimulateArgs),
    /// Run a balancer and a termination detector on real threads (optionally checking the event stream).
    Run(run::ThreadsArgs),
    /// Run a balancer and a termination detector over MPI, one PE per rank (under mpirun; feature `mpi`), checking the merged trace.
    Mpi(mpi::MpiArgs),
    /// Check a saved event stream (JSON Lines) against every property.
    CheckTrace(check_trace::CheckTraceArgs),
    /// List the deliberately broken variants and the checker that catches each.
    Mutants(mutants::MutantsArgs),
    /// Compare a batch of traces with the reference on the same configuration (two-sample tests at a stated α).
    Compare(compare::CompareArgs),
    /// List the registry: balancers, detectors, machines, drivers, workloads, mutants (shipping and planned).
    List(list::ListArgs),
    /// Statistical tests of a balancer against the papers' bounds (T_par, generation depth, queues, traffic).
    Bounds(bounds::BoundsArgs),
    /// Bitonic sort on a simulated hypercube (003 §14.3-14.4) with its properties; --exhaustive adds the 0-1 principle.
    Bitonic(bitonic::BitonicArgs),
    /// Explore every run of a tiny instance (every latency, every order of simultaneous events) and check each; exit 1 with the shortest counterexample.
    Explore(explore::ExploreArgs),
    /// A paper's claims as a page of plots and verdicts (000 … 004, all), or its experiment re-run (knapsack).
    Reproduce(reproduce::ReproduceArgs),
    /// Message scattering on 004's atomic machine: completion time T, exact facts, off-line schedule, worst-case arbiter
    Scatter(scatter::ScatterArgs),
    /// Draw a trace as a timeline: an SVG Gantt chart (one lane per PE) and/or Chrome trace-event JSON for Perfetto.
    Timeline(timeline::TimelineArgs),
}

/// Parses the command line, telling the subcommands that refuse flags
/// their run does not use which flags were given ([`args::Given`]).
pub fn parse() -> Cli {
    try_parse_from(std::env::args_os()).unwrap_or_else(|e| e.exit())
}

/// The command line `argv` (the program's name first), or clap's error.
pub fn try_parse_from<I: IntoIterator<Item = T>, T: Into<std::ffi::OsString> + Clone>(
    argv: I,
) -> Result<Cli, clap::Error> {
    let matches = Cli::command().try_get_matches_from(argv)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if let (Command::Simulate(a), Some((_, m))) = (&mut cli.command, matches.subcommand()) {
        a.given = args::Given::of(m);
    }
    Ok(cli)
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(a) if a.mpi => check_mpi::run(&a),
        Command::Check(a) if a.implementation.command.is_some() => check_impl::run(a),
        Command::Check(a) => check::run(a),
        Command::Tree(a) => tree::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Run(a) => run::run(a),
        Command::Mpi(a) => mpi::run(a),
        Command::CheckTrace(a) => check_trace::run(a),
        Command::Mutants(a) => mutants::run(a),
        Command::List(a) => list::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Bounds(a) => bounds::run(a),
        Command::Scatter(a) => scatter::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Bitonic(a) => bitonic::run(a),
        Command::Reproduce(a) => reproduce::run(a),
        Command::Timeline(a) => timeline::run(a),
    }
}
