//! Text formats, one file each, plus the typed parse error they share. Parsers turn text into a
//! [`crate::Puzzle`]; writers turn a solved [`crate::Grid`] back into text.

mod board;

pub mod csc384;
pub mod detect;
pub mod dzn;
pub mod eprime;
mod error;
pub mod ist;
pub mod jolyonb;
pub mod json;
pub mod krazydad;
mod lex;

mod params;
mod parse;
pub mod pretty;

pub mod puzzlink;
pub mod render;
pub mod rpi;
pub mod rubin;
pub mod sxchx;
mod write;

use crate::model::choice::choice;
pub use board::{Board, Document};
pub use detect::{DetectError, detect};
pub use error::{Found, Inexpressible, ParseError, ParseErrorKind};
pub(crate) use lex::{
    ClueLines, FileBudget, HintLine, check_board, check_ship_len, comma_items, count_or_unknown,
    whole_number,
};
pub(crate) use lex::{Line, text_from_bytes, tokenize};
pub use parse::parse_document;
pub use write::Writer;

choice! {
    /// Input formats.
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Format {
        /// Detect the format from the text.
        #[default]
        Auto,
        /// IST Bimaru (`ROW`, `COLUMN`, hint count, `HINT r c X`).
        Ist,
        /// CSC384 `battle.py` (digit-string counts, fleet line, NxN cell grid).
        Csc384,
        /// Moshe Rubin's CSPLib boards (`START-NEW-BOARD`, `Hint:`, `PLACESHIP`), several per file.
        Rubin,
        /// MiniZinc solbat data (`.dzn`: `height`, `width`, `ship`, `hint`, `rowsum`, `colsum`).
        Dzn,
        /// JSON (see `docs/formats.md`).
        Json,
        /// A puzz.link / pzv.jp battleship URL (`https://puzz.link/p?battleship/W/H/...`).
        Puzzlink,
        /// RPI CSCI-1200 (`board R C`, `rows`, `cols`, ship names, `constraint r c ch`).
        Rpi,
        /// demystify's Essence′ parameters (`letting hint be [...]`, `.param`).
        Eprime,
        /// Krazydad boards as in Mrhube's `FreePuzzles.txt` (`N)`, cell rows, `{rows}`, `{cols}`).
        Krazydad,
        /// jolyonb/puzzles files (comma-separated clues, ship counts, `x, y, info` lines).
        Jolyonb,
        /// sxchx/Heuristic-Battleship-Solitaire (ship lengths, column counts, row counts).
        Sxchx,
    }
}

impl Format {
    /// The formats a parser reads (every value but [`Format::Auto`], which comes first).
    pub fn parsed() -> &'static [Format] {
        &<Format as strum::VariantArray>::VARIANTS[1..]
    }
}

choice! {
    /// Output formats for solutions (`--to`) and puzzles (`convert --to`).
    #[non_exhaustive]
    pub enum OutputFormat {
        /// IST: ten lines, hinted cells upper case, other ship cells lower case, water `.`.
        Ist,
        /// CSC384: N lines of N cells, in the input's cell dialect (see `--cells`).
        Csc384,
        /// Rubin's board drawing: rows with their tallies, then the column tallies.
        Rubin,
        /// The MiniZinc solbat model's own output (for solutions) or `.dzn` data (for puzzles).
        Dzn,
        /// JSON: the result schema for solutions, the puzzle schema for puzzles.
        Json,
        /// A Unicode board with the counts at the margins, for people.
        Pretty,
        /// A puzz.link URL (puzzles only: `convert --to puzzlink`; a URL cannot hold a solution).
        Puzzlink,
        /// RPI CSCI-1200: `Solution:`, the ships by name, the board in a box (solutions only).
        Rpi,
    }
}

impl OutputFormat {
    /// The output that follows an input format by default: its own, or the pretty drawing for
    /// formats that have no solution layout of their own (a URL cannot hold a solution).
    pub(crate) fn following(input: Format) -> OutputFormat {
        match input {
            Format::Auto | Format::Ist => OutputFormat::Ist,
            Format::Csc384 => OutputFormat::Csc384,
            Format::Rubin => OutputFormat::Rubin,
            Format::Dzn => OutputFormat::Dzn,
            Format::Json => OutputFormat::Json,
            Format::Rpi => OutputFormat::Rpi,
            Format::Puzzlink
            | Format::Eprime
            | Format::Krazydad
            | Format::Jolyonb
            | Format::Sxchx => OutputFormat::Pretty,
        }
    }
}
