//! Exact energy for the energy termination detector (003 §14.7.4): dyadic
//! rationals `m / 2^e` over big integers, never floating point.
//!
//! Halving only increments the exponent, so energy `2^-k` after `k` splits
//! costs O(1) words whatever `k` is; an addition aligns exponents with a
//! shift (O(k/64) words). Values are kept normalised (odd mantissa, or zero
//! with exponent 0), so equality is structural.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A non-negative dyadic rational `mant / 2^exp`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dyadic {
    mant: BigUint,
    exp: u64,
}

impl Dyadic {
    /// Zero.
    pub fn zero() -> Dyadic {
        Dyadic { mant: BigUint::zero(), exp: 0 }
    }

    /// One: all the energy there is.
    pub fn one() -> Dyadic {
        Dyadic { mant: BigUint::one(), exp: 0 }
    }

    /// `2^-k`.
    pub fn pow2_neg(k: u64) -> Dyadic {
        Dyadic { mant: BigUint::one(), exp: k }
    }

    /// Half of this value (exact).
    pub fn half(&self) -> Dyadic {
        if self.mant.is_zero() {
            return Dyadic::zero();
        }
        Dyadic { mant: self.mant.clone(), exp: self.exp + 1 }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    /// True for exactly one.
    pub fn is_one(&self) -> bool {
        self.exp == 0 && self.mant.is_one()
    }

    /// `self - o`, or `None` if that would be negative.
    pub fn checked_sub(&self, o: &Dyadic) -> Option<Dyadic> {
        let e = self.exp.max(o.exp);
        let (a, b) = (self.scaled(e), o.scaled(e));
        (a >= b).then(|| Dyadic::normalised(a - b, e))
    }

    fn scaled(&self, e: u64) -> BigUint {
        &self.mant << (e - self.exp)
    }

    fn normalised(mant: BigUint, exp: u64) -> Dyadic {
        match mant.trailing_zeros() {
            None => Dyadic::zero(),
            Some(z) => {
                let z = z.min(exp);
                Dyadic { mant: mant >> z, exp: exp - z }
            }
        }
    }
}

impl Add for &Dyadic {
    type Output = Dyadic;
    fn add(self, o: &Dyadic) -> Dyadic {
        let e = self.exp.max(o.exp);
        Dyadic::normalised(self.scaled(e) + o.scaled(e), e)
    }
}

impl Add for Dyadic {
    type Output = Dyadic;
    fn add(self, o: Dyadic) -> Dyadic {
        &self + &o
    }
}

impl Sub for &Dyadic {
    type Output = Dyadic;
    /// Panics if the result would be negative (energy is never negative).
    fn sub(self, o: &Dyadic) -> Dyadic {
        self.checked_sub(o).expect("energy would become negative")
    }
}

impl fmt::Display for Dyadic {
    /// `0`, `1`, `m`, or `m/2^e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exp {
            0 => write!(f, "{}", self.mant),
            e => write!(f, "{}/2^{e}", self.mant),
        }
    }
}

impl FromStr for Dyadic {
    type Err = String;
    fn from_str(s: &str) -> Result<Dyadic, String> {
        let bad = || format!("`{s}` is not a dyadic number (forms: 0, 1, m, m/2^e)");
        let (m, e) = match s.split_once("/2^") {
            Some((m, e)) => (m, e.parse::<u64>().map_err(|_| bad())?),
            None => (s, 0),
        };
        let mant = BigUint::parse_bytes(m.as_bytes(), 10).ok_or_else(bad)?;
        Ok(Dyadic::normalised(mant, e))
    }
}

impl Serialize for Dyadic {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Dyadic {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dyadic, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_sum_back_to_one() {
        let mut parts = vec![];
        let mut e = Dyadic::one();
        for _ in 0..5000 {
            e = e.half();
            parts.push(e.clone());
        }
        parts.push(e); // the last piece twice: 2^-1 + ... + 2^-5000 + 2^-5000 = 1
        let total = parts.iter().fold(Dyadic::zero(), |acc, p| &acc + p);
        assert!(total.is_one());
    }

    #[test]
    fn display_round_trips_and_normalises() {
        for s in ["0", "1", "3/2^7", "5"] {
            assert_eq!(s.parse::<Dyadic>().unwrap().to_string(), s);
        }
        assert_eq!("4/2^3".parse::<Dyadic>().unwrap().to_string(), "1/2^1");
        assert!("x/2^3".parse::<Dyadic>().is_err());
        let a = Dyadic::pow2_neg(3);
        assert_eq!(a.checked_sub(&Dyadic::one()), None);
        assert_eq!(&Dyadic::one() - &a, "7/2^3".parse().unwrap());
    }
}
