//! Exact energy for the energy termination detector (003 §14.7.4): fractions
//! `m / (q · 2^e)` over big integers with `q` odd, never floating point.
//!
//! 003 §14.7.4 represents a fraction as a pair of integers and notes that
//! "the only possible divisors of the denominator are 2 and divisors of p":
//! halving (rule 4) multiplies by 2, the initial distribution (rule 3)
//! divides by p. So the power of two is kept apart as an exponent: halving
//! only increments it, and energy `2^-k` after `k` splits costs O(1) words
//! whatever `k` is; an addition aligns exponents with a shift. The odd part
//! `q` is 1 unless P has an odd factor (P = 3, 5, 6, 7, …). Values are kept
//! normalised (mantissa odd or exponent 0; mantissa and `q` coprime; zero is
//! `0/1`), so equality is structural.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A non-negative rational `mant / (odd · 2^exp)`, `odd` odd.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fraction {
    mant: BigUint,
    odd: BigUint,
    exp: u64,
}

impl Fraction {
    /// Zero.
    pub fn zero() -> Fraction {
        Fraction { mant: BigUint::zero(), odd: BigUint::one(), exp: 0 }
    }

    /// One: all the energy there is.
    pub fn one() -> Fraction {
        Fraction { mant: BigUint::one(), odd: BigUint::one(), exp: 0 }
    }

    /// `2^-k`.
    pub fn pow2_neg(k: u64) -> Fraction {
        Fraction { mant: BigUint::one(), odd: BigUint::one(), exp: k }
    }

    /// Half of this value (exact).
    pub fn half(&self) -> Fraction {
        if self.mant.is_zero() {
            return Fraction::zero();
        }
        Fraction { exp: self.exp + 1, ..self.clone() }
    }

    /// This value divided by `k` ≥ 1 (exact; 003 §14.7.4 rule 3's 1/p).
    pub fn div(&self, k: u32) -> Fraction {
        assert!(k > 0, "division of energy by 0");
        let twos = k.trailing_zeros();
        Fraction::normalised(self.mant.clone(), &self.odd * BigUint::from(k >> twos), self.exp + u64::from(twos))
    }

    /// The nearest `f64` (what a floating-point implementation would hold;
    /// only the `energy-float` mutant uses it).
    pub fn to_f64(&self) -> f64 {
        let shift = self.mant.bits().saturating_sub(64);
        let m = (&self.mant >> shift).to_f64().unwrap_or(f64::INFINITY) / self.odd.to_f64().unwrap_or(f64::INFINITY);
        let e = (shift as i64 - self.exp as i64).clamp(-2200, 2200) as i32; // value = m · 2^e
        m * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
    }

    /// The exact value of a finite, non-negative `f64` (every one is dyadic).
    pub fn from_f64(x: f64) -> Fraction {
        assert!(x.is_finite() && x >= 0.0, "energy {x} is not a finite non-negative number");
        let bits = x.to_bits();
        let (exp_bits, frac) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
        let (m, e) = match exp_bits {
            0 => (frac, -1074i64),                           // subnormal (or zero)
            _ => (frac | (1 << 52), exp_bits as i64 - 1075), // x = m · 2^e
        };
        match e {
            0.. => Fraction { mant: BigUint::from(m) << e as u64, odd: BigUint::one(), exp: 0 },
            _ => Fraction::normalised(BigUint::from(m), BigUint::one(), e.unsigned_abs()),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    /// True for exactly one.
    pub fn is_one(&self) -> bool {
        self.exp == 0 && self.mant.is_one() && self.odd.is_one()
    }

    /// True when the denominator is a power of two (every value of a run
    /// whose P is one).
    pub fn is_dyadic(&self) -> bool {
        self.odd.is_one()
    }

    /// `self - o`, or `None` if that would be negative.
    pub fn checked_sub(&self, o: &Fraction) -> Option<Fraction> {
        let (a, b, odd, e) = self.common(o);
        (a >= b).then(|| Fraction::normalised(a - b, odd, e))
    }

    /// Both mantissas over one denominator `odd · 2^e`.
    fn common(&self, o: &Fraction) -> (BigUint, BigUint, BigUint, u64) {
        let e = self.exp.max(o.exp);
        let (a, b) = (&self.mant << (e - self.exp), &o.mant << (e - o.exp));
        if self.odd == o.odd {
            (a, b, self.odd.clone(), e)
        } else {
            (a * &o.odd, b * &self.odd, &self.odd * &o.odd, e)
        }
    }

    fn normalised(mant: BigUint, odd: BigUint, exp: u64) -> Fraction {
        let Some(z) = mant.trailing_zeros() else { return Fraction::zero() };
        let z = z.min(exp);
        let mant = mant >> z;
        if odd.is_one() {
            return Fraction { mant, odd, exp: exp - z };
        }
        let g = mant.gcd(&odd);
        Fraction { mant: mant / &g, odd: odd / g, exp: exp - z }
    }
}

impl Add for &Fraction {
    type Output = Fraction;
    fn add(self, o: &Fraction) -> Fraction {
        let (a, b, odd, e) = self.common(o);
        Fraction::normalised(a + b, odd, e)
    }
}

impl Add for Fraction {
    type Output = Fraction;
    fn add(self, o: Fraction) -> Fraction {
        &self + &o
    }
}

impl Sub for &Fraction {
    type Output = Fraction;
    /// Panics if the result would be negative (energy is never negative).
    fn sub(self, o: &Fraction) -> Fraction {
        self.checked_sub(o).expect("energy would become negative")
    }
}

impl fmt::Display for Fraction {
    /// `m` or `m/2^e` for a dyadic value (the forms of earlier traces);
    /// otherwise `m/d` (`1/6`), or `m/q/2^e` (q odd) once 2^e passes 2^32.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.odd.is_one(), self.exp) {
            (true, 0) => write!(f, "{}", self.mant),
            (true, e) => write!(f, "{}/2^{e}", self.mant),
            (false, e @ 0..=32) => write!(f, "{}/{}", self.mant, &self.odd << e),
            (false, e) => write!(f, "{}/{}/2^{e}", self.mant, self.odd),
        }
    }
}

