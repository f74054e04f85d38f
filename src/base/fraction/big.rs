//! The big-integer form of [`super::Fraction`] (003 §14.7.4): `m / (q · 2^e)`
//! with `q` odd, exact whatever the size. A fraction takes this form only
//! when its machine-word form (a `u64` numerator over a power of two) would
//! overflow or `q` > 1; it is also the reference the word form is tested
//! against. Values are kept normalised (mantissa odd or exponent 0;
//! mantissa and `q` coprime; zero is `0/1`), so equality is structural.

use std::fmt;
use std::ops::{Add, Sub};
use std::str::FromStr;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::{ParseFractionError, MAX_DIGITS, MAX_EXPONENT};

/// A non-negative rational `mant / (odd · 2^exp)`, `odd` odd.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct Big {
    pub(super) mant: BigUint,
    pub(super) odd: BigUint,
    pub(super) exp: u64,
}

impl Big {
    /// Zero.
    pub(crate) fn zero() -> Big {
        Big { mant: BigUint::zero(), odd: BigUint::one(), exp: 0 }
    }

    /// `2^-k`.
    pub(crate) fn pow2_neg(k: u64) -> Big {
        Big { mant: BigUint::one(), odd: BigUint::one(), exp: k }
    }

    /// Half of this value (exact; the reference for the word form's).
    #[cfg(test)]
    pub(crate) fn half(&self) -> Big {
        if self.mant.is_zero() {
            return Big::zero();
        }
        Big::normalised(self.mant.clone(), self.odd.clone(), self.exp + 1)
    }

    /// This value divided by `k` ≥ 1 (exact; 003 §14.7.4 rule 3's 1/p).
    pub(crate) fn div(&self, k: u32) -> Big {
        assert!(k > 0, "division of energy by 0");
        let twos = k.trailing_zeros();
        Big::normalised(self.mant.clone(), &self.odd * BigUint::from(k >> twos), self.exp + u64::from(twos))
    }

    /// The nearest `f64` (what a floating-point implementation would hold;
    /// only the `energy-float` mutant uses it).
    pub(crate) fn to_f64(&self) -> f64 {
        let shift = self.mant.bits().saturating_sub(64);
        let m = (&self.mant >> shift).to_f64().unwrap_or(f64::INFINITY) / self.odd.to_f64().unwrap_or(f64::INFINITY);
        let e = (shift as i64 - self.exp as i64).clamp(-2200, 2200) as i32; // value = m · 2^e
        m * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
    }

    /// The exact value of a finite, non-negative `f64` (every one is dyadic).
    pub(crate) fn from_f64(x: f64) -> Big {
        assert!(x.is_finite() && x >= 0.0, "energy {x} is not a finite non-negative number");
        let bits = x.to_bits();
        let (exp_bits, frac) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
        let (m, e) = match exp_bits {
            0 => (frac, -1074i64),                           // subnormal (or zero)
            _ => (frac | (1 << 52), exp_bits as i64 - 1075), // x = m · 2^e
        };
        match e {
            0.. => Big { mant: BigUint::from(m) << e as u64, odd: BigUint::one(), exp: 0 },
            _ => Big::normalised(BigUint::from(m), BigUint::one(), e.unsigned_abs()),
        }
    }

    /// True for zero.
    #[cfg(test)]
    pub(crate) fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    /// True for exactly one.
    #[cfg(test)]
    pub(crate) fn is_one(&self) -> bool {
        self.exp == 0 && self.mant.is_one() && self.odd.is_one()
    }

    /// True when the denominator is a power of two (every value of a run
    /// whose P is one).
    pub(crate) fn is_dyadic(&self) -> bool {
        self.odd.is_one()
    }

    /// `self - o`, or `None` if that would be negative.
    pub(crate) fn checked_sub(&self, o: &Big) -> Option<Big> {
        let mut r = self.clone();
        r.sub_assign(o).then_some(r)
    }

