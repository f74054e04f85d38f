//! The one command line that reproduces a run (../shared/STYLE.md item 8).

use std::fmt::Write;

use super::driver::Driver;
use super::spec::RunSpec;
use crate::protocol::initial::InitialSplit;
use crate::sim::atomic::AtomicConfig;
use crate::sim::{Schedule, Shape, SimConfig, Topology};

impl RunSpec {
    /// The command line that reproduces this run: event for event in the
    /// simulator; with the same seeds (thread interleavings differ) on threads.
    pub fn replay(&self) -> String {
        let p = &self.protocols;
        let mut cmd = match &self.driver {
            Driver::Sim(_) | Driver::Atomic(_) => "lbcheck simulate".to_string(),
            Driver::Threads(_) => "lbcheck run".to_string(),
            Driver::Mpi(c) => format!("mpirun --oversubscribe -np {} lbcheck mpi", c.pes),
        };
        let (w, s) = (&self.workload, self.split);
        let _ = write!(cmd, " --balancer {} --termination {} --workload '{w}' --split {s}", p.balancer, p.detector);
        match &self.driver {
            Driver::Sim(c) => sim_flags(&mut cmd, c),
            Driver::Atomic(c) => atomic_flags(&mut cmd, c),
            Driver::Threads(c) => {
                let _ = write!(cmd, " --threads {} --seed {} --dt {}", c.pes, c.seed, c.dt);
            }
            Driver::Mpi(c) => {
                let _ = write!(cmd, " --seed {} --dt {}", c.seed, c.dt);
            }
        }
        match self.driver.initial() {
            InitialSplit::Root => {}
            InitialSplit::Bfs => cmd += " --initial-split",
            random => {
                let _ = write!(cmd, " --initial-split {random}");
            }
        }
        flag(&mut cmd, "--queue-limit", p.queue_limit);
        if p.serve_all {
            cmd += " --serve all";
        }
        flag(&mut cmd, "--slots", Some(p.slots).filter(|&s| s != 1));
        flag(&mut cmd, "--bound", Some(p.bound).filter(|_| self.workload.prunes()));
        flag(&mut cmd, "--deactivate", p.deactivate);
        flag(
            &mut cmd,
            "--permutation",
            Some(p.permutation).filter(|m| p.balancer.phased() && *m != Default::default()),
        );
        flag(&mut cmd, "--sync", Some(p.sync).filter(|m| p.balancer.phased() && *m != Default::default()));
        flag(&mut cmd, "--trigger", Some(p.trigger).filter(|t| p.balancer.phased() && *t != Default::default()));
        if p.victim != Default::default() {
            let _ = write!(cmd, " --victim {}", p.victim);
        }
        flag(&mut cmd, "--mutant", p.mutant);
        if let Driver::Sim(c) = &self.driver {
            let default_steps = SimConfig::default().max_steps;
            flag(&mut cmd, "--max-steps", Some(c.max_steps).filter(|&s| s != default_steps));
            flag(&mut cmd, "--detect-horizon", Some(c.horizon).filter(|&h| h != 0));
        }
        if let Driver::Threads(c) = &self.driver {
            flag(&mut cmd, "--timeout", c.deadline.map(|d| d.as_secs().max(1)));
            cmd += " --check";
        }
        if let Driver::Mpi(c) = &self.driver {
            flag(
                &mut cmd,
                "--timeout",
                Some(c.timeout.as_secs()).filter(|&s| s != crate::runtime::mpi::DEFAULT_TIMEOUT.as_secs()),
            );
        }
        cmd
    }
}

fn atomic_flags(cmd: &mut String, c: &AtomicConfig) {
    let d = AtomicConfig::default();
    let machine = if c.complete { "complete" } else { "atomic" };
    let _ = write!(cmd, " --machine {machine} --pes {} --seed {}", c.pes, c.seed);
    flag(cmd, "--arbiter", Some(c.arbiter).filter(|_| !c.complete));
    flag(cmd, "--max-steps", Some(c.max_steps).filter(|&s| s != d.max_steps));
    flag(cmd, "--max-runs", Some(c.max_runs).filter(|&s| s != d.max_runs));
}

fn sim_flags(cmd: &mut String, c: &SimConfig) {
    let _ =
        write!(cmd, " --pes {} --seed {} --dt {} --t-rout {} --t-split {}", c.pes, c.seed, c.dt, c.t_rout, c.t_split);
    flag(cmd, "--o", Some(c.o).filter(|&x| x > 0));
    flag(cmd, "--g", Some(c.g).filter(|&x| x > 0));
    flag(cmd, "--t-poll", Some(c.t_poll).filter(|&x| x > 0));
    flag(cmd, "--latency", c.latency.map(|(a, b)| format!("{a}..{b}")));
    flag(cmd, "--latency-shape", Some(c.shape).filter(|&s| s != Shape::Uniform));
    flag(cmd, "--schedule", Some(c.schedule).filter(|&s| s != Schedule::Plain));
    if c.fifo_links {
        cmd.push_str(" --fifo-links");
    }
    flag(cmd, "--topology", Some(c.topology).filter(|&t| t != Topology::Crossbar));
    flag(cmd, "--slow", c.slow.map(|(n, f)| format!("{n}:{f}")));
}

/// Appends ` NAME VALUE` if there is a value.
fn flag(cmd: &mut String, name: &str, value: Option<impl std::fmt::Display>) {
    if let Some(v) = value {
        let _ = write!(cmd, " {name} {v}");
    }
}

/// The words of a command line, split as a POSIX shell would (whitespace,
/// single quotes): the inverse of [`RunSpec::replay`]'s quoting, for running
/// a printed replay command or flags given as one string.
pub fn words(cmd: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in cmd.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn splits_words_and_single_quotes() {
        let w = super::words("--workload 'uts:args=-t 0 -b 4' --pes  16 ''");
        assert_eq!(w, ["--workload", "uts:args=-t 0 -b 4", "--pes", "16", ""]);
    }
}
