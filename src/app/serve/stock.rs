//! The pool's stock: puzzles of every size and grade of the page's menu, made in advance by
//! this very generator and built into the binary (`puzzles/stock/stock.jsonl`, written by
//! `scripts/make_stock.py`), so that a kind the pool has not made yet (it makes three of each
//! of 40 kinds, a 30x30 fiendish in 10 s or more) still answers at once in a server's first
//! minutes.
//!
//! Each line holds a size, a grade (`null`: any), a seed and the puzzle: the body that
//! `/api/generate` answers for that size, grade and seed (the size's default fleet), byte for
//! byte, so that asking again with the seed gives the same puzzle. The pool serves a kind's
//! stock in turn, from a random place, only while it holds no fresh puzzle of the kind.

use bimaru_sat::usecase::generate::Size;
use bimaru_sat::usecase::grade::Grade;
use serde::Deserialize;

/// The stock's text, one JSON object a line.
const STOCK: &str = include_str!("../../../puzzles/stock/stock.jsonl");

/// A line of the stock.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StockLine {
    size: String,
    grade: Option<Grade>,
    seed: u64,
    puzzle: String,
}

/// A puzzle of the stock: its board size, grade (`None`: any), seed and text.
pub struct Stocked {
    pub rows: usize,
    pub cols: usize,
    pub grade: Option<Grade>,
    pub seed: u64,
    pub puzzle: String,
}

/// Every puzzle of the stock, in the file's order (read once, when the pool starts).
pub fn stocked() -> impl Iterator<Item = Stocked> {
    lines().map(|(size, line)| Stocked {
        rows: size.rows,
        cols: size.cols,
        grade: line.grade,
        seed: line.seed,
        puzzle: line.puzzle,
    })
}

/// Every line of the stock that reads, with its size. A line that does not is a defect of the
/// build, which the tests catch; here it is skipped.
fn lines() -> impl Iterator<Item = (Size, StockLine)> {
    STOCK.lines().filter_map(|text| {
        let line: StockLine = serde_json::from_str(text).ok()?;
        let size: Size = line.size.parse().ok()?;
        Some((size, line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads() {
        assert_eq!(lines().count(), STOCK.lines().count());
        assert!(STOCK.lines().count() >= 100);
    }
}
