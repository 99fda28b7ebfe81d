//! puzz.link URLs (pzprjs, variety `battleship`): `https://puzz.link/p?battleship/W/H/<body>`.
//! The body holds the column counts then the row counts (pzprjs' `number16` encoding, `g`-`z`
//! for runs of unknown counts), the cell clues in the same encoding, and the fleet after a `/`
//! (`//c`, `//d`, `//e` presets or an explicit list of pieces). Only straight fleets can be read:
//! pzprjs' tetromino and pentomino fleets, and the corner clues they use, are refused. The
//! findings behind this module, with the pzprjs files they come from, are in `docs/formats.md`.

mod codes;
mod read;
mod write;

pub use read::{looks_like_url, parse};
pub use write::{url, write_puzzle};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::limits::Limits;

    use crate::model::puzzle::{Clue, Dir, Fleet, Piece, Pos, Puzzle};

    const PZPRJS: &str = "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c";

    #[test]
    fn reads_the_pzprjs_test_url_and_writes_it_back() {
        let p = parse(PZPRJS, &Limits::default()).unwrap();
        assert_eq!((p.rows(), p.cols()), (6, 6));
        assert_eq!(
            p.col_counts(),
            &[None, Some(1), Some(2), None, None, Some(2)]
        );
        assert_eq!(
            p.row_counts(),
            &[None, Some(3), Some(0), None, Some(3), None]
        );
        assert_eq!(p.fleet().counts(), &[3, 2, 1]);
        assert_eq!(p.clue(Pos::new(0, 5)), Some(Clue::Piece(Piece::Water)));
        assert_eq!(
            p.clue(Pos::new(3, 0)),
            Some(Clue::Piece(Piece::End(Dir::Right)))
        );
        assert_eq!(p.clue_count(), 2);
        assert_eq!(url(&p).unwrap(), PZPRJS);
    }

    #[test]
    fn every_prefix_reads_the_same_puzzle() {
        let want = parse(PZPRJS, &Limits::default()).unwrap();
        for prefix in [
            "http://puzz.link/p?",
            "puzz.link/p?",
            "https://pzv.jp/p.html?",
            "http://pzv.jp/p.html?",
            "pzv.jp/p.html?",
            "",
        ] {
            let text = format!("\n  {prefix}battleship/6/6/g12h2g30g3gk0r3w//c \r\n");
            assert_eq!(parse(&text, &Limits::default()).unwrap(), want, "{prefix}");
            assert!(looks_like_url(&text), "{prefix}");
        }
    }

    #[test]
    fn pieces_counts_and_runs_round_trip() {
        let mut p = Puzzle::new(
            vec![Some(17), None, Some(0)],
            vec![None; 40],
            Fleet::from_counts(vec![0, 1, 0, 0, 0, 0, 2]),
        )
        .unwrap();
        p.add_clue(Pos::new(2, 39), Clue::Ship).unwrap();
        p.add_clue(Pos::new(1, 0), Clue::Piece(Piece::Middle))
            .unwrap();
        let u = url(&p).unwrap();
        assert_eq!(
            u,
            "https://puzz.link/p?battleship/40/3/zz-11g0zz5zzzx./3/21o/71vo/71vo"
        );
        assert_eq!(parse(&u, &Limits::default()).unwrap(), p);
    }

    fn err(text: &str) -> String {
        parse(text, &Limits::default()).unwrap_err().to_string()
    }

    #[test]
    fn refusals_name_the_column() {
        assert_eq!(
            err("battleship/2/2/gggg7ggg//c"),
            "line 1, column 20: not a straight-ship fleet: corner clue 7 at (0, 0) (tetromino and pentomino fleets)"
        );
        assert_eq!(
            err("battleship/2/5/m7hai89g/2/22u/22u"),
            "line 1, column 17: not a straight-ship fleet: corner clue 7 at (0, 0) (tetromino and pentomino fleets)"
        );
        assert_eq!(
            err("battleship/2/2/zz//p"),
            "line 1, column 16: expected 4 counts, found 20"
        );
        assert_eq!(
            err("battleship/2/2/jj//p"),
            "line 1, column 20: not a straight-ship fleet: the pentomino preset //p"
        );
        assert_eq!(
            err("battleship/3/1/ji/1/22u"),
            "line 1, column 21: not a straight-ship fleet: piece 22u (2x2)"
        );
        assert_eq!(
            err("battleship/2000/2000/g"),
            "line 1, column 12: the board has 4000000 cells (rows x columns), over the limit of 1000000"
        );
        assert_eq!(
            err("battleship/2/2/gggg"),
            "line 1, column 20: unexpected end of input, expected a cell clue (0-6, . or a run letter g-z)"
        );
        assert_eq!(
            err("https://example.com/p?battleship/2/2/kh//c"),
            "line 1, column 1: expected a puzz.link battleship URL (https://puzz.link/p?battleship/W/H/...), found \"https://example.com/p?battleship/2/2/kh/…\""
        );
        assert_eq!(
            err("puzz.link/p?nurikabe/2/2/kh"),
            "line 1, column 13: unknown word \"nurikabe\", expected one of battleship (the only puzz.link variety read)"
        );
        assert_eq!(
            err("battleship/2/2/3ggg//c"),
            "line 1, column 16: column count 3 is out of range (at most 2)"
        );
        assert_eq!(
            err("battleship/2/2/jj//c x"),
            "line 1, column 22: expected nothing after the URL, found \"x\""
        );
    }
}
