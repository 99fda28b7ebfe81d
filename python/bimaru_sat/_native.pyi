"""Type stubs of the native half of bimaru_sat (python/src/lib.rs)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

Clues = Union[Mapping[Tuple[int, int], str], Sequence[Tuple[int, int, str]]]

class BimaruError(Exception):
    """Every error of bimaru_sat: bad input, unusable files, solver failures."""

class ParseError(BimaruError):
    """A text breaks its format."""

    file: str
    line: Optional[int]
    column: Optional[int]

class LimitError(BimaruError):
    """An input exceeds a size limit."""

class TimeLimitError(BimaruError):
    """The time limit was reached before an answer."""

class Puzzle:
    """A Bimaru puzzle: size, counts (None where unknown), fleet and revealed cells."""

    def __init__(
        self,
        *,
        row_counts: Sequence[Optional[int]],
        col_counts: Sequence[Optional[int]],
        fleet: Mapping[int, int],
        clues: Optional[Clues] = None,
        rows: Optional[int] = None,
        cols: Optional[int] = None,
        solution: Optional[Sequence[str]] = None,
    ) -> None: ...
    @property
    def rows(self) -> int: ...
    @property
    def cols(self) -> int: ...
    @property
    def row_counts(self) -> List[Optional[int]]: ...
    @property
    def col_counts(self) -> List[Optional[int]]: ...
    @property
    def fleet(self) -> Dict[int, int]: ...
    @property
    def clues(self) -> Dict[Tuple[int, int], str]: ...
    @property
    def id(self) -> Optional[str]: ...
    @property
    def name(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def solution(self) -> Optional[Grid]: ...
    def to(self, format: str) -> str: ...
    def svg(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Grid:
    """A solved grid: grid[r, c] is `.`, `c`, `t`, `b`, `l`, `r` or `m`."""

    @property
    def shape(self) -> Tuple[int, int]: ...
    def __getitem__(self, key: Tuple[int, int]) -> str: ...
    def to_list(self) -> List[str]: ...
    def to_numpy(self) -> numpy.ndarray: ...
    def to(self, format: str) -> str: ...
    def svg(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class Result:
    """What solve found."""

    @property
    def status(self) -> str: ...
    @property
    def grid(self) -> Optional[Grid]: ...
    @property
    def grids(self) -> List[Grid]: ...
    @property
    def count(self) -> int: ...
    @property
    def complete(self) -> bool: ...
    @property
    def stopped(self) -> bool: ...
    @property
    def stats(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...

def read(text: str, format: Optional[str] = None) -> Puzzle: ...
def read_all(text: str, format: Optional[str] = None) -> List[Puzzle]: ...
def read_file(path: str, format: Optional[str] = None) -> Puzzle: ...
def read_file_all(path: str, format: Optional[str] = None) -> List[Puzzle]: ...
def _puzzle_from_json(text: str, name: str = "<Puzzle>", id: Optional[str] = None) -> Puzzle: ...
def solve(
    puzzle: Puzzle,
    *,
    backend: str = "sat",
    unique: bool = False,
    count: Optional[int] = None,
    time_limit: Optional[float] = None,
    encoding: Optional[str] = None,
    card: Optional[str] = None,
    solver: Optional[str] = None,
    ilp_model: Optional[str] = None,
    ilp_solver: Optional[str] = None,
    ilp_cuts: Optional[List[str]] = None,
    ilp_objective: Optional[str] = None,
    presolve: bool = True,
    race: bool = True,
    threads: Optional[int] = None,
) -> Result: ...
def generate(
    size: str = "10x10",
    *,
    fleet: Optional[str] = None,
    seed: int = 1,
    index: int = 0,
    grade: Optional[str] = None,
) -> Puzzle: ...
def generate_from(
    puzzle: Puzzle,
    *,
    reduce: Optional[str] = None,
    seed: int = 1,
    index: int = 0,
) -> Puzzle: ...
def generated_line(
    size: str = "10x10",
    fleet: Optional[str] = None,
    seed: int = 1,
    index: int = 0,
    grade: Optional[str] = None,
) -> str: ...
def grade(puzzle: Puzzle, *, time_limit: Optional[float] = None) -> Dict[str, Any]: ...
def hint(
    puzzle: Puzzle, state: Optional[str] = None, *, time_limit: Optional[float] = None
) -> Dict[str, Any]: ...
def to_dimacs(puzzle: Puzzle, *, encoding: Optional[str] = None, card: Optional[str] = None) -> str: ...
def to_lp(puzzle: Puzzle, *, ilp_model: Optional[str] = None) -> str: ...
def svg(puzzle: Puzzle, solution: Optional[Grid] = None) -> str: ...
def configs() -> List[str]: ...
def compare_puzzles(
    puzzles: Sequence[Puzzle],
    *,
    configs: Optional[Sequence[str]] = None,
    limit: int = 2,
    repeat: int = 1,
) -> List[Dict[str, Any]]: ...
def batch_files(paths: Sequence[str]) -> List[Tuple[str, bool]]: ...
def batch_lines(
    path: str,
    listed: bool = False,
    *,
    format: Optional[str] = None,
    backend: str = "sat",
    unique: bool = False,
    count: Optional[int] = None,
    time_limit: Optional[float] = None,
    encoding: Optional[str] = None,
    card: Optional[str] = None,
    solver: Optional[str] = None,
    ilp_model: Optional[str] = None,
    ilp_solver: Optional[str] = None,
    ilp_cuts: Optional[List[str]] = None,
    ilp_objective: Optional[str] = None,
    presolve: bool = True,
    race: bool = True,
    threads: Optional[int] = None,
) -> List[str]: ...
def _solve_all_in_rust(puzzles: Sequence[Puzzle], *, unique: bool = False) -> float: ...
