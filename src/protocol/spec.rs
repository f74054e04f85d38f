//! A balancer with its parameters ([`BalancerSpec`]), the run
//! specification's `balancer` (../shared/ARCHITECTURE.md "The run
//! specification"): each protocol that has parameters owns a typed struct
//! in its own file ([`RandomPollingParams`], [`PachecoParams`],
//! [`PasParams`]) that is at once its command-line flags (clap) and its
//! keys in the specification's JSON (serde), so a combination that makes
//! no sense cannot be built: a flag of another protocol is refused by name.

use serde::{Deserialize, Serialize};

use super::kinds::BalancerKind;
use super::pacheco::PachecoParams;
pub use super::params::{NoParams, Params, ParamsError};
use super::poll_and_shuffle::PasParams;
use super::random_polling::RandomPollingParams;

/// A balancer of the registry with its parameters; serialised as
/// `{"name": "<registry name>", <its parameters>}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
#[allow(missing_docs)] // each variant is its registry kind's, documented there
pub enum BalancerSpec {
    RandomPolling(RandomPollingParams),
    RandomDestination(NoParams),
    PriorityBnb(NoParams),
    Pacheco(PachecoParams),
    SyncRandomPolling(NoParams),
    PollAndShuffle(PasParams),
    NeighbourPolling(RandomPollingParams),
    SimdPhase(NoParams),
}

/// Every protocol's parameters as the command line gives them (flattened
/// into the commands that run protocols); [`BalancerSpec::with`] keeps the
/// chosen balancer's and refuses the others'.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct ProtocolArgs {
    #[allow(missing_docs)]
    #[command(flatten)]
    pub polling: RandomPollingParams,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub pacheco: PachecoParams,
    #[allow(missing_docs)]
    #[command(flatten)]
    pub pas: PasParams,
}

impl BalancerSpec {
    /// `kind` with its parameters at their defaults.
    pub fn of(kind: BalancerKind) -> BalancerSpec {
        let none = NoParams {};
        match kind {
            BalancerKind::RandomPolling => BalancerSpec::RandomPolling(Default::default()),
            BalancerKind::RandomDestination => BalancerSpec::RandomDestination(none),
            BalancerKind::PriorityBnb => BalancerSpec::PriorityBnb(none),
            BalancerKind::Pacheco => BalancerSpec::Pacheco(Default::default()),
            BalancerKind::SyncRandomPolling => BalancerSpec::SyncRandomPolling(none),
            BalancerKind::PollAndShuffle => BalancerSpec::PollAndShuffle(Default::default()),
            BalancerKind::NeighbourPolling => BalancerSpec::NeighbourPolling(Default::default()),
            BalancerKind::SimdPhase => BalancerSpec::SimdPhase(none),
        }
    }

    /// `kind` with the parameters `args` give: its own; another
    /// protocol's, if given, is refused by name.
    pub fn with(kind: BalancerKind, args: ProtocolArgs) -> Result<BalancerSpec, ParamsError> {
        let spec = match kind {
            BalancerKind::RandomPolling => BalancerSpec::RandomPolling(args.polling),
            BalancerKind::NeighbourPolling => BalancerSpec::NeighbourPolling(args.polling),
            BalancerKind::Pacheco => BalancerSpec::Pacheco(args.pacheco),
            BalancerKind::PollAndShuffle => BalancerSpec::PollAndShuffle(args.pas),
            other => BalancerSpec::of(other),
        };
        if spec.polling().is_none() {
            args.polling.refused_for(kind)?;
        }
        if spec.pacheco().is_none() {
            args.pacheco.refused_for(kind)?;
        }
        if spec.pas().is_none() {
            args.pas.refused_for(kind)?;
        }
        Ok(spec)
    }