/// The largest power of two `e` a parsed energy's denominator may have,
/// 2^18. A run's energy halves once per split it travels through without
/// coming back (003 §14.7.4 rule 4); lbcheck's runs stay below 2^8. The
/// limit bounds the work of one addition (an exponent of 2^64 − 1 once
/// needed 2^61 bytes, and wrapped round to a wrong value).
pub const MAX_EXPONENT: u64 = 1 << 18;
/// The most decimal digits of a parsed energy's numerator or denominator,
/// 10^5 (enough for any value below 1 with exponent [`MAX_EXPONENT`];
/// parsing decimal digits takes time quadratic in their number).
pub const MAX_DIGITS: usize = 100_000;

/// A string that is not an exact energy ([`Fraction`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not an exact energy ({why})")]
pub struct ParseFractionError {
    /// The string given (its first 40 characters if longer).
    pub given: String,
    /// What is wrong.
    pub why: &'static str,
}

impl ParseFractionError {
    const FORMS: &'static str = "forms: 0, 1, m, m/2^e, m/d, m/d/2^e";
    const EXPONENT: &'static str = "the power of two is above the limit 2^18";
    const DIGITS: &'static str = "a number has more than 100000 digits";

    fn new(given: &str, why: &'static str) -> ParseFractionError {
        let given = match given.char_indices().nth(40) {
            Some((i, _)) => format!("{}…", &given[..i]),
            None => given.to_string(),
        };
        ParseFractionError { given, why }
    }
}

impl FromStr for Fraction {
    type Err = ParseFractionError;
    fn from_str(s: &str) -> Result<Fraction, ParseFractionError> {
        let bad = |why| ParseFractionError::new(s, why);
        let (rest, exp) = match s.split_once("/2^") {
            Some((r, e)) => (r, e.parse::<u64>().map_err(|_| bad(ParseFractionError::FORMS))?),
            None => (s, 0),
        };
        let (m, q) = rest.split_once('/').unwrap_or((rest, "1"));
        let (mant, q) = (decimal(m).map_err(bad)?, decimal(q).map_err(bad)?);
        let twos = q.trailing_zeros().ok_or_else(|| bad(ParseFractionError::FORMS))?;
        match exp.checked_add(twos).filter(|&e| e <= MAX_EXPONENT) {
            Some(e) => Ok(Fraction::normalised(mant, q >> twos, e)),
            None => Err(bad(ParseFractionError::EXPONENT)),
        }
    }
}

