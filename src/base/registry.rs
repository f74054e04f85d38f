//! The registry's vocabulary: every balancer, detector, machine model,
//! driver, workload family and mutant is a variant of a typed enum in its
//! own layer that implements [`Registered`]: its name on the command line
//! and in traces, the paper section it implements, a one-line description
//! and whether it ships. `lbcheck list` and the README's status table are
//! printed from these enums; a name is parsed only through them.

use std::fmt;

use serde::Serialize;

/// Whether an entry can be used today.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Implemented, tested and usable from the CLI.
    Ships,
    /// Named by the papers and specified, not implemented yet (the issue
    /// that builds it).
    Planned {
        /// The issue number.
        issue: u32,
    },
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ships => f.write_str("ships"),
            Status::Planned { issue } => write!(f, "planned (issue {issue})"),
        }
    }
}

impl Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What the registry says of one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Info {
    /// The name on the command line and in traces.
    pub name: &'static str,
    /// The paper and section it implements (e.g. "001 Fig. 1").
    pub paper: &'static str,
    /// One line on what it is.
    pub what: &'static str,
    /// Whether it ships.
    pub status: Status,
}

impl Info {
    /// An entry that ships.
    pub const fn ships(name: &'static str, paper: &'static str, what: &'static str) -> Info {
        Info { name, paper, what, status: Status::Ships }
    }

    /// An entry planned in issue `issue`.
    pub const fn planned(name: &'static str, paper: &'static str, what: &'static str, issue: u32) -> Info {
        Info { name, paper, what, status: Status::Planned { issue } }
    }
}

/// A name that is not a shipping entry of a registry enum.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct UnknownName {
    /// What was looked up ("balancer", "mutant", …).
    pub kind: &'static str,
    /// The name given.
    pub given: String,
    /// The valid names.
    pub valid: Vec<&'static str>,
    /// The planned entry of that name, if there is one.
    pub planned: Option<Info>,
}

impl UnknownName {
    fn message(&self) -> String {
        let valid = self.valid.join(", ");
        match self.planned {
            Some(Info { status: Status::Planned { issue }, .. }) => format!(
                "{} `{}` is planned (issue {issue}) but does not ship yet; valid: {valid}",
                self.kind, self.given
            ),
            _ => format!("unknown {} `{}`; valid: {valid}", self.kind, self.given),
        }
    }
}

/// A typed registry enum: its shipping variants, their [`Info`], and the
/// entries of its family that are planned.
pub trait Registered: Copy + Eq + Sized + 'static {
    /// What one variant is, for messages ("balancer", "termination detector").
    const KIND: &'static str;
    /// Every shipping variant, in listing order.
    const ALL: &'static [Self];
    /// Entries of this family that the papers define and lbcheck does not ship yet.
    const PLANNED: &'static [Info] = &[];

    /// The registry entry of this variant.
    fn info(self) -> &'static Info;

    /// The variant's name.
    fn name(self) -> &'static str {
        self.info().name
    }

    /// The names of every shipping variant.
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }

    /// Every entry of the family: the shipping ones, then the planned ones.
    fn listing() -> Vec<Info> {
        Self::ALL.iter().map(|k| *k.info()).chain(Self::PLANNED.iter().copied()).collect()
    }

    /// The shipping variant named `s`; the error lists the valid names and
    /// says when `s` is planned.
    fn lookup(s: &str) -> Result<Self, UnknownName> {
        Self::ALL.iter().copied().find(|k| k.name() == s).ok_or_else(|| UnknownName {
            kind: Self::KIND,
            given: s.to_string(),
            valid: Self::names(),
            planned: Self::PLANNED.iter().find(|i| i.name == s).copied(),
        })
    }
}

/// Declares a registry enum: one arm per shipping variant with its
/// [`Info`], an optional list of planned entries; derives the enum, its
/// [`Registered`] impl, `Display` and `FromStr`.
///
/// ```
/// lbcheck::registry! {
///     /// Colours.
///     pub enum Colour: "colour" {
///         /// Red.
///         Red => lbcheck::base::Info::ships("red", "000 §1", "the colour red"),
///     }
///     planned: [lbcheck::base::Info::planned("blue", "000 §2", "the colour blue", 99)]
/// }
/// use lbcheck::base::Registered;
/// assert_eq!("red".parse::<Colour>(), Ok(Colour::Red));
/// assert!("blue".parse::<Colour>().unwrap_err().to_string().contains("planned (issue 99)"));
/// ```
#[macro_export]
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $kind:literal {
            $( $(#[$vmeta:meta])* $variant:ident => $info:expr ),+ $(,)?
        }
        $(planned: [ $($planned:expr),* $(,)? ])?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $( $(#[$vmeta])* $variant ),+ }

        impl $crate::base::registry::Registered for $name {
            const KIND: &'static str = $kind;
            const ALL: &'static [Self] = &[ $( $name::$variant ),+ ];
            $(const PLANNED: &'static [$crate::base::registry::Info] = &[ $($planned),* ];)?

            fn info(self) -> &'static $crate::base::registry::Info {
                match self {
                    $( $name::$variant => {
                        const INFO: $crate::base::registry::Info = $info;
                        &INFO
                    } )+
                }
            }
        }

        $crate::registered_names!($name);
    };
}

/// `Display` (the name), `FromStr` (by [`Registered::lookup`]) and serde
/// (as the name) for a registry enum.
#[macro_export]
#[doc(hidden)]
macro_rules! registered_names {
    ($t:ty) => {
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::base::registry::Registered::name(*self))
            }
        }

        impl ::std::str::FromStr for $t {
            type Err = $crate::base::registry::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$t as $crate::base::registry::Registered>::lookup(s)
            }
        }

        $crate::serde_as_text!($t);
    };
}
