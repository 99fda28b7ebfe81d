//! Property tests of the formats: round trips (IST -> JSON -> IST, CSC384 -> JSON -> CSC384,
//! Rubin, dzn and puzz.link write/read) reproduce the puzzle, and no parser panics on any
//! input: each either parses or returns an error with a line number.

use bimaru_sat::format::{self, Format, csc384, dzn, ist, json, puzzlink, rubin};
use bimaru_sat::{Clue, Dir, Fleet, Piece, Pos, Puzzle};
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        Just(Piece::Water),
        Just(Piece::Submarine),
        Just(Piece::Middle),
        Just(Piece::End(Dir::Up)),
        Just(Piece::End(Dir::Down)),
        Just(Piece::End(Dir::Left)),
        Just(Piece::End(Dir::Right)),
    ]
}

/// A puzzle on a `rows` x `cols` board with counts up to `max_count` (`None` sometimes when
/// `unknown`), a fleet of up to `max_len` lengths with at most 9 ships each, and typed clues.
fn puzzle(
    rows: usize,
    cols: usize,
    max_count: usize,
    unknown: bool,
    fleet: Option<Fleet>,
) -> impl Strategy<Value = Puzzle> {
    let count = move |max: usize| {
        let known = (0..=max).prop_map(Some);
        if unknown {
            prop_oneof![4 => known, 1 => Just(None)].boxed()
        } else {
            known.boxed()
        }
    };
    let fleet_strategy = match fleet {
        Some(f) => Just(f).boxed(),
        None => prop::collection::vec(0usize..10, 0..=rows.max(cols).min(7))
            .prop_map(Fleet::from_counts)
            .boxed(),
    };
    (
        prop::collection::vec(count(max_count.min(cols)), rows),
        prop::collection::vec(count(max_count.min(rows)), cols),
        fleet_strategy,
        prop::collection::vec((0..rows, 0..cols, piece()), 0..12),
    )
        .prop_map(|(rc, cc, fleet, clues)| {
            let mut p = Puzzle::new(rc, cc, fleet).unwrap();
            for (r, c, piece) in clues {
                let pos = Pos::new(r, c);
                if p.clue(pos).is_none() {
                    p.add_clue(pos, Clue::Piece(piece)).unwrap();
                }
            }
            p
        })
}

fn ist_puzzle() -> impl Strategy<Value = Puzzle> {
    puzzle(10, 10, 10, false, Some(Fleet::standard()))
}

fn csc_puzzle() -> impl Strategy<Value = (Puzzle, csc384::Dialect)> {
    (1usize..=12)
        .prop_flat_map(|n| puzzle(n, n, 9, true, None))
        .prop_flat_map(|p| {
            (
                Just(p),
                prop_oneof![
                    Just(csc384::Dialect::Letters),
                    Just(csc384::Dialect::Symbols)
                ],
            )
        })
}

