//! Exact energy for the energy termination detector (003 §14.7.4): fractions
//! `m / (q · 2^e)` with `q` odd, never floating point.
//!
//! 003 §14.7.4 represents a fraction as a pair of integers and notes that
//! "the only possible divisors of the denominator are 2 and divisors of p":
//! halving (rule 4) multiplies by 2, the initial distribution (rule 3)
//! divides by p. So the power of two is kept apart as an exponent: halving
//! only increments it, and energy `2^-k` after `k` splits costs O(1) words
//! whatever `k` is; an addition aligns exponents with a shift. The odd part
//! `q` is 1 unless P has an odd factor (P = 3, 5, 6, 7, …).
//!
//! A dyadic value whose numerator fits a `u64` (and exponent a `u32`) is
//! held in machine words, `Repr::Word`: halving, adding and subtracting
//! such values costs a few instructions and no allocation (issue 30). Any
//! other value, and any result that would overflow the words, takes the
//! big-integer form (`big::Big`, also the reference the word form is
//! tested against). Which form a value takes depends only on the value, so
//! equality stays structural.
//!
//! On a big tree a holding's binary expansion is long and dense: its PE
//! halves it at every send, so its lowest bit falls by about one per work
//! message (≈ 1.3·10^5 bits at p = 4 on a 541,787-node UTS tree), and the
//! pieces it receives fill the bits between. Every operation on it costs its
//! length, so the detector and the checker add and subtract in place
//! (`+=`, `-=`, `clone_from`: no copy of the digits but the event's). A
//! run-length form was tried (issue 30): there a holding of 8,000 bits had
//! 2,000 runs, a loss.

mod big;

use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};
use std::str::FromStr;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use big::Big;

/// A non-negative rational `mant / (odd · 2^exp)`, `odd` odd.
#[derive(PartialEq, Eq, Hash)]
pub struct Fraction(Repr);

/// The two forms of a [`Fraction`]; a value has exactly one.
#[derive(PartialEq, Eq, Hash)]
enum Repr {
    /// `mant / 2^exp`, normalised (`mant` odd or `exp` 0; zero is `0/2^0`).
    Word { exp: u32, mant: u64 },
    /// Every value that has no word form.
    Big(Box<Big>),
}

impl Fraction {
    /// Zero.
    pub fn zero() -> Fraction {
        Fraction(Repr::Word { exp: 0, mant: 0 })
    }

    /// One: all the energy there is.
    pub fn one() -> Fraction {
        Fraction(Repr::Word { exp: 0, mant: 1 })
    }

    /// `2^-k`.
    pub fn pow2_neg(k: u64) -> Fraction {
        Fraction::from_big(Big::pow2_neg(k))
    }

    /// Half of this value (exact).
    pub fn half(&self) -> Fraction {
        self.div(2)
    }

    /// This value divided by `k` ≥ 1 (exact; 003 §14.7.4 rule 3's 1/p,
    /// rule 4's 1/2).
    pub fn div(&self, k: u32) -> Fraction {
        match self.0 {
            Repr::Word { mant: 0, .. } => Fraction::zero(),
            Repr::Word { exp, mant } if k.is_power_of_two() && exp <= u32::MAX - k.trailing_zeros() => {
                Fraction::word(u128::from(mant), exp + k.trailing_zeros()) // an even integer's twos cancel
            }
            _ => Fraction::from_big(self.big().div(k)),
        }
    }

    /// The nearest `f64` (what a floating-point implementation would hold;
    /// only the `energy-float` mutant uses it).
    pub fn to_f64(&self) -> f64 {
        self.big().to_f64()
    }

