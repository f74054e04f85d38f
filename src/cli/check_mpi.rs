//! `lbcheck check --mpi`: the campaign split over the ranks of `mpirun`
//! (issue 17 part 3; [`lbcheck::campaign::shard`]). Every rank lists the
//! same units and runs its own; the ranks' parts are gathered at rank 0,
//! which puts every case back in its place and writes the report as
//! `lbcheck check` does; every rank exits with rank 0's code. Progress:
//! rank 0's share only.

use std::process::ExitCode;

use super::check::CheckArgs;

/// What `check --mpi` says when lbcheck was built without MPI.
#[cfg(not(feature = "mpi"))]
const NOT_BUILT: &str = "`lbcheck check --mpi` needs an lbcheck built with MPI: \
    `cargo build --release --features mpi` (it needs an MPI library: apt-get install libopenmpi-dev openmpi-bin \
    libclang-dev), then `mpirun -np N target/release/lbcheck check --mpi`; without --mpi, `lbcheck check` runs \
    the same campaign in one process";

#[cfg(not(feature = "mpi"))]
pub fn run(_: &CheckArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(NOT_BUILT)
}

#[cfg(feature = "mpi")]
pub fn run(a: &CheckArgs) -> anyhow::Result<ExitCode> {
    use std::time::Instant;

    use lbcheck::campaign::{self, Progress, Silent};
    use lbcheck::runtime::mpi::{collect, world};

    use super::progress::Display;

    let Some(universe) = world::init() else { anyhow::bail!("MPI was initialised already") };
    let (rank, ranks) = world::rank_and_size();
    let start = Instant::now();
    let o = a.options();
    let shard = campaign::share(&o, rank, ranks);
    let display = (rank == 0).then(Display::new);
    if ranks > 1 && rank == 0 {
        eprintln!("check --mpi: {ranks} ranks; the progress shown is rank 0's share");
    }
    let progress: &dyn Progress = display.as_ref().map_or(&Silent, |d| d);
    let report = campaign::run_share(&o, &shard, progress);
    display.as_ref().inspect(|d| d.finish());
    collect::barrier();
    let part = serde_json::to_vec(&shard.part()).expect("a part serialises");
    let code = match collect::gather(&part) {
        None => 0,
        Some(parts) => {
            let report = parts
                .iter()
                .map(|p| serde_json::from_slice(p).map_err(|e| format!("a rank's part does not read back: {e}")))
                .collect::<Result<Vec<_>, String>>()
                .and_then(|parts| campaign::shard::assemble(report, parts));
            let finished = report.map_err(anyhow::Error::msg).and_then(|mut r| {
                r.seconds = start.elapsed().as_secs_f64();
                super::check::finish(&r, a)
            });
            finished.unwrap_or_else(|e| {
                eprintln!("error: {e:#}");
                2
            })
        }
    };
    let code = collect::broadcast(code);
    drop(universe); // MPI_Finalize
    Ok(ExitCode::from(code))
}