fn general_puzzle() -> impl Strategy<Value = Puzzle> {
    (1usize..=14, 1usize..=14).prop_flat_map(|(r, c)| puzzle(r, c, 14, false, None))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn ist_json_ist_reproduces_the_input(p in ist_puzzle()) {
        let text = ist::write_puzzle(&p).unwrap();
        let via_json = json::parse(&json::write_puzzle(&ist::parse(&text).unwrap(), None), &bimaru_sat::Limits::default()).unwrap();
        prop_assert_eq!(&via_json, &p);
        prop_assert_eq!(ist::write_puzzle(&via_json).unwrap(), text);
    }

    #[test]
    fn csc384_json_csc384_reproduces_the_input((p, dialect) in csc_puzzle()) {
        let text = csc384::write_puzzle(&p, dialect).unwrap();
        let (parsed, choice) = csc384::parse(&text, &bimaru_sat::Limits::default()).unwrap();
        prop_assert_eq!(&parsed, &p);
        if choice.source == csc384::DialectSource::Cells {
            prop_assert_eq!(choice.dialect, dialect);
        }
        let via_json = json::parse(&json::write_puzzle(&parsed, None), &bimaru_sat::Limits::default()).unwrap();
        prop_assert_eq!(&via_json, &p);
        prop_assert_eq!(csc384::write_puzzle(&via_json, dialect).unwrap(), text);
    }

    #[test]
    fn dzn_and_json_round_trip_general_boards(p in general_puzzle()) {
        prop_assert_eq!(&dzn::parse(&dzn::write_puzzle(&p).unwrap()).unwrap(), &p);
        prop_assert_eq!(&json::parse(&json::write_puzzle(&p, None), &bimaru_sat::Limits::default()).unwrap(), &p);
    }

    #[test]
    fn rubin_round_trips_standard_fleet_boards(p in (1usize..=12, 1usize..=12).prop_flat_map(|(r, c)| puzzle(r, c, 12, false, Some(Fleet::standard())))) {
        let text = rubin::write_board("1", &p, None).unwrap();
        let boards = rubin::parse(&text, &bimaru_sat::Limits::default()).unwrap();
        prop_assert_eq!(boards.len(), 1);
        prop_assert_eq!(&boards[0].puzzle, &p);
    }

    #[test]
    fn puzzlink_urls_round_trip_general_boards(p in general_puzzle(), ships in prop::collection::vec((0usize..14, 0usize..14), 0..4)) {
        let mut p = p;
        for (r, c) in ships {
            let pos = Pos::new(r % p.rows(), c % p.cols());
            if p.clue(pos).is_none() {
                p.add_clue(pos, Clue::Ship).unwrap();
            }
        }
        let url = puzzlink::url(&p).unwrap();
        let again = puzzlink::parse(&url, &bimaru_sat::Limits::default()).unwrap();
        prop_assert_eq!(&again, &p);
        prop_assert_eq!(puzzlink::url(&again).unwrap(), url);
    }

    #[test]
    fn no_parser_panics_on_url_like_strings(text in "(https://puzz\\.link/p\\?)?battleship/[0-9]{1,3}/[0-9]{1,3}/[0-9a-z./+=%*$-]{0,40}") {
        check_all_parsers(&text);
    }

    #[test]
    fn no_parser_panics_and_errors_carry_a_line(text in "(?s).{0,300}") {
        check_all_parsers(&text);
    }

    #[test]
    fn no_parser_panics_on_mutated_valid_files(
        base in 0usize..SEEDS.len(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), "[0-9A-Za-z .,;=\\[\\]|?<>^\n\r\t-]{0,3}"), 1..6),
    ) {
        let mut text = SEEDS[base].to_string();
        for (at, insert) in edits {
            let chars: Vec<char> = text.chars().collect();
            let i = at.index(chars.len() + 1);
            let j = (i + 2).min(chars.len());
            text = chars[..i].iter().collect::<String>() + &insert + &chars[j..].iter().collect::<String>();
        }
        check_all_parsers(&text);
    }
}

pub const SEEDS: [&str; 11] = [
    "ROW\t2\t3\t2\t2\t3\t0\t1\t3\t2\t2\nCOLUMN\t6\t0\t1\t0\t2\t1\t3\t1\t2\t4\n2\nHINT\t0\t0\tT\nHINT\t6\t0\tW\n",
    "403201\r\n213103\r\n321\r\n000000\r\n000000\r\n000000\r\n000000\r\n000000\r\nS0000<",
    "Board ID: 7\nSTART-NEW-BOARD 3 4\nHint: 0 0 Left 1\nPLACESHIP 2 0 0 E\nPLACESHIP 1 2 3 S\nRow tallies: 2 0 1\nColumn tallies: 1 1 0 1\nDisplayBoardASCII: x\nLr.. 2\n.... 0\n...c 1\n1101\n====\n",
    "height = 3;\nwidth = 4;\nmaxship = 2;\nship = [1,1];\nhint = [|\n3, 0, 0, 0 |\n0, 0, 0, 0 |\n0, 0, 0, 0 |];\nrowsum = [2,0,1];\ncolsum = [1,1,0,1];\n",
    "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w/3/11g/21o/31s",
    "board 4 5\nrows 4 0 2 ?\ncols 1 2 1 2 1\ncruiser\ndestroyer\nsubmarine\nsubmarine\nconstraint 0 2 <\n",
    "letting LARGEST be 2\n$ c\nletting width be 3\nletting height be 2\nletting num_types be [1,1]\nletting row_tallies be [2,1]\nletting column_tallies be [1,1,1]\nletting hint be [ [6,7,7],\n\t[7,7,8], ]\n",
    "1)\n. < .\n= . O\n{1,1}\n{0,2,1}\n\n2)\n? . .\n. . +\n{1,1}\n{1,0,1}\n=====\n",
    "# Row clues\n2, ?, 0\n# Column clues\n1, ?\n# ships\n0, 1\n1, 0, <\n0, 2, #\n",
    "3 2 2 1 1 1\n1 2 1 1 3 2\n0 3 1 3 0 3\n",
    "{\"rows\": 1, \"cols\": 2, \"row_counts\": [1], \"col_counts\": [1, null], \"fleet\": {\"1\": 1}, \"clues\": [{\"row\": 0, \"col\": 0, \"piece\": \"water\"}]}",
];

fn check_all_parsers(text: &str) {
    let _ = format::detect(text);
    for &f in Format::parsed() {
        if let Err(e) = format::parse_document(text, f, &bimaru_sat::Limits::default()) {
            assert!(e.line >= 1, "{f:?}: error without a line: {e} for {text:?}");
            assert!(
                !e.to_string().contains('\n'),
                "{f:?}: multi-line message {e}"
            );
        }
    }
}
