//! Parsing a document in a named format within [`Limits`]: each parser checks a board's size
//! and fleet before allocating for them, and every board is checked whole once built.

use super::board::{Board, Document};
use super::error::ParseError;
use super::{
    Format, csc384, dzn, eprime, ist, jolyonb, json, krazydad, params, puzzlink, rpi, rubin, sxchx,
};
use crate::model::limits::Limits;

/// Parses `text` in `format`, which must not be [`Format::Auto`] (use [`super::detect()`] first),
/// within `limits`: each parser checks a board's size and fleet before allocating for them, and
/// every board is checked whole once built.
pub fn parse_document(text: &str, format: Format, limits: &Limits) -> Result<Document, ParseError> {
    // A UTF-8 byte-order mark, as Notepad saves one, is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let one = |format, puzzle| Document {
        format,
        boards: vec![Board::whole(puzzle)],
        dialect: None,
    };
    let many = |format, boards| Document {
        format,
        boards,
        dialect: None,
    };
    let doc = match format {
        Format::Auto | Format::Ist => ist::parse(text).map(|p| one(Format::Ist, p)),
        Format::Csc384 => csc384::parse(text, limits).map(|(puzzle, dialect)| Document {
            format,
            boards: vec![Board::whole(puzzle)],
            dialect: Some(dialect),
        }),
        Format::Rubin => rubin::parse(text, limits).map(|b| many(format, b)),
        Format::Dzn => params::parse(text, &dzn::SYNTAX, limits).map(|p| one(format, p)),
        Format::Puzzlink => puzzlink::parse(text, limits).map(|p| one(format, p)),
        Format::Rpi => rpi::parse(text, limits).map(|p| one(format, p)),
        Format::Eprime => params::parse(text, &eprime::SYNTAX, limits).map(|p| one(format, p)),
        Format::Jolyonb => jolyonb::parse(text, limits).map(|p| one(format, p)),
        Format::Sxchx => sxchx::parse(text, limits).map(|p| one(format, p)),
        Format::Krazydad => krazydad::parse(text, limits).map(|b| many(format, b)),
        Format::Json => json::parse_all(text, limits).map(|b| many(format, b)),
    }?;
    for board in &doc.boards {
        limits
            .puzzle(&board.puzzle)
            .map_err(|e| ParseError::at_line(board.line, e.into()))?;
    }
    Ok(doc)
}
