//! UTS tree parameters and their command-line syntax (../shared/uts.md).

use std::fmt;

use serde::Serialize;

use crate::problem::SpecError;

/// UTS tree type (`-t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TreeKind {
    /// `-t 0`: binomial tree.
    Bin,
    /// `-t 1`: geometric branching (the default).
    Geo,
    /// `-t 2`: GEO near the root, BIN below `shift_depth · gen_mx`.
    Hybrid,
    /// `-t 3`: complete `floor(b0)`-ary tree of depth `gen_mx`.
    Balanced,
}

/// GEO branching shape (`-a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GeoShape {
    /// `-a 0`: `b0 · (1 − d/gen_mx)`.
    Linear,
    /// `-a 1`: `b0 · d^(−ln b0 / ln gen_mx)`.
    ExpDec,
    /// `-a 2`: `b0^sin(2πd/gen_mx)`, 0 beyond depth `5·gen_mx`.
    Cyclic,
    /// `-a 3`: `b0` above depth `gen_mx`, then 0.
    Fixed,
}

/// All parameters that define a UTS tree (defaults as in UTS 2.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct UtsParams {
    /// `-t`: tree type.
    pub kind: TreeKind,
    /// `-b`: root branching factor b0.
    pub b0: f64,
    /// `-r`: root seed.
    pub root_seed: i32,
    /// `-m`: number of children of a BIN non-leaf.
    pub m: u32,
    /// `-q`: probability that a BIN node is a non-leaf.
    pub q: f64,
    /// `-d`: gen_mx, the depth parameter of GEO and BALANCED trees.
    pub gen_mx: u32,
    /// `-a`: GEO shape.
    pub shape: GeoShape,
    /// `-f`: HYBRID shift depth, as a fraction of gen_mx.
    pub shift_depth: f64,
}

impl Default for UtsParams {
    fn default() -> Self {
        UtsParams {
            kind: TreeKind::Geo,
            b0: 4.0,
            root_seed: 0,
            m: 4,
            q: 15.0 / 64.0,
            gen_mx: 6,
            shape: GeoShape::Linear,
            shift_depth: 0.5,
        }
    }
}

/// What is wrong with UTS arguments (the `why` of [`SpecError::Uts`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UtsError {
    /// A flag without a value.
    #[error("flag `{0}` has no value")]
    NoValue(String),
    /// A flag UTS does not have.
    #[error("unknown flag `{0}`")]
    UnknownFlag(String),
    /// A value that is not a number of the flag's type.
    #[error("`{flag} {value}`: `{value}` is not a valid number")]
    NotNumber {
        /// The flag.
        flag: String,
        /// The value given.
        value: String,
    },
    /// A number outside the flag's range ([`UTS_FLAGS`]).
    #[error("`{flag} {value}` is out of range")]
    OutOfRange {
        /// The flag.
        flag: String,
        /// The number, as parsed.
        value: String,
    },
    /// GEO or HYBRID branching above 100.
    #[error("-b {0} : GEO branching b0 must be ≤ 100 (UTS caps children at 100)")]
    GeoBranching(f64),
    /// EXPDEC with gen_mx < 2.
    #[error("-a 1 (EXPDEC) needs -d ≥ 2 (it divides by ln gen_mx)")]
    ExpDecDepth,
}

/// The flags `parse_args` accepts, for error messages.
pub const UTS_FLAGS: &str = "-t 0..3 (BIN, GEO, HYBRID, BALANCED), -b b0 > 0, -r seed (i32), -m 0..=100, \
-q 0..=1, -d gen_mx >= 1, -a 0..3 (LINEAR, EXPDEC, CYCLIC, FIXED), -f 0..=1, -g granularity (ignored)";

impl UtsParams {
    /// Parses UTS's own argument syntax (`-t 1 -a 3 -d 10 -b 4 -r 19`): flags
    /// left to right, a repeated flag overwrites, every value checked.
    pub fn parse_args(args: &str) -> Result<UtsParams, SpecError> {
        let mut p = UtsParams::default();
        let mut words = args.split_whitespace();
        while let Some(flag) = words.next() {
            let value = words.next().ok_or_else(|| bad(args, UtsError::NoValue(flag.into())))?;
            p.set(flag, value).map_err(|why| bad(args, why))?;
        }
        p.validate().map_err(|why| bad(args, why))?;
        Ok(p)
    }

