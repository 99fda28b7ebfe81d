"""The Python API against the library's own answers and the command line's words."""

from __future__ import annotations

import _thread
import json
import pickle
import signal
import threading
import time
from pathlib import Path

import numpy
import pytest

import bimaru_sat
from bimaru_sat import BimaruError, LimitError, ParseError, TimeLimitError

from conftest import ROOT, run

IST = ROOT / "puzzles" / "ist-example.txt"


def ist() -> bimaru_sat.Puzzle:
    return bimaru_sat.read_file(str(IST))


def open_board(size: int) -> bimaru_sat.Puzzle:
    """A board with no counts and no clues: very many solutions."""
    return bimaru_sat.Puzzle(
        row_counts=[None] * size, col_counts=[None] * size, fleet={4: 1, 3: 2, 2: 3, 1: 4}
    )


def cli_message(cli, *args: str) -> str:
    done = run(cli, *args)
    assert done.returncode in (2, 4), done
    assert done.stdout == ""
    line = done.stderr.strip()
    assert line.startswith("bimaru-sat: ") or ": time limit" in line, line
    return line.removeprefix("bimaru-sat: ")


# --- reading and writing puzzles ---------------------------------------------------------


def test_acceptance_command_prints_the_ist_solution():
    result = bimaru_sat.solve(ist())
    assert result.grid.to("ist") == (ROOT / "puzzles" / "ist-example.out").read_text()


def test_read_text_detects_the_format_and_keeps_name_and_counts():
    p = bimaru_sat.read(IST.read_text())
    assert (p.rows, p.cols, p.format, p.name) == (10, 10, "ist", "<text>")
    assert p.row_counts == [2, 3, 2, 2, 3, 0, 1, 3, 2, 2]
    assert p.fleet == {1: 4, 2: 3, 3: 2, 4: 1}
    assert p.clues[(0, 0)] == "top" and p.clues[(6, 0)] == "water"
    assert p == ist()


def test_every_output_format_reads_back_to_the_same_puzzle():
    p = ist()
    for fmt in ["ist", "csc384", "rubin", "dzn", "json", "puzzlink"]:
        text = p.to(fmt)
        back = bimaru_sat.read(text, format=fmt)
        assert back.clues == p.clues and back.row_counts == p.row_counts, fmt
    url = p.to("puzzlink").strip()
    assert url.startswith("http") and bimaru_sat.read(url) == p


def test_puzzle_to_matches_convert(cli):
    for fmt in ["csc384", "json", "puzzlink"]:
        done = run(cli, "convert", "--to", fmt, str(IST))
        assert done.returncode == 0
        assert ist().to(fmt) == done.stdout


def test_puzzle_from_python_data_solves_to_the_same_grid():
    p = ist()
    made = bimaru_sat.Puzzle(
        row_counts=p.row_counts,
        col_counts=p.col_counts,
        fleet={4: 1, 3: 2, 2: 3, 1: 4},
        clues=[(r, c, piece) for (r, c), piece in p.clues.items()],
    )
    also = bimaru_sat.Puzzle(
        row_counts=p.row_counts, col_counts=p.col_counts, fleet=p.fleet, clues=p.clues
    )
    assert made == p == also
    assert bimaru_sat.solve(made).grid == bimaru_sat.solve(p).grid


def test_bad_python_data_raises():
    with pytest.raises(ValueError, match="not a piece"):
        bimaru_sat.Puzzle(row_counts=[1], col_counts=[1], fleet={1: 1}, clues={(0, 0): "boat"})
    with pytest.raises(ParseError, match="expected 2 row_counts entries, found 1"):
        bimaru_sat.Puzzle(rows=2, row_counts=[1], col_counts=[1], fleet={1: 1})
    with pytest.raises(BimaruError, match="outside|off the board|out of"):
        bimaru_sat.Puzzle(row_counts=[1], col_counts=[1], fleet={1: 1}, clues={(3, 3): "water"})


def test_rubin_file_reads_all_boards(corpus):
    boards = bimaru_sat.read_file_all(str(corpus / "csplib-014" / "SBInstances" / "unsolvable_for_csplib.txt"))
    assert len(boards) == 303
    assert all(b.id for b in boards) and all(b.solution is not None for b in boards)
    with pytest.raises(BimaruError, match="303 boards; read them with read_all"):
        bimaru_sat.read_file(str(corpus / "csplib-014" / "SBInstances" / "unsolvable_for_csplib.txt"))


