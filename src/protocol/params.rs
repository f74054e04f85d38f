//! The vocabulary of protocol parameters ([`Params`]): what every
//! protocol's parameter struct is (its flags and its keys in the run
//! specification), and the refusal of a parameter that does not fit.

use serde::{Deserialize, Serialize};

use super::kinds::BalancerKind;

/// A protocol's parameters: flags of their own (clap), keys of the run
/// specification (serde), each absent at its default.
pub trait Params: Serialize + Default + PartialEq + Copy {
    /// Whose they are, and where the papers define them.
    const OWNER: (&'static str, &'static str);

    /// The flags set (the keys serialised: fields not at their default), as `--name`.
    fn given(&self) -> Vec<String> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m.keys().map(|k| format!("--{}", k.replace('_', "-"))).collect(),
            _ => Vec::new(),
        }
    }

    /// Refuses these parameters if any is set: they are not `balancer`'s.
    fn refused_for(&self, balancer: BalancerKind) -> Result<(), ParamsError> {
        let Some(flag) = self.given().into_iter().next() else { return Ok(()) };
        let (owner, paper) = Self::OWNER;
        Err(ParamsError::new(format!("{flag} is {owner}'s ({paper}), not balancer `{balancer}`'s")))
    }
}

/// A protocol parameter that does not fit the run; the message names the
/// flag and says what would fit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParamsError(pub String);

impl ParamsError {
    /// The error saying `why`.
    pub fn new(why: impl Into<String>) -> ParamsError {
        ParamsError(why.into())
    }
}

/// The parameters of a balancer that has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}
