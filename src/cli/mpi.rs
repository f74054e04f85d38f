//! `lbcheck mpi`: the protocols over MPI, one PE per rank (run it under
//! `mpirun -np P`; built with `--features mpi`). Rank 0 gathers every
//! rank's events into one trace and checks it against every property
//! (exit 1 if one fails); a rank that dies or never answers ends the run
//! within `--timeout` with a non-zero exit (docs/guide.md "MPI").

use std::process::ExitCode;

use clap::Args;
use lbcheck::problem::spec;

use super::args::{default, RunArgs};

#[derive(Args, Debug)]
#[command(after_help = format!("Run under mpirun: mpirun -np 4 target/release/lbcheck mpi --workload uts:T1 --termination four-counter --trace t.jsonl\n(as root: mpirun --allow-run-as-root --oversubscribe ...). The number of PEs is the number of ranks.\n\nWORKLOAD forms:\n{}", spec::FORMS))]
#[command(mut_arg("dt", default("64")))]
#[command(mut_arg("split", default("all-half")))]
#[command(group(clap::ArgGroup::new("machine_flags").multiple(true).conflicts_with("spec").args(["timeout"])))]
pub struct MpiArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Give up when the run has not ended this many seconds after the
    /// start: every live rank says what it last saw, and the job is
    /// aborted (exit non-zero), 1..=86400.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    /// Figures only: record no events, check nothing (throughput).
    #[arg(long, conflicts_with = "trace")]
    unchecked: bool,
}

#[cfg(not(feature = "mpi"))]
pub fn run(a: MpiArgs) -> anyhow::Result<ExitCode> {
    let _ = (a.run, a.timeout, a.unchecked);
    anyhow::bail!(lbcheck::runtime::mpi::NOT_BUILT)
}

#[cfg(feature = "mpi")]
pub fn run(a: MpiArgs) -> anyhow::Result<ExitCode> {
    use std::time::Duration;

    use lbcheck::harness::Driver;
    use lbcheck::mutants::Catcher;
    use lbcheck::protocol::DetectorKind;
    use lbcheck::report::{self, verdicts};
    use lbcheck::runtime::mpi::{world, MpiConfig};

    let Some(universe) = world::init() else { anyhow::bail!("MPI was initialised already") };
    let (rank, pes) = world::rank_and_size();
    let (seed, dt, initial_split) = (a.run.seed, a.run.dt, a.run.initial_split.unwrap_or_default());
    let cfg = MpiConfig { pes, seed, dt, initial_split, timeout: Duration::from_secs(a.timeout) };
    let spec = match a.run.spec(Driver::Mpi(cfg), DetectorKind::FourCounter) {
        Ok(spec) if spec.driver.pes() != pes => {
            anyhow::bail!(
                "the spec is a run on {} ranks; this job has {pes} (mpirun -np {})",
                spec.driver.pes(),
                spec.driver.pes()
            )
        }
        Ok(spec) => spec,
        Err(_) if rank != 0 => return Ok(ExitCode::from(2)), // rank 0 says why
        Err(e) => return Err(e),
    };
    if a.run.print_spec {
        return if rank == 0 { super::output::print_spec(&spec) } else { Ok(ExitCode::SUCCESS) };
    }
    let code = if a.unchecked {
        let run = spec.run_mpi_rank(false)?;
        if rank == 0 {
            if let Some(m) = spec.mutant() {
                eprintln!("note: with --unchecked nothing checks this run of mutant `{m}`");
            }
            let facts = report::run::Facts {
                check: None,
                outcome: None,
                finished: true, // an MPI run that returns ended by termination
                wall: run.elapsed,
                reference_wall: None,
                units: Some(&run.units),
                atomic: None,
                reference: None,
            };
            report::print(&report::run::json(&spec, &facts), a.run.json, report::run::human)?;
        }
        ExitCode::SUCCESS
    } else if rank != 0 {
        spec.run_mpi_rank(true)?;
        ExitCode::SUCCESS
    } else {
        a.run.note_uncaught(&spec, Catcher::Run);
        let result = super::output::checked_run(&spec, a.run.trace.as_deref())?;
        report::print(&report::run::json(&spec, &(&result).into()), a.run.json, report::run::human)?;
        verdicts::exit_code(&result.check, Some(&spec.replay()))
    };
    drop(universe); // MPI_Finalize
    Ok(code)
}