/// A number of at most [`MAX_DIGITS`] decimal digits.
fn decimal(x: &str) -> Result<BigUint, &'static str> {
    if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseFractionError::FORMS);
    }
    if x.len() > MAX_DIGITS {
        return Err(ParseFractionError::DIGITS);
    }
    BigUint::parse_bytes(x.as_bytes(), 10).ok_or(ParseFractionError::FORMS)
}

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fraction, D::Error> {
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
        let mut e = Fraction::one();
        for _ in 0..5000 {
            e = e.half();
            parts.push(e.clone());
        }
        parts.push(e); // the last piece twice: 2^-1 + ... + 2^-5000 + 2^-5000 = 1
        let total = parts.iter().fold(Fraction::zero(), |acc, p| &acc + p);
        assert!(total.is_one());
    }

    /// 003 §14.7.4 rule 3 for P = 3, 5, 6, 7: p shares of 1/p, each halved
    /// a few times along splits, sum back to exactly 1.
    #[test]
    fn thirds_fifths_sixths_sevenths_sum_back_to_one() {
        for p in [3u32, 5, 6, 7, 12] {
            let mut parts = vec![];
            for i in 0..p {
                let mut e = Fraction::one().div(p);
                for _ in 0..i {
                    let half = e.half();
                    parts.push(half.clone());
                    e = half;
                }
                parts.push(e);
            }
            let total = parts.iter().fold(Fraction::zero(), |acc, x| &acc + x);
            assert!(total.is_one(), "P={p}: {total}");
            assert!(!Fraction::one().div(p).is_dyadic() || p.is_power_of_two());
        }
    }

    #[test]
    fn floats_convert_exactly_and_lose_what_floats_lose() {
        for x in [0.0, 1.0, 0.5, 0.75, 3.0, 1e-300, 5e-324] {
            assert_eq!(Fraction::from_f64(x).to_f64(), x);
        }
        assert_eq!(Fraction::from_f64(0.375), "3/2^3".parse().unwrap());
        assert_eq!(Fraction::pow2_neg(1074).to_f64(), 5e-324);
        assert_eq!(Fraction::pow2_neg(1076).to_f64(), 0.0, "underflow: a float loses it");
        assert_ne!(Fraction::from_f64(1.0 / 3.0), Fraction::one().div(3), "1/3 is not a float");
        assert!((Fraction::one().div(3).to_f64() - 1.0 / 3.0).abs() < 1e-16);
    }

    /// The exponent is bounded, and the twos of `d` never wrap it round
    /// (`1/4/2^(2^64 − 1)` once parsed as 1/2).
    #[test]
    fn huge_exponents_and_numbers_are_refused() {
        let limit = format!("1/2^{MAX_EXPONENT}");
        assert_eq!(limit.parse::<Fraction>().unwrap(), Fraction::pow2_neg(MAX_EXPONENT));
        let over = format!("1/2^{}", MAX_EXPONENT + 1);
        for s in [&over, "1/4/2^18446744073709551615", "1/2^18446744073709551615", "1/2^4294967295", "1/2/2^262144"] {
            let e = s.parse::<Fraction>().unwrap_err();
            assert_eq!(e.why, ParseFractionError::EXPONENT, "{s}");
        }
        let long = "1".repeat(MAX_DIGITS + 1);
        let e = long.parse::<Fraction>().unwrap_err();
        assert_eq!((e.why, e.given.chars().count()), (ParseFractionError::DIGITS, 41));
        assert_eq!(
            e.to_string(),
            format!("`{}…` is not an exact energy (a number has more than 100000 digits)", &long[..40])
        );
    }

    #[test]
    fn display_round_trips_and_normalises() {
        for s in ["0", "1", "3/2^7", "5", "1/3", "5/48", "7/15", "1/3/2^33"] {
            assert_eq!(s.parse::<Fraction>().unwrap().to_string(), s);
        }
        assert_eq!("4/2^3".parse::<Fraction>().unwrap().to_string(), "1/2^1");
        assert_eq!("3/6".parse::<Fraction>().unwrap().to_string(), "1/2^1");
        assert_eq!("6/9/2^2".parse::<Fraction>().unwrap().to_string(), "1/6");
        assert_eq!(Fraction::one().div(6).to_string(), "1/6");
        for bad in ["x/2^3", "1/0", "-1", "1/+3", ""] {
            let forms = ParseFractionError::FORMS;
            assert_eq!(
                bad.parse::<Fraction>(),
                Err(ParseFractionError { given: bad.to_string(), why: forms }),
                "{bad}"
            );
        }
        let a = Fraction::pow2_neg(3);
        assert_eq!(a.checked_sub(&Fraction::one()), None);
        assert_eq!(&Fraction::one() - &a, "7/2^3".parse().unwrap());
        assert_eq!(&Fraction::one() - &Fraction::one().div(3), "2/3".parse().unwrap());
    }
}
