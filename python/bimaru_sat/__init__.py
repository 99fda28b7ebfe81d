"""Battleship-solitaire (Bimaru) puzzles solved through SAT and ILP.

The Python face of the bimaru-sat library: every answer comes from the Rust crate (the same
readers, encoders, solvers and verifier as the ``bimaru-sat`` command), nothing is solved in
Python. See docs/python.md.

>>> import bimaru_sat
>>> puzzle = bimaru_sat.read_file("puzzles/ist-example.txt")
>>> result = bimaru_sat.solve(puzzle, unique=True)
>>> result.status
'unique'
>>> print(result.grid)            # drawn as `bimaru-sat --to pretty` draws it
"""

from __future__ import annotations

from . import _native
from ._native import (
    BimaruError,
    Grid,
    LimitError,
    ParseError,
    Puzzle,
    Result,
    TimeLimitError,
    _puzzle_from_json,
    configs,
    generate,
    generate_from,
    grade,
    hint,
    read,
    read_all,
    read_file,
    read_file_all,
    svg,
    to_dimacs,
    to_lp,
)

# `compare` is the name of the library's own function; the native module calls it
# compare_puzzles to keep them apart.
from ._native import compare_puzzles as compare
from ._native import solve

__all__ = [
    "BimaruError",
    "Grid",
    "LimitError",
    "ParseError",
    "Puzzle",
    "Result",
    "TimeLimitError",
    "compare",
    "configs",
    "generate",
    "generate_from",
    "grade",
    "hint",
    "read",
    "read_all",
    "read_file",
    "read_file_all",
    "solve",
    "svg",
    "to_dimacs",
    "to_lp",
]
