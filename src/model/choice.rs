//! The choice enums a front end offers by name (`--card`, `--to`, the API's `format`, Python's
//! `encoding=`, ...): how each derives its names once (`choice!`), the one parser of a name
//! ([`parse_choice`], with [`UnknownChoice`] listing the names), and a set of choices
//! ([`Flags`], for `--ilp-cuts` and `--redundant`).
//!
//! A choice's name is its variant in kebab-case (`OneByOne` is `one-by-one`), the same in strum's
//! `IntoStaticStr`, `Display` and `EnumString`, and in serde where the enum is serialized; its
//! help is its doc comment (strum's `EnumMessage`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use strum::{EnumMessage, VariantArray};

/// Declares a choice enum: the enum as written (its doc comment, extra attributes and
/// derives such as `Default` with `#[default]`, `#[non_exhaustive]`, `PartialOrd`), plus the
/// derives every choice has (`Clone, Copy, Debug, PartialEq, Eq, Hash` and strum's
/// `VariantArray, IntoStaticStr, EnumString, EnumMessage, Display`) with kebab-case names.
/// `serde;` first adds `Serialize` and `Deserialize` with the same names.
macro_rules! choice {
    (serde; $($rest:tt)*) => {
        $crate::model::choice::choice! {
            #[derive(serde::Serialize, serde::Deserialize)]
            #[serde(rename_all = "kebab-case")]
            $($rest)*
        }
    };
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($body:tt)* }) => {
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            Hash,
            strum::VariantArray,
            strum::IntoStaticStr,
            strum::EnumString,
            strum::EnumMessage,
            strum::Display,
        )]
        #[strum(serialize_all = "kebab-case")]
        $(#[$meta])*
        $vis enum $name { $($body)* }

        impl $crate::model::choice::Choice for $name {}
    };
}
pub(crate) use choice;

/// What a choice enum offers (`choice!` implements it for each): every value
/// ([`VariantArray`]), its name (`Into<&'static str>`, `Display`, `FromStr`) and its doc comment
/// ([`EnumMessage`]).
pub trait Choice:
    VariantArray
    + EnumMessage
    + Into<&'static str>
    + std::str::FromStr
    + fmt::Display
    + Copy
    + Eq
    + Send
    + Sync
    + 'static
{
}

/// The names of every value of `T`, in declaration order.
pub(crate) fn names<T: Choice>() -> Vec<&'static str> {
    T::VARIANTS.iter().map(|&v| v.into()).collect()
}

/// A name that is none of a choice's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {given:?}; expected one of {}", .expected.join(", "))]
pub struct UnknownChoice {
    /// What was being chosen (`format`, `card`, `ilp_cuts entry`, ...).
    pub what: String,
    /// The name given.
    pub given: String,
    /// Every name of the choice.
    pub expected: Vec<&'static str>,
}

/// The value of `T` called `name` (exactly as its `Into<&'static str>` spells it), or an error
/// naming `what` and listing the names.
pub fn parse_choice<T: Choice>(what: &str, name: &str) -> Result<T, UnknownChoice> {
    name.parse::<T>().map_err(|_| UnknownChoice {
        what: what.to_owned(),
        given: name.to_owned(),
        expected: names::<T>(),
    })
}

/// A set of values of the choice `T` (the `--ilp-cuts` families, the `--redundant` kinds): one
/// bit per variant, in [`VariantArray::VARIANTS`] order.
pub struct Flags<T> {
    bits: u64,
    of: PhantomData<fn() -> T>,
}

impl<T: Choice> Flags<T> {
    /// The empty set.
    pub(crate) const NONE: Flags<T> = Flags {
        bits: 0,
        of: PhantomData,
    };

    fn bit(value: T) -> u64 {
        let index = T::VARIANTS
            .iter()
            .position(|&v| v == value)
            .expect("a value is one of the variants");
        assert!(index < 64, "a flag set holds at most 64 choices");
        1 << index
    }

    /// The set of these values.
    pub fn of(values: &[T]) -> Flags<T> {
        values.iter().copied().collect()
    }

    /// Whether `value` is in the set.
    pub(crate) fn has(self, value: T) -> bool {
        self.bits & Self::bit(value) != 0
    }

    /// Whether the set holds any value.
    pub(crate) fn any(self) -> bool {
        self.bits != 0
    }

    /// Whether the set is empty.
    pub(crate) fn is_none(self) -> bool {
        self.bits == 0
    }

    /// The values in the set, in declaration order.
    pub(crate) fn iter(self) -> impl Iterator<Item = T> {
        T::VARIANTS.iter().copied().filter(move |&v| self.has(v))
    }
}

impl<T: Choice> FromIterator<T> for Flags<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Self {
        Flags {
            bits: values.into_iter().fold(0, |bits, v| bits | Self::bit(v)),
            of: PhantomData,
        }
    }
}

// By hand: derives would ask `T` for each trait, where only the bits count.
impl<T> Clone for Flags<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Flags<T> {}

impl<T> Default for Flags<T> {
    fn default() -> Self {
        Flags {
            bits: 0,
            of: PhantomData,
        }
    }
}

impl<T> PartialEq for Flags<T> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}

impl<T> Eq for Flags<T> {}

impl<T> Hash for Flags<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}

impl<T: Choice> fmt::Debug for Flags<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Into::<&'static str>::into))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    choice! {
        serde;
        /// A test choice.
        #[derive(Default)]
        enum Pick {
            /// The first.
            #[default]
            OneByOne,
            /// The second.
            Cores,
        }
    }

    #[test]
    fn a_choice_has_one_kebab_case_name_everywhere() {
        assert_eq!(<&str>::from(Pick::OneByOne), "one-by-one");
        assert_eq!(Pick::OneByOne.to_string(), "one-by-one");
        assert_eq!(
            serde_json::to_string(&Pick::OneByOne).unwrap(),
            "\"one-by-one\""
        );
        assert_eq!(
            serde_json::from_str::<Pick>("\"cores\"").unwrap(),
            Pick::Cores
        );
        assert_eq!(Pick::default(), Pick::OneByOne);
        assert_eq!(Pick::Cores.get_documentation(), Some("The second."));
        assert_eq!(parse_choice::<Pick>("pick", "cores"), Ok(Pick::Cores));
        let e = parse_choice::<Pick>("pick", "Cores").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown pick \"Cores\"; expected one of one-by-one, cores"
        );
    }

    #[test]
    fn a_flag_set_holds_the_values_given() {
        let none: Flags<Pick> = Flags::default();
        assert!(none.is_none() && !none.any() && none == Flags::NONE);
        let cores = Flags::of(&[Pick::Cores]);
        assert!(cores.has(Pick::Cores) && !cores.has(Pick::OneByOne) && cores.any());
        assert_eq!(cores.iter().collect::<Vec<_>>(), [Pick::Cores]);
        assert_eq!(format!("{cores:?}"), "{\"cores\"}");
        assert_eq!(Flags::of(Pick::VARIANTS).iter().count(), 2);
    }
}
