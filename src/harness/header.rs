//! The trace header of a run: the fields of the trace format's contract
//! (what any implementation writes), derived from the [`RunSpec`], and the
//! spec itself under `spec`, from which [`RunSpec::from_header`] recovers
//! the run. Nothing is converted field by field: `spec` is the run
//! specification's JSON.

use super::driver::Driver;
use super::spec::RunSpec;
use crate::event::{Clock, TraceHeader, TRACE_VERSION};

/// Why a header's run specification cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The header has a `run` record and no `spec`: another
    /// implementation's trace, or one lbcheck wrote before the run
    /// specification (the trace format's version given).
    #[error("the header has a `run` record but no `spec` (another implementation's trace, or one written by an lbcheck older than the run specification; trace version {0}): it checks, but names no command that replays it")]
    Older(u32),
    /// `spec` is not a run specification.
    #[error("header `spec`: {0}")]
    Spec(String),
    /// The run's balancer is a user's, run in-process in place of the spec's.
    #[error("the run's balancer `{0}` is a user's, run in-process: no lbcheck command replays it")]
    UserBalancer(String),
    /// The run's detector is a user's, run in-process in place of the spec's.
    #[error("the run's detector `{0}` is a user's, run in-process: no lbcheck command replays it")]
    UserDetector(String),
    /// `spec` describes another run than the header's own fields.
    #[error("header `spec` describes {spec}, but the header says {header}")]
    Disagrees {
        /// What the spec describes (P, workload, split, balancer, detector).
        spec: String,
        /// What the header's fields say.
        header: String,
    },
}

impl RunSpec {
    /// The trace header of this run: what ran, and how to replay it.
    pub fn header(&self) -> TraceHeader {
        let (t_split, clock) = match &self.driver {
            Driver::Sim(c) => (c.t_split, Clock::Work),
            Driver::Atomic(_) => (0, Clock::Step),
            Driver::Threads(c) if c.loom => (0, crate::loom::CLOCK),
            Driver::Threads(_) => (0, crate::runtime::CLOCK),
            Driver::Mpi(_) => (0, Clock::Seq), // sequence numbers of the Lamport order
        };
        TraceHeader {
            version: TRACE_VERSION,
            pes: self.driver.pes(),
            workload: self.workload.to_string(),
            split: self.split.to_string(),
            balancer: self.balancer.to_string(),
            detector: self.detector.to_string(),
            t_split,
            clock,
            spec: Some(Box::new(serde_json::to_value(self).expect("a run specification is JSON"))),
            ..TraceHeader::default()
        }
    }

    /// The run a header written by lbcheck describes (`None` for a trace
    /// of another implementation, which has no `spec`).
    pub fn from_header(h: &TraceHeader) -> Result<Option<RunSpec>, HeaderError> {
        let Some(json) = &h.spec else {
            return match h.run {
                Some(_) => Err(HeaderError::Older(h.version)),
                None => Ok(None),
            };
        };
        let spec: RunSpec = serde_json::from_value((**json).clone()).map_err(|e| HeaderError::Spec(e.to_string()))?;
        let derived = spec.header();
        let user = TraceHeader { balancer: h.balancer.clone(), detector: h.detector.clone(), ..derived.clone() };
        if identity(&user) == identity(h) {
            if derived.balancer != h.balancer {
                return Err(HeaderError::UserBalancer(h.balancer.clone()));
            }
            if derived.detector != h.detector {
                return Err(HeaderError::UserDetector(h.detector.clone()));
            }
        }
        let (said, derived) = (identity(h), identity(&derived));
        if said != derived {
            return Err(HeaderError::Disagrees { spec: derived, header: said });
        }
        Ok(Some(spec))
    }
}

/// What a header says ran: P, workload, split, balancer, detector.
fn identity(h: &TraceHeader) -> String {
    format!("{} PEs, {} split {}, {} + {}", h.pes, h.workload, h.split, h.balancer, h.detector)
}
