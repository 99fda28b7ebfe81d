//! The crate's own Boolean variables and literals, in which every formula is written: the
//! encoders, the clause sinks, unit propagation, hints, grades and the generator name no
//! solver's types. A solver adapter (`solver/varisat.rs`, `solver/cadical.rs`) converts them
//! to its own at its door.
//!
//! Variables are numbered from 0 (`Var::index`); DIMACS numbers them from 1
//! (`Var::to_dimacs`). A literal is a variable and a sign, stored as one integer (its
//! `Lit::code`: twice the variable's index, plus one when negative), the representation most
//! solvers use, so converting is a copy.

use std::{fmt, ops};

/// A Boolean variable, numbered from 0.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var {
    index: u32,
}

impl Var {
    /// The largest index a variable may have: room is left for a sign bit and tags.
    pub(crate) const MAX_INDEX: usize = (u32::MAX >> 4) as usize;

    /// The variable with the 0-based `index` (at most [`Var::MAX_INDEX`]).
    #[inline]
    pub(crate) fn from_index(index: usize) -> Var {
        debug_assert!(index <= Var::MAX_INDEX, "variable index {index} too large");
        Var {
            index: index as u32,
        }
    }

    /// The 0-based index.
    #[inline]
    pub(crate) const fn index(self) -> usize {
        self.index as usize
    }

    /// The 1-based number DIMACS gives the variable.
    #[inline]
    pub(crate) fn to_dimacs(self) -> isize {
        self.index as isize + 1
    }

    /// The literal of this variable that is true when the variable is `polarity`.
    #[inline]
    pub(crate) fn lit(self, polarity: bool) -> Lit {
        Lit::from_var(self, polarity)
    }

    /// The variable itself, as a literal.
    #[inline]
    pub fn positive(self) -> Lit {
        self.lit(true)
    }

    /// The negation of the variable.
    #[inline]
    pub(crate) fn negative(self) -> Lit {
        self.lit(false)
    }
}

/// Its DIMACS number.
impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// Its DIMACS number.
impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A literal: a variable or its negation. Literals order by `Lit::code`: by variable, the
/// positive literal first.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit {
    code: u32,
}

impl Lit {
    /// The literal of `var` that is true when `var` is `polarity`.
    #[inline]
    pub(crate) fn from_var(var: Var, polarity: bool) -> Lit {
        Lit {
            code: (var.index << 1) | u32::from(!polarity),
        }
    }

    /// The literal of the variable with the 0-based `index` that is true when the variable is
    /// `polarity`.
    #[inline]
    #[cfg(test)]
    pub(crate) fn from_index(index: usize, polarity: bool) -> Lit {
        Lit::from_var(Var::from_index(index), polarity)
    }

    /// The literal whose [`Lit::code`] is `code`.
    #[inline]
    pub(crate) fn from_code(code: usize) -> Lit {
        debug_assert!(
            code <= 2 * Var::MAX_INDEX + 1,
            "literal code {code} too large"
        );
        Lit { code: code as u32 }
    }

    /// The literal of DIMACS number `number` (not 0): its absolute value numbers the variable
    /// from 1, its sign is the literal's.
    #[inline]
    #[cfg(test)]
    pub(crate) fn from_dimacs(number: isize) -> Lit {
        debug_assert!(number != 0);
        Lit::from_index(number.unsigned_abs() - 1, number > 0)
    }

    /// The DIMACS number: the variable's, negated for a negative literal.
    #[inline]
    pub fn to_dimacs(self) -> isize {
        let number = self.var().to_dimacs();
        if self.is_negative() { -number } else { number }
    }

    /// The 0-based index of the literal's variable.
    #[inline]
    pub(crate) fn index(self) -> usize {
        (self.code >> 1) as usize
    }

    /// The literal's variable.
    #[inline]
    pub(crate) fn var(self) -> Var {
        Var {
            index: self.code >> 1,
        }
    }

    /// Whether the literal negates its variable.
    #[inline]
    pub(crate) fn is_negative(self) -> bool {
        self.code & 1 != 0
    }

    /// Whether the literal is its variable.
    #[inline]
    pub(crate) fn is_positive(self) -> bool {
        !self.is_negative()
    }

    /// Twice the variable's index, plus one for a negative literal: a dense index over
    /// literals (a watch list per literal, say).
    #[inline]
    pub(crate) fn code(self) -> usize {
        self.code as usize
    }
}

impl ops::Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        Lit {
            code: self.code ^ 1,
        }
    }
}

/// `lit ^ true` is `!lit`; `lit ^ false` is `lit`.
impl ops::BitXor<bool> for Lit {
    type Output = Lit;

    #[inline]
    fn bitxor(self, flip: bool) -> Lit {
        Lit {
            code: self.code ^ u32::from(flip),
        }
    }
}

impl From<Var> for Lit {
    #[inline]
    fn from(var: Var) -> Lit {
        var.positive()
    }
}

/// Its DIMACS number.
impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// Its DIMACS number.
impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_numbers_signs_and_codes() {
        let v = Var::from_index(4);
        assert_eq!(v.to_dimacs(), 5);
        assert_eq!(v.positive().to_dimacs(), 5);
        assert_eq!(v.negative().to_dimacs(), -5);
        assert_eq!(Lit::from_dimacs(-5), v.negative());
        assert_eq!(Lit::from_dimacs(5), v.positive());
        assert_eq!(!v.positive(), v.negative());
        assert_eq!(v.positive() ^ true, v.negative());
        assert_eq!(v.negative() ^ false, v.negative());
        assert_eq!(v.positive().code(), 8);
        assert_eq!(v.negative().code(), 9);
        assert_eq!(Lit::from_code(9), v.negative());
        assert_eq!(v.negative().var(), v);
        assert_eq!(v.negative().index(), 4);
        assert!(v.lit(true).is_positive() && v.lit(false).is_negative());
        assert_eq!(format!("{:?} {}", v.negative(), v), "-5 5");
        let mut lits = vec![
            Var::from_index(1).negative(),
            v.positive(),
            Var::from_index(1).positive(),
        ];
        lits.sort();
        assert_eq!(format!("{lits:?}"), "[2, -2, 5]");
    }
}
