//! The collectives of a campaign split over ranks (`lbcheck check --mpi`,
//! [`crate::campaign::shard`]; feature `mpi`): a barrier that naps instead
//! of spinning (a rank that finished its share early must not take a core
//! from one still working: Open MPI's blocking calls poll), the ranks'
//! parts gathered at rank 0, and rank 0's exit code sent to every rank.

use std::time::Duration;

use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// A waiting rank's nap between tests of the barrier.
const NAP: Duration = Duration::from_millis(20);

/// Returns once every rank has called it, napping meanwhile (`MPI_Ibarrier`).
pub fn barrier() {
    let world = SimpleCommunicator::world();
    let mut req = world.immediate_barrier();
    loop {
        match req.test() {
            Ok(_) => return,
            Err(r) => req = r,
        }
        std::thread::sleep(NAP);
    }
}

/// Every rank's `bytes`, in rank order, at rank 0 (`None` on the others).
/// Collective; call [`barrier`] first so that no rank waits in it long.
pub fn gather(bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
    let world = SimpleCommunicator::world();
    let root = world.process_at_rank(0);
    let len = Count::try_from(bytes.len()).expect("a part under 2 GiB");
    if world.rank() != 0 {
        root.gather_into(&len);
        root.gather_varcount_into(bytes);
        return None;
    }
    let mut counts = vec![0 as Count; world.size() as usize];
    root.gather_into_root(&len, &mut counts[..]);
    let displs: Vec<Count> = counts.iter().scan(0, |at, &n| Some(std::mem::replace(at, *at + n))).collect();
    let mut all = vec![0u8; counts.iter().map(|&n| n as usize).sum()];
    root.gather_varcount_into_root(bytes, &mut PartitionMut::new(&mut all[..], &counts[..], &displs[..]));
    let parts = counts.iter().zip(&displs).map(|(&n, &at)| all[at as usize..(at + n) as usize].to_vec());
    Some(parts.collect())
}

/// Rank 0's `code` on every rank. Collective.
pub fn broadcast(code: u8) -> u8 {
    let world = SimpleCommunicator::world();
    let mut code = code;
    world.process_at_rank(0).broadcast_into(&mut code);
    code
}