    /// The exact value of a finite, non-negative `f64` (every one is dyadic).
    pub fn from_f64(x: f64) -> Fraction {
        Fraction::from_big(Big::from_f64(x))
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Word { mant: 0, .. })
    }

    /// True for exactly one.
    pub fn is_one(&self) -> bool {
        matches!(self.0, Repr::Word { exp: 0, mant: 1 })
    }

    /// True when the denominator is a power of two (every value of a run
    /// whose P is one).
    pub fn is_dyadic(&self) -> bool {
        match &self.0 {
            Repr::Word { .. } => true,
            Repr::Big(b) => b.is_dyadic(),
        }
    }

    /// `self - o`, or `None` if that would be negative.
    pub fn checked_sub(&self, o: &Fraction) -> Option<Fraction> {
        if let Some((a, b, e)) = self.aligned(o) {
            return (a >= b).then(|| Fraction::word(a - b, e));
        }
        self.big().checked_sub(&o.big()).map(Fraction::from_big)
    }

    /// Both word-form numerators over `2^e`, `e` the larger exponent, if
    /// both are words and the shift fits 128 bits.
    #[inline]
    fn aligned(&self, o: &Fraction) -> Option<(u128, u128, u32)> {
        let (Repr::Word { exp: x, mant: a }, Repr::Word { exp: y, mant: b }) = (&self.0, &o.0) else { return None };
        let e = (*x).max(*y);
        let (sa, sb) = (e - x, e - y);
        (sa <= 64 && sb <= 64).then(|| (u128::from(*a) << sa, u128::from(*b) << sb, e))
    }

    /// `m / 2^e` normalised, in word form if it fits.
    #[inline]
    fn word(m: u128, e: u32) -> Fraction {
        if m == 0 {
            return Fraction::zero();
        }
        let z = m.trailing_zeros().min(e);
        match u64::try_from(m >> z) {
            Ok(mant) => Fraction(Repr::Word { exp: e - z, mant }),
            Err(_) => Fraction::from_big(Big::normalised(big_of(m), BigUint::one(), u64::from(e))),
        }
    }

    /// The big-integer form of this value.
    fn big(&self) -> std::borrow::Cow<'_, Big> {
        match &self.0 {
            Repr::Word { exp, mant } => {
                std::borrow::Cow::Owned(Big { mant: BigUint::from(*mant), odd: BigUint::one(), exp: u64::from(*exp) })
            }
            Repr::Big(b) => std::borrow::Cow::Borrowed(b),
        }
    }

    /// A big value that now fits machine words takes their form.
    fn settle(&mut self) {
        if let Repr::Big(b) = &self.0 {
            if let Some((exp, mant)) = word_of(b) {
                self.0 = Repr::Word { exp, mant };
            }
        }
    }

    /// A normalised big value in its one form: words if it has them.
    fn from_big(b: Big) -> Fraction {
        match word_of(&b) {
            Some((exp, mant)) => Fraction(Repr::Word { exp, mant }),
            None => Fraction(Repr::Big(Box::new(b))),
        }
    }
}

/// The machine-word form `(exp, mant)` of a normalised big value, if it has one.
fn word_of(b: &Big) -> Option<(u32, u64)> {
    let exp = u32::try_from(b.exp).ok().filter(|_| b.odd.is_one())?;
    Some((exp, b.mant.to_u64()?))
}

/// A `u128` as a big integer.
fn big_of(m: u128) -> BigUint {
    BigUint::from(m)
}

impl Clone for Fraction {
    fn clone(&self) -> Fraction {
        Fraction(match &self.0 {
            Repr::Word { exp, mant } => Repr::Word { exp: *exp, mant: *mant },
            Repr::Big(b) => Repr::Big(b.clone()),
        })
    }

    /// Reuses a big value's digits (the checker's copy of each holding).
    fn clone_from(&mut self, o: &Fraction) {
        match (&mut self.0, &o.0) {
            (Repr::Big(a), Repr::Big(b)) => a.clone_from(b),
            (a, _) => *a = o.clone().0,
        }
    }
}

impl fmt::Debug for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.big();
        f.debug_struct("Fraction").field("mant", &b.mant).field("odd", &b.odd).field("exp", &b.exp).finish()
    }
}

impl Add for &Fraction {
    type Output = Fraction;
    #[inline]
    fn add(self, o: &Fraction) -> Fraction {
        match self.aligned(o).and_then(|(a, b, e)| a.checked_add(b).map(|s| (s, e))) {
            Some((s, e)) => Fraction::word(s, e),
            None => Fraction::from_big(&*self.big() + &*o.big()),
        }
    }
}

impl Add for Fraction {
    type Output = Fraction;
    fn add(self, o: Fraction) -> Fraction {
        &self + &o
    }
}

impl AddAssign<&Fraction> for Fraction {
    /// In place: a big holding is not copied (issue 30).
    fn add_assign(&mut self, o: &Fraction) {
        match &mut self.0 {
            Repr::Big(b) => b.add_assign(&o.big()),
            _ => return *self = &*self + o,
        }
        self.settle();
    }
}

impl SubAssign<&Fraction> for Fraction {
    /// In place; panics if the result would be negative (energy is never
    /// negative).
    fn sub_assign(&mut self, o: &Fraction) {
        match &mut self.0 {
            Repr::Big(b) => assert!(b.sub_assign(&o.big()), "energy would become negative"),
            _ => return *self = &*self - o,
        }
        self.settle();
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
        match &self.0 {
            Repr::Word { exp: 0, mant } => write!(f, "{mant}"),
            Repr::Word { exp, mant } => write!(f, "{mant}/2^{exp}"),
            Repr::Big(b) => b.fmt(f),
        }
    }
}