    /// The registry kind.
    pub fn kind(&self) -> BalancerKind {
        match self {
            BalancerSpec::RandomPolling(_) => BalancerKind::RandomPolling,
            BalancerSpec::RandomDestination(_) => BalancerKind::RandomDestination,
            BalancerSpec::PriorityBnb(_) => BalancerKind::PriorityBnb,
            BalancerSpec::Pacheco(_) => BalancerKind::Pacheco,
            BalancerSpec::SyncRandomPolling(_) => BalancerKind::SyncRandomPolling,
            BalancerSpec::PollAndShuffle(_) => BalancerKind::PollAndShuffle,
            BalancerSpec::NeighbourPolling(_) => BalancerKind::NeighbourPolling,
            BalancerSpec::SimdPhase(_) => BalancerKind::SimdPhase,
        }
    }

    /// Random polling's parameters (also neighbourhood polling's).
    pub fn polling(&self) -> Option<&RandomPollingParams> {
        match self {
            BalancerSpec::RandomPolling(p) | BalancerSpec::NeighbourPolling(p) => Some(p),
            _ => None,
        }
    }

    /// Random polling's parameters, to change (also neighbourhood polling's).
    pub fn polling_mut(&mut self) -> Option<&mut RandomPollingParams> {
        match self {
            BalancerSpec::RandomPolling(p) | BalancerSpec::NeighbourPolling(p) => Some(p),
            _ => None,
        }
    }

    /// Pacheco's search's parameters.
    pub fn pacheco(&self) -> Option<&PachecoParams> {
        match self {
            BalancerSpec::Pacheco(p) => Some(p),
            _ => None,
        }
    }

    /// Pacheco's search's parameters, to change.
    pub fn pacheco_mut(&mut self) -> Option<&mut PachecoParams> {
        match self {
            BalancerSpec::Pacheco(p) => Some(p),
            _ => None,
        }
    }

    /// Poll-and-shuffle's parameters.
    pub fn pas(&self) -> Option<&PasParams> {
        match self {
            BalancerSpec::PollAndShuffle(p) => Some(p),
            _ => None,
        }
    }

    /// Poll-and-shuffle's parameters, to change.
    pub fn pas_mut(&mut self) -> Option<&mut PasParams> {
        match self {
            BalancerSpec::PollAndShuffle(p) => Some(p),
            _ => None,
        }
    }

    /// Checks the parameters against the run: `pes` PEs, in model time or not.
    pub fn validate(&self, pes: u32, model_time: bool) -> Result<(), ParamsError> {
        match self {
            BalancerSpec::RandomPolling(p) | BalancerSpec::NeighbourPolling(p) => p.validate(pes, model_time),
            BalancerSpec::PollAndShuffle(p) => p.validate(),
            _ => Ok(()),
        }
    }
}

impl From<BalancerKind> for BalancerSpec {
    fn from(kind: BalancerKind) -> BalancerSpec {
        BalancerSpec::of(kind)
    }
}

impl std::fmt::Display for BalancerSpec {
    /// The registry name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Registered;

    #[test]
    fn serialised_names_are_the_registry_names() {
        for &kind in BalancerKind::ALL {
            let json = serde_json::to_value(BalancerSpec::of(kind)).unwrap();
            assert_eq!(json, serde_json::json!({ "name": kind.name() }));
            assert_eq!(serde_json::from_value::<BalancerSpec>(json).unwrap().kind(), kind);
        }
    }

    #[test]
    fn another_protocols_flag_is_refused_by_name() {
        let mut args = ProtocolArgs::default();
        args.pacheco.victim = Some(super::super::pacheco::Victim::GlobalRr);
        let err = BalancerSpec::with(BalancerKind::RandomPolling, args).unwrap_err().to_string();
        assert_eq!(err, "--victim is Pacheco's search's (003 §14.7.3), not balancer `random-polling`'s");
        assert!(BalancerSpec::with(BalancerKind::Pacheco, args).is_ok());
        let unknown = serde_json::json!({ "name": "pacheco", "slots": 2 });
        assert!(serde_json::from_value::<BalancerSpec>(unknown).is_err());
    }
}
