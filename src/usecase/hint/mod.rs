//! Next-step hints: one open cell whose content is forced by the puzzle and the cells already
//! filled, with the rules that force it in words. The puzzle is encoded (cell model) with every
//! clause tagged by the rule it states — a row or column count, a fleet count, a clue, a filled
//! cell, the no-touch rule, the ship-shape rules — and our own propagator finds the forced cell
//! and walks back through the reasons to collect the rules. When propagation decides nothing new,
//! one-step look-ahead is tried, then a case split on a second cell, and last a search by the
//! SAT solver that names a minimal set of the rules it needed. A hint's text names cells from 1
//! ("row 3, column 5") and summarises long lists of rules ([`RULES_SHOWN`]). Every step checks
//! the deadline of [`hint`], and the formula is capped at `MAX_CLAUSES`
//! ([`crate::encode::sat::formula`]).

mod search;
mod state;
mod words;

pub use crate::model::rule::{Rule, cell_name, content_name};
pub(crate) use search::check_state;
pub use search::{HintError, HintOutcome, hint};
pub use state::State;
pub use words::{Hint, Method, RULES_SHOWN, Split};

#[cfg(test)]
mod tests {
    use super::words::{cell_title, rule_list};
    use super::*;

    use crate::model::deadline::{Budget, Deadline};
    use crate::model::puzzle::{Clue, Piece, Pos};

    use crate::format::ist;

    const EXAMPLE: &str = "ROW 2 3 2 2 3 0 1 3 2 2\nCOLUMN 6 0 1 0 2 1 3 1 2 4\n6\n\
                           HINT 0 0 T\nHINT 1 6 M\nHINT 3 2 C\nHINT 6 0 W\nHINT 8 8 B\nHINT 9 5 C\n";

    #[test]
    fn state_round_trip_and_errors() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let state = State::from_puzzle(&puzzle);
        let text = state.write();
        assert!(text.starts_with("t?????????\n"));
        assert_eq!(State::parse(&text, 10, 10).unwrap(), state);
        let e = State::parse("??\n?z\n", 2, 2).unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(2)));
        assert!(State::parse("??\n", 2, 2).is_err());
    }

    #[test]
    fn a_passed_deadline_stops_the_search() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let state = State::from_puzzle(&puzzle);
        let past = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(
            hint(&puzzle, &state, &Budget::until(past)),
            Err(HintError::TimeLimit)
        );
        assert!(hint(&puzzle, &state, &Budget::default()).is_ok());
    }

    #[test]
    fn first_hint_of_the_example_is_water_next_to_the_top_end_or_a_zero_row() {
        let puzzle = ist::parse(EXAMPLE).unwrap();
        let HintOutcome::Hint(h) =
            hint(&puzzle, &State::from_puzzle(&puzzle), &Budget::default()).unwrap()
        else {
            panic!("open cells remain")
        };
        assert_eq!(h.method, Method::Propagation);
        assert!(!h.rules.is_empty());
        let text = h.to_string();
        assert!(text.starts_with(&cell_title(h.pos)), "{text}");
        assert!(text.starts_with("Row "), "{text}");
    }

    #[test]
    fn long_lists_of_rules_are_summarised_nearest_cells_first() {
        let near = Pos::new(0, 0);
        let mut rules = vec![Rule::NoTouch, Rule::RowCount { row: 0, count: 2 }];
        for i in 0..20 {
            rules.push(Rule::Filled {
                pos: Pos::new(i, i),
                content: Clue::Piece(Piece::Water),
            });
        }
        rules.push(Rule::Clue {
            pos: Pos::new(9, 9),
            clue: Clue::Piece(Piece::Submarine),
        });
        let text = rule_list(&rules, near, RULES_SHOWN);
        assert!(text.contains("row 1 holds 2 ship cells"), "{text}");
        assert!(
            text.contains("the clue submarine at row 10, column 10"),
            "{text}"
        );
        assert!(text.contains("already filled at row 1, column 1"), "{text}");
        assert!(!text.contains("row 20, column 20"), "{text}");
        assert!(
            text.ends_with("and 17 other cells already filled"),
            "{text}"
        );
    }

    #[test]
    fn a_case_split_names_the_second_cell_and_both_branches() {
        let hint = Hint {
            pos: Pos::new(2, 4),
            content: Clue::Piece(Piece::Water),
            method: Method::CaseSplit,
            rules: vec![Rule::NoTouch, Rule::ColCount { col: 0, count: 1 }],
            split: Some(Split {
                pos: Pos::new(3, 0),
                if_ship: vec![Rule::NoTouch],
                if_water: vec![Rule::ColCount { col: 0, count: 1 }],
            }),
        };
        assert_eq!(
            hint.to_string(),
            "Row 3, column 5 is water: were it a ship part, row 4, column 1 would break the \
             rules either way. As a ship part, these could not all hold: ships never touch, not \
             even diagonally. As water, these could not: column 1 holds 1 ship cell."
        );
    }
}