/// The largest power of two `e` a parsed energy's denominator may have,
/// 2^18. A PE's energy halves at every work message it sends (003 §14.7.4
/// rule 4), so the exponents of a holding grow by about one per message
/// its PE sends: random-destination search over UTS `-t 0 -b 2000 -q 0.499
/// -m 2 -r 7` (541,787 nodes) at p = 4 reaches ≈ 1.3·10^5; a tree of 10^6
/// nodes at p = 4 can pass the limit, and its trace is then refused (exit 2).
/// The limit bounds the work of one addition (an exponent of 2^64 − 1 once
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
        s.parse::<Big>().map(Fraction::from_big)
    }
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

    /// Either form, from a seed: a word value, or one with an odd
    /// denominator (3) or an overflowing numerator (big form).
    fn value(m: u64, e: u32, kind: u8) -> (Fraction, Big) {
        let b = Big::normalised(BigUint::from(m), BigUint::one(), u64::from(e));
        let b = match kind % 4 {
            0 => b.div(3),
            1 => &b + &Big::normalised(BigUint::from(u64::MAX) << 3u32, BigUint::one(), u64::from(e)),
            _ => b,
        };
        (Fraction::from_big(b.clone()), b)
    }

    proptest::proptest! {
        /// The word form agrees with the big-integer form on every
        /// operation, and a value has one form (structural equality).
        #[test]
        fn words_agree_with_big_integers(
            (m1, e1, k1) in (proptest::prelude::any::<u64>(), 0u32..200, 0u8..8),
            (m2, e2, k2) in (proptest::prelude::any::<u64>(), 0u32..200, 0u8..8),
            halves in 0u32..70,
        ) {
            let ((a, ba), (b, bb)) = (value(m1, e1, k1), value(m2, e2, k2));
            let (mut h, mut bh) = (a.clone(), ba.clone());
            for _ in 0..halves {
                (h, bh) = (h.half(), bh.half());
            }
            let pairs = [
                (&a + &b, &ba + &bb),
                (&h + &b, &bh + &bb),
                (&(&a + &b) + &h, &(&ba + &bb) + &bh),
                (h.clone(), bh.clone()),
                (a.div(5), ba.div(5)),
            ];
            for (f, big) in pairs {
                proptest::prop_assert_eq!(f.clone(), Fraction::from_big(big.clone()));
                proptest::prop_assert_eq!(f.to_string(), big.to_string());
                proptest::prop_assert_eq!(f.is_zero(), big.is_zero());
                proptest::prop_assert_eq!(f.is_one(), big.is_one());
            }
            let sub = (&a + &h).checked_sub(&b);
            proptest::prop_assert_eq!(sub.clone(), (&ba + &bh).checked_sub(&bb).map(Fraction::from_big));
            let mut in_place = a.clone();
            in_place += &h;
            proptest::prop_assert_eq!(in_place.clone(), &a + &h);
            if let Some(sub) = sub {
                in_place -= &b;
                proptest::prop_assert_eq!(in_place, sub);
            }
            proptest::prop_assert_eq!(a.to_f64(), ba.to_f64());
        }
    }

    /// Words overflow into big integers and come back when they fit again.
    #[test]
    fn overflow_falls_back_and_returns() {
        let max = Fraction::from_big(Big::normalised(BigUint::from(u64::MAX), BigUint::one(), 0));
        let over = &max + &Fraction::one();
        assert!(matches!(over.0, Repr::Big(_)));
        assert_eq!(over.to_string(), "18446744073709551616");
        assert!(matches!((&over - &Fraction::one()).0, Repr::Word { .. }));
        let deep = Fraction::pow2_neg(u64::from(u32::MAX) + 1);
        assert!(matches!(deep.0, Repr::Big(_)));
        assert_eq!(Fraction::pow2_neg(64).half(), Fraction::pow2_neg(65));
        assert_eq!("6".parse::<Fraction>().unwrap().half().to_string(), "3", "an even integer's twos cancel");
        assert_eq!((&over + &over).half(), over, "in the big form too");
        assert_eq!(
            &Fraction::pow2_neg(1) + &Fraction::pow2_neg(100),
            "633825300114114700748351602689/2^100".parse().unwrap()
        );
    }
}
