//! Flags whose value is one of a library enum's choices (`--card`, `--to`, `--backend`, ...).
//! The library names its choices, lists them and documents them (`bimaru_sat::usecase::Choice`);
//! this file turns that into clap's possible values, with each variant's doc comment as its
//! help, so that the library needs no clap.

use bimaru_sat::usecase::Choice;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::ffi::OsStr;
use std::marker::PhantomData;

/// The parser of a flag whose value is a `T`.
#[derive(Clone)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// The value parser for a flag of type `T` (`#[arg(value_parser = choice::<T>())]`).
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// The name of `value` on the command line, for `default_value = name(...)`.
pub fn name<T: Choice>(value: T) -> &'static str {
    value.into()
}

/// The help of a choice as clap derives it from a doc comment: the first paragraph on one
/// line, without its closing period.
fn help(doc: &str) -> String {
    let paragraph = doc.trim().split("\n\n").next().unwrap_or_default();
    let line = paragraph
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    line.strip_suffix('.').unwrap_or(&line).to_owned()
}

fn possible_values<T: Choice>() -> impl Iterator<Item = PossibleValue> {
    T::VARIANTS.iter().map(|v| {
        let value = PossibleValue::new(name(*v));
        match v.get_documentation() {
            Some(doc) => value.help(help(doc)),
            None => value,
        }
    })
}

impl<T: Choice + Clone + 'static> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // clap's own parser of possible values, for its own error messages.
        let parsed =
            PossibleValuesParser::new(possible_values::<T>()).parse_ref(cmd, arg, value)?;
        Ok(parsed
            .parse::<T>()
            .unwrap_or_else(|_| unreachable!("a possible value names a variant")))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(possible_values::<T>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bimaru_sat::usecase::CardKind;

    #[test]
    fn help_is_the_first_paragraph_on_one_line_without_its_period() {
        assert_eq!(
            help(" Sequential counter.\n More words.\n\n Another paragraph."),
            "Sequential counter. More words"
        );
        assert_eq!(name(CardKind::Seq), "seq");
        let names: Vec<String> = possible_values::<CardKind>()
            .map(|p| p.get_name().to_owned())
            .collect();
        assert_eq!(names, ["seq", "totalizer", "cardnet"]);
    }
}