    /// `self += o`, in place: no copy of `self`'s digits (issue 30: a
    /// holding spans up to n/p bits on a big tree).
    pub(crate) fn add_assign(&mut self, o: &Big) {
        if self.odd != o.odd {
            let (a, b, odd, e) = self.common(o);
            *self = Big::normalised(a + b, odd, e);
            return;
        }
        let d = self.align(o.exp);
        match d {
            0 => self.mant += &o.mant,
            _ => self.mant += &o.mant << d,
        }
        self.normalise();
    }

    /// `self -= o` in place, or `false` (the value unchanged) if that would
    /// be negative.
    pub(crate) fn sub_assign(&mut self, o: &Big) -> bool {
        if self.odd != o.odd {
            let (a, b, odd, e) = self.common(o);
            let ok = a >= b;
            if ok {
                *self = Big::normalised(a - b, odd, e);
            }
            return ok;
        }
        let d = self.align(o.exp);
        let shifted = (d > 0).then(|| &o.mant << d);
        let b = shifted.as_ref().unwrap_or(&o.mant);
        let ok = self.mant >= *b;
        if ok {
            self.mant -= b;
        }
        self.normalise();
        ok
    }

    /// Brings `self` to exponent `e` or above (shifting its mantissa up in
    /// place); returns how far `o`'s mantissa, at exponent `e`, must shift.
    fn align(&mut self, e: u64) -> u64 {
        if e > self.exp {
            self.mant <<= e - self.exp;
            self.exp = e;
        }
        self.exp - e
    }

    /// Both mantissas over one denominator `odd · 2^e`.
    fn common(&self, o: &Big) -> (BigUint, BigUint, BigUint, u64) {
        let e = self.exp.max(o.exp);
        let (a, b) = (&self.mant << (e - self.exp), &o.mant << (e - o.exp));
        (a * &o.odd, b * &self.odd, &self.odd * &o.odd, e)
    }

    pub(super) fn normalised(mant: BigUint, odd: BigUint, exp: u64) -> Big {
        let mut b = Big { mant, odd, exp };
        b.normalise();
        b
    }

    /// Mantissa odd or exponent 0, mantissa and `odd` coprime, zero `0/1`.
    fn normalise(&mut self) {
        let Some(z) = self.mant.trailing_zeros() else { return *self = Big::zero() };
        let z = z.min(self.exp);
        if z > 0 {
            self.mant >>= z;
            self.exp -= z;
        }
        if !self.odd.is_one() {
            let g = self.mant.gcd(&self.odd);
            self.mant /= &g;
            self.odd /= g;
        }
    }
}

impl Clone for Big {
    fn clone(&self) -> Big {
        Big { mant: self.mant.clone(), odd: self.odd.clone(), exp: self.exp }
    }

    /// Reuses `self`'s digits.
    fn clone_from(&mut self, o: &Big) {
        self.mant.clone_from(&o.mant);
        self.odd.clone_from(&o.odd);
        self.exp = o.exp;
    }
}

impl Add for &Big {
    type Output = Big;
    fn add(self, o: &Big) -> Big {
        let mut r = self.clone();
        r.add_assign(o);
        r
    }
}

impl Add for Big {
    type Output = Big;
    fn add(self, o: Big) -> Big {
        &self + &o
    }
}

impl Sub for &Big {
    type Output = Big;
    /// Panics if the result would be negative (energy is never negative).
    fn sub(self, o: &Big) -> Big {
        self.checked_sub(o).expect("energy would become negative")
    }
}

impl fmt::Display for Big {
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

impl FromStr for Big {
    type Err = ParseFractionError;
    fn from_str(s: &str) -> Result<Big, ParseFractionError> {
        let bad = |why| ParseFractionError::new(s, why);
        let (rest, exp) = match s.split_once("/2^") {
            Some((r, e)) => (r, e.parse::<u64>().map_err(|_| bad(ParseFractionError::FORMS))?),
            None => (s, 0),
        };
        let (m, q) = rest.split_once('/').unwrap_or((rest, "1"));
        let (mant, q) = (decimal(m).map_err(bad)?, decimal(q).map_err(bad)?);
        let twos = q.trailing_zeros().ok_or_else(|| bad(ParseFractionError::FORMS))?;
        match exp.checked_add(twos).filter(|&e| e <= MAX_EXPONENT) {
            Some(e) => Ok(Big::normalised(mant, q >> twos, e)),
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