# --- bad input: exceptions with the command line's messages -------------------------------


def test_parse_error_has_the_cli_message_and_position(cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("ROW 1 2\n")
    with pytest.raises(ParseError) as caught:
        bimaru_sat.read_file(str(bad))
    assert str(caught.value) == cli_message(cli, str(bad))
    assert (caught.value.file, caught.value.line) == (str(bad), 1)
    assert isinstance(caught.value, BimaruError)


def test_parse_error_column(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(IST.read_text().replace("HINT 0 0 T", "HINT 0 0 Q"))
    with pytest.raises(ParseError) as caught:
        bimaru_sat.read_file(str(bad))
    assert caught.value.line == 4 and caught.value.column is not None


def test_missing_file_has_the_cli_message(cli, tmp_path):
    missing = tmp_path / "missing.txt"
    with pytest.raises(BimaruError) as caught:
        bimaru_sat.read_file(str(missing))
    assert str(caught.value) == cli_message(cli, str(missing))


def test_unknown_format_names_the_argument():
    with pytest.raises(BimaruError, match="cannot tell the input format.*name it with format="):
        bimaru_sat.read("hello world")
    with pytest.raises(ValueError, match="unknown format"):
        bimaru_sat.read("x", format="nope")


def test_limits_raise_limit_error():
    huge = {"rows": 100000, "cols": 100000, "row_counts": [], "col_counts": [], "fleet": {"1": 1}}
    with pytest.raises(LimitError, match="over the limit"):
        bimaru_sat.read(json.dumps(huge))
    assert issubclass(LimitError, BimaruError) and issubclass(TimeLimitError, BimaruError)


def test_time_limit_raises_with_the_cli_message(cli):
    with pytest.raises(TimeLimitError) as caught:
        bimaru_sat.solve(ist(), time_limit=0.000001)
    said = f"{IST}: time limit of 0.000001 s reached"
    assert str(caught.value) == said + " before a solution was found"
    # The command line may stop even before it has read the file; the words are the same.
    assert cli_message(cli, "--time-limit", "0.000001", str(IST)).startswith(said)
    with pytest.raises(ValueError):
        bimaru_sat.solve(ist(), time_limit=-1)


def test_time_limit_after_some_solutions_keeps_them():
    result = bimaru_sat.solve(open_board(12), count=10**9, time_limit=0.5)
    assert result.stopped and not result.complete and result.count >= 1


def test_bad_engine_names():
    with pytest.raises(ValueError, match="unknown encoding"):
        bimaru_sat.solve(ist(), encoding="nope")
    with pytest.raises(ValueError, match="unique=True cannot be combined"):
        bimaru_sat.solve(ist(), unique=True, count=3)


# --- solving --------------------------------------------------------------------------------


def test_statuses_unique_found_several_unsat():
    assert bimaru_sat.solve(ist()).status == "found"
    unique = bimaru_sat.solve(ist(), unique=True)
    assert unique.status == "unique" and unique.complete and unique.count == 1
    several = bimaru_sat.solve(open_board(10), unique=True)
    assert several.status == "several" and several.count == 2
    unsat = bimaru_sat.Puzzle(row_counts=[1, 0], col_counts=[0, 0], fleet={1: 1})
    result = bimaru_sat.solve(unsat)
    assert result.status == "unsat" and result.grid is None and result.grids == []


def test_count_lists_distinct_grids_every_backend():
    small = bimaru_sat.Puzzle(row_counts=[1, 0, 1], col_counts=[1, 0, 1], fleet={1: 2})
    for backend in ["sat", "ilp"]:
        result = bimaru_sat.solve(small, count=10, backend=backend)
        assert result.status == "several" and result.complete and result.count == 2
        assert {tuple(g.to_list()) for g in result.grids} == {("c..", "...", "..c"), ("..c", "...", "c..")}


def test_threads_as_the_cli_has_them():
    """``threads`` is ``--threads``: any number gives the same grids, more than the machine's
    cores runs one thread a core, and a number below 1 is refused by name."""
    board = ROOT / "puzzles" / "generated" / "20x20" / "001.json"
    puzzle = bimaru_sat.read_file(str(board))
    one = bimaru_sat.solve(puzzle, unique=True, threads=1)
    assert one.status == "unique"
    for threads in [2, 4, 1000]:
        again = bimaru_sat.solve(puzzle, unique=True, threads=threads)
        grids = [g.to_list() for g in again.grids]
        assert (again.status, grids) == (one.status, [g.to_list() for g in one.grids]), threads
    for bad in [0, -1]:
        with pytest.raises(ValueError, match="threads"):
            bimaru_sat.solve(puzzle, threads=bad)


def test_every_encoding_agrees():
    expected = bimaru_sat.solve(ist()).grid
    for encoding in ["cell", "placement"]:
        for card in ["seq", "totalizer", "cardnet"]:
            assert bimaru_sat.solve(ist(), encoding=encoding, card=card, unique=True).grid == expected
    assert bimaru_sat.solve(ist(), backend="ilp", ilp_model="cell").grid == expected


def test_the_ilp_cuts_and_objectives_agree_and_unknown_names_are_refused(cli):
    expected = bimaru_sat.solve(ist()).grid
    for cuts in [[], ["line-lengths"], ["line-lengths", "segments", "ship-cells"]]:
        for objective in ["auto", "rank", "zero"]:
            result = bimaru_sat.solve(
                ist(), backend="ilp", unique=True, ilp_cuts=cuts, ilp_objective=objective
            )
            assert result.status == "unique" and result.grid == expected
    # The same answer as the command line's flags.
    args = ["--backend", "ilp", "--ilp-cuts", "segments", "--ilp-objective", "zero", str(IST)]
    grid = bimaru_sat.solve(ist(), backend="ilp", ilp_cuts=["segments"], ilp_objective="zero").grid
    assert str(grid) == run(cli, "--to", "pretty", *args).stdout
    with pytest.raises(ValueError, match="unknown ilp_cuts entry"):
        bimaru_sat.solve(ist(), backend="ilp", ilp_cuts=["clique"])
    with pytest.raises(ValueError, match="unknown ilp_objective"):
        bimaru_sat.solve(ist(), backend="ilp", ilp_objective="max")


def test_grid_indexing_lists_numpy_and_pretty(cli):
    grid = bimaru_sat.solve(ist()).grid
    rows = (ROOT / "puzzles" / "ist-example.out").read_text().lower().replace("w", ".").split()
    assert grid.to_list() == rows
    assert grid.shape == (10, 10)
    assert grid[0, 0] == "t" and grid[1, 6] == "m" and grid[5, 5] == "."
    with pytest.raises(IndexError):
        grid[10, 0]
    array = grid.to_numpy()
    assert array.shape == (10, 10) and array[3, 2] == "c"
    assert numpy.array_equal(array, numpy.array([list(r) for r in rows]))
    assert str(grid) == run(cli, "--to", "pretty", str(IST)).stdout


def test_stats_and_json():
    result = bimaru_sat.solve(ist(), unique=True, presolve=False)
    stats = result.stats
    assert stats["backend"] == "sat" and stats["variables"] > 0 and stats["constraints"] > 0
    line = json.loads(result.to_json())
    assert line["status"] == "unique" and line["grid"] == result.grid.to_list()


def test_keyboard_interrupt_stops_a_long_solve():
    # A process started in the background by a non-interactive shell inherits SIGINT ignored,
    # and Python then installs no handler for it: interrupt_main would do nothing and the
    # solve would run on. Ctrl-C gets its usual meaning for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            bimaru_sat.solve(open_board(14), count=10**9)
        timer.join()
        assert time.monotonic() - start < 60
    finally:
        signal.signal(signal.SIGINT, previous)


def test_the_gil_is_released_while_solving():
    ticks = []
    done = threading.Event()

    def solve():
        # Counting a board with billions of solutions until a time limit: the solve lasts the
        # limit however fast the engine gets (300 solutions once took long enough; now 3 ms).
        bimaru_sat.solve(open_board(10), count=10**6, time_limit=0.3)
        done.set()

    worker = threading.Thread(target=solve)
    worker.start()
    while not done.is_set():
        ticks.append(1)
        time.sleep(0.001)
    worker.join()
    # The main thread ran Python while the solve was going on: about 300 ticks of 1 ms when
    # the GIL is released, none or one when it is held.
    assert len(ticks) > 10


# --- the author's and researcher's functions -------------------------------------------------


def test_generate_matches_the_cli(cli):
    done = run(cli, "generate", "--size", "8x8", "--seed", "5", "--count", "3")
    lines = done.stdout.splitlines()
    assert len(lines) == 3
    for index, line in enumerate(lines):
        assert bimaru_sat._native.generated_line("8x8", None, 5, index) == line
        p = bimaru_sat.generate("8x8", seed=5, index=index)
        assert bimaru_sat.solve(p, unique=True).grid == p.solution
    with pytest.raises(ValueError):
        bimaru_sat.generate("0x0")


def test_generate_from_matches_the_cli(cli):
    path = ROOT / "puzzles" / "generated" / "10x10" / "001.json"
    given = bimaru_sat.read_file(str(path))
    for reduce in ["deduction", "unique", "propagation", "look-ahead"]:
        done = run(cli, "generate", "--from", str(path), "--reduce", reduce, "--seed", "4")
        made = bimaru_sat.generate_from(given, reduce=reduce, seed=4)
        assert made.solution == given.solution
        assert bimaru_sat.solve(made, unique=True).grid == given.solution
        printed = bimaru_sat.read(done.stdout)
        assert made.clues == printed.clues, reduce
        assert made.row_counts == printed.row_counts
        assert set(given.clues.items()) <= set(made.clues.items())
    # Without its solution and clues: several solutions.
    bare = json.loads(path.read_text())
    del bare["solution"]
    bare["clues"] = []
    with pytest.raises(bimaru_sat.BimaruError, match="several solutions"):
        bimaru_sat.generate_from(bimaru_sat.read(json.dumps(bare)))
    with pytest.raises(ValueError):
        bimaru_sat.generate_from(given, reduce="nope")


def test_grade_and_hint_match_the_cli(cli):
    graded = bimaru_sat.grade(ist())
    assert graded["status"] == "unique" and graded["grade"] == "easy"
    assert graded["line"] + "\n" == run(cli, "grade", str(IST)).stdout
    hinted = bimaru_sat.hint(ist())
    assert hinted["text"] + "\n" == run(cli, "hint", str(IST)).stdout
    assert (hinted["row"], hinted["col"], hinted["piece"]) == (0, 1, "water")
    follow = bimaru_sat.hint(ist(), hinted["state"])
    assert (follow["row"], follow["col"]) != (0, 1)
    assert bimaru_sat.grade(open_board(10))["status"] == "several"
    with pytest.raises(ParseError):
        bimaru_sat.hint(ist(), "??\n")


def test_dimacs_and_lp_match_the_cli(cli):
    assert bimaru_sat.to_dimacs(ist()) == run(cli, "--emit-dimacs", "-", "--emit-only", str(IST)).stdout
    placement = run(cli, "--emit-dimacs", "-", "--emit-only", "--encoding", "placement", "--card", "totalizer", str(IST))
    assert bimaru_sat.to_dimacs(ist(), encoding="placement", card="totalizer") == placement.stdout
    lp = run(cli, "--backend", "ilp", "--emit-lp", "-", "--emit-only", str(IST)).stdout
    assert bimaru_sat.to_lp(ist()) == lp


def test_compare_rows_are_flat_dicts():
    names = bimaru_sat.configs()
    assert "sat/cell/seq" in names and "ilp/ship" in names
    rows = bimaru_sat.compare([ist(), ist()], configs=["sat/cell/seq", "ilp/ship"])
    assert len(rows) == 4
    assert {r["config"] for r in rows} == {"sat/cell/seq", "ilp/ship"}
    assert all(r["agrees"] and r["verdict"] == "unique" for r in rows)
    assert {"puzzle", "reference", "solver", "ms", "variables", "constraints"} <= set(rows[0])
    with pytest.raises(ValueError, match="no configuration"):
        bimaru_sat.compare([ist()], configs=["sat/nope"])


def test_svg_pictures():
    p = ist()
    grid = bimaru_sat.solve(p).grid
    assert p._repr_svg_().startswith("<svg") and grid._repr_svg_().startswith("<svg")
    assert bimaru_sat.svg(p, grid) == grid.svg() != p.svg() == bimaru_sat.svg(p)


def test_pickle_keeps_puzzle_name_and_id(corpus):
    boards = bimaru_sat.read_file_all(str(corpus / "csplib-014" / "SBInstances" / "unsolvable_for_csplib.txt"))
    back = pickle.loads(pickle.dumps(boards[7]))
    assert back == boards[7] and back.id == boards[7].id and back.name == boards[7].name
    assert back.solution == boards[7].solution


def test_read_all_reads_json_lines_of_several_puzzles():
    lines = "".join(bimaru_sat._native.generated_line("8x8", None, 2, i) + "\n" for i in range(3))
    boards = bimaru_sat.read_all(lines)
    assert len(boards) == 3
    assert [b.solution for b in boards] == [bimaru_sat.generate("8x8", seed=2, index=i).solution for i in range(3)]
    with pytest.raises(BimaruError, match="holds 3 boards"):
        bimaru_sat.read(lines)


def test_the_stubs_declare_every_native_name():
    import ast

    stub = ast.parse((Path(bimaru_sat.__file__).parent / "_native.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    native = {n for n in dir(bimaru_sat._native) if not n.startswith("__")}
    assert native <= declared, native - declared
    assert (Path(bimaru_sat.__file__).parent / "py.typed").exists()
    assert set(bimaru_sat.__all__) <= native | {"solve", "compare"}


def test_a_huge_generate_size_names_the_boards_cell_count():
    # Issue 34: the board is checked first, as the command line checks it, not its fleet.
    with pytest.raises(LimitError) as caught:
        bimaru_sat.generate("100000x100000")
    message = str(caught.value)
    assert message.startswith("size: the board has 10000000000 cells"), message
    assert "ship of length" not in message


def test_the_docstrings_name_flags_that_exist():
    # Issue 34: `solve` is titled solve in help(), and the export docstrings name real flags.
    assert bimaru_sat.solve.__name__ == "solve"
    assert "--emit-dimacs" in bimaru_sat.to_dimacs.__doc__
    assert "--emit-lp" in bimaru_sat.to_lp.__doc__
    for function in (bimaru_sat.to_dimacs, bimaru_sat.to_lp):
        assert "--dimacs-only" not in function.__doc__
        assert "`bimaru-sat --lp`" not in function.__doc__


def test_the_local_cluster_snippet_of_the_docs_guards_its_main():
    # Issue 34: saved as a script, the snippet must not start clusters in its workers.
    text = (Path(__file__).parents[2] / "docs" / "python.md").read_text()
    snippet = text.split("from distributed import Client, LocalCluster", 1)[1].split("```", 1)[0]
    assert 'if __name__ == "__main__":' in snippet
    body = snippet.split('if __name__ == "__main__":', 1)[1]
    assert "LocalCluster(" in body and "LocalCluster(" not in snippet.split("if __name__", 1)[0]


def test_negative_numbers_raise_value_error_naming_the_argument():
    # Issue 34: not an OverflowError that names no argument.
    puzzle = bimaru_sat.generate("6x6", seed=2)
    cases = [
        ("seed", lambda: bimaru_sat.generate("6x6", seed=-1)),
        ("index", lambda: bimaru_sat.generate("6x6", index=-3)),
        ("count", lambda: bimaru_sat.solve(puzzle, count=-2)),
        ("repeat", lambda: bimaru_sat.compare([puzzle], repeat=-1)),
        ("row_counts", lambda: bimaru_sat.Puzzle(row_counts=[-1, 0], col_counts=[0, 0], fleet={})),
        ("fleet", lambda: bimaru_sat.Puzzle(row_counts=[0, 0], col_counts=[0, 0], fleet={1: -1})),
        ("seed", lambda: bimaru_sat.generate("6x6", seed=2**64)),
    ]
    for name, call in cases:
        with pytest.raises(ValueError) as caught:
            call()
        assert str(caught.value).startswith(f"{name}: "), (name, str(caught.value))


def test_configs_are_named_once_and_each_can_be_chosen():
    # Issue 52: the CaDiCaL configurations had the varisat ones' names.
    names = bimaru_sat.configs()
    assert len(names) == len(set(names)), names
    for name in names:
        rows = bimaru_sat.compare([ist()], configs=[name], limit=10)
        assert [r["config"] for r in rows] == [name]
        assert rows[0]["verdict"] == "unique", rows[0]
    cadical = [n for n in names if n.endswith("/cadical")]
    if cadical:
        row = bimaru_sat.compare([ist()], configs=[cadical[0]])[0]
        assert row["solver"] == "cadical"


def test_count_below_one_gets_one_message():
    for count in (-1, 0):
        with pytest.raises(ValueError) as caught:
            bimaru_sat.solve(ist(), count=count)
        assert str(caught.value) == (
            f"count: {count} is less than 1; expected a whole number of at least 1"
        )


def test_a_result_of_one_grid_says_so():
    assert repr(bimaru_sat.solve(ist())) == "<Result found (1 grid)>"