    fn set(&mut self, flag: &str, v: &str) -> Result<(), UtsError> {
        match flag {
            "-t" => {
                self.kind = [TreeKind::Bin, TreeKind::Geo, TreeKind::Hybrid, TreeKind::Balanced][index(flag, v, 4)?]
            }
            "-a" => {
                self.shape = [GeoShape::Linear, GeoShape::ExpDec, GeoShape::Cyclic, GeoShape::Fixed][index(flag, v, 4)?]
            }
            "-b" => self.b0 = number(flag, v, |x: f64| x > 0.0 && x <= 1e6)?,
            "-r" => self.root_seed = number(flag, v, |_: i32| true)?,
            "-m" => self.m = number(flag, v, |x: u32| x <= 100)?,
            "-q" => self.q = number(flag, v, |x: f64| (0.0..=1.0).contains(&x))?,
            "-d" => self.gen_mx = number(flag, v, |x: u32| x >= 1)?,
            "-f" => self.shift_depth = number(flag, v, |x: f64| (0.0..=1.0).contains(&x))?,
            "-g" => drop(number(flag, v, |x: u32| x >= 1)?),
            _ => return Err(UtsError::UnknownFlag(flag.into())),
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), UtsError> {
        if self.kind != TreeKind::Bin && self.kind != TreeKind::Balanced && self.b0 > 100.0 {
            return Err(UtsError::GeoBranching(self.b0));
        }
        if matches!(self.kind, TreeKind::Geo | TreeKind::Hybrid) && self.shape == GeoShape::ExpDec && self.gen_mx < 2 {
            return Err(UtsError::ExpDecDepth);
        }
        Ok(())
    }

    /// UTS's argument string for these parameters (parses back to them).
    pub fn to_args(&self) -> String {
        format!(
            "-t {} -a {} -d {} -b {} -r {} -q {} -m {} -f {}",
            self.kind as u8, self.shape as u8, self.gen_mx, self.b0, self.root_seed, self.q, self.m, self.shift_depth
        )
    }
}

impl fmt::Display for UtsParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_args())
    }
}

fn bad(args: &str, why: UtsError) -> SpecError {
    SpecError::Uts { args: args.to_string(), why }
}

fn index(flag: &str, v: &str, n: usize) -> Result<usize, UtsError> {
    number(flag, v, |x: usize| x < n)
}

fn number<T: std::str::FromStr + Copy + fmt::Display>(
    flag: &str,
    v: &str,
    ok: impl Fn(T) -> bool,
) -> Result<T, UtsError> {
    match v.parse::<T>() {
        Ok(x) if ok(x) => Ok(x),
        Ok(x) => Err(UtsError::OutOfRange { flag: flag.into(), value: x.to_string() }),
        Err(_) => Err(UtsError::NotNumber { flag: flag.into(), value: v.into() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_flag_overwrites_and_round_trips() {
        let p = UtsParams::parse_args("-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4 -r 1").unwrap();
        assert_eq!((p.kind, p.gen_mx, p.root_seed, p.m), (TreeKind::Hybrid, 16, 1, 4));
        assert_eq!(UtsParams::parse_args(&p.to_args()).unwrap(), p);
    }

    #[test]
    fn rejects_bad_values() {
        for args in ["-t 9", "-q 2", "-b", "-x 1", "-b -3", "-d 0", "-r abc", "-b NaN"] {
            assert!(UtsParams::parse_args(args).is_err(), "{args}");
        }
        let why = |args| match UtsParams::parse_args(args) {
            Err(SpecError::Uts { why, .. }) => why,
            other => panic!("{args}: {other:?}"),
        };
        assert_eq!(why("-b"), UtsError::NoValue("-b".into()));
        assert_eq!(why("-x 1"), UtsError::UnknownFlag("-x".into()));
        assert_eq!(why("-r abc"), UtsError::NotNumber { flag: "-r".into(), value: "abc".into() });
        assert_eq!(why("-t 9"), UtsError::OutOfRange { flag: "-t".into(), value: "9".into() });
        assert_eq!(why("-b 200"), UtsError::GeoBranching(200.0));
        assert_eq!(why("-a 1 -d 1"), UtsError::ExpDecDepth);
        assert_eq!(
            UtsParams::parse_args("-t 9").unwrap_err().to_string(),
            format!("bad UTS arguments `-t 9`: `-t 9` is out of range\nvalid flags: {UTS_FLAGS}")
        );
    }
}
