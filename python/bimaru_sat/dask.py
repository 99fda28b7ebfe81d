"""Corpus-scale runs on a Dask cluster (``pip install "./python[dask]"``).

``batch``, ``compare`` and ``generate`` spread their work over a ``distributed.Client``, one
task per file (``batch``, ``compare``) or per puzzle (``generate``), and give the results back
in input order as they come. Every task calls the same library code as the command line:

- ``batch`` yields the JSON lines ``bimaru-sat batch`` writes, line for line (the
  ``encode_ms`` and ``solve_ms`` statistics are times and differ from run to run);
- ``generate`` yields the JSON lines ``bimaru-sat generate --count N`` writes;
- ``compare`` yields one dict per puzzle and configuration (``bimaru_sat.compare``'s rows).

A file that cannot be read, or a board that hits the time limit, is a result line like any
other. A worker that dies takes its tasks with it; the scheduler runs them again elsewhere, so
no board is lost or reported twice.

As a command::

    python -m bimaru_sat.dask batch puzzles/generated/20x20 > results.jsonl
    python -m bimaru_sat.dask batch DIR --scheduler tcp://HOST:8786
    python -m bimaru_sat.dask generate --count 1000 --size 15x15 --seed 7 > puzzles.jsonl
    python -m bimaru_sat.dask compare DIR --config sat/cell/seq --config ilp/ship

Without ``--scheduler`` a ``LocalCluster`` of one single-threaded worker process per core is
started (``--workers`` changes the number). Paths are read by the workers: on a cluster, give
paths that every worker sees (a shared file system).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
import uuid
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO

from . import _native

# dask is an extra of the package: without it, say how to get it rather than fail on the import.
_MISSING = (
    "bimaru_sat.dask needs dask[distributed], which `pip install ./python` leaves out; "
    'install the package with its dask extra: pip install "./python[dask]" '
    '(or: pip install "dask[distributed]")'
)
try:
    from distributed import Client, LocalCluster, as_completed
except ImportError as missing:
    if __name__ == "__main__":
        print(f"python -m bimaru_sat.dask: {_MISSING}", file=sys.stderr)
        sys.exit(2)
    raise ImportError(_MISSING) from missing

__all__ = ["batch", "compare", "generate", "local_client", "main"]


def _batch_task(path: str, listed: bool, options: Dict[str, Any]) -> List[str]:
    """The batch lines of one file (runs on a worker)."""
    return _native.batch_lines(path, listed, **options)


def _generate_task(index: int, options: Dict[str, Any]) -> str:
    """Puzzle ``index`` of a generate run, as its JSON line (runs on a worker)."""
    return _native.generated_line(index=index, **options)


def _compare_task(path: str, listed: bool, options: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The compare rows of every board of one file (runs on a worker). A file found in a
    folder that holds no puzzle (an answer file, notes) is skipped, as ``compare`` skips it."""
    try:
        puzzles = _native.read_file_all(path)
    except _native.ParseError:
        raise
    except _native.BimaruError:
        # Format detection did not know the file.
        if listed:
            return []
        raise
    return _native.compare_puzzles(puzzles, **options)


class _Progress:
    """``what: done/total`` on standard error, redrawn in place."""

    def __init__(self, total: int, what: str, shown: bool, stream: TextIO) -> None:
        self.total, self.what, self.shown, self.stream = total, what, shown, stream
        self.done = 0
        self.start = time.monotonic()
        self._draw()

    def _draw(self) -> None:
        if self.shown:
            elapsed = time.monotonic() - self.start
            self.stream.write(f"\r{self.what}: {self.done}/{self.total} ({elapsed:.1f} s)")
            self.stream.flush()

    def step(self) -> None:
        self.done += 1
        self._draw()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _client(client: Optional[Client]) -> Client:
    if client is not None:
        return client
    from distributed import default_client

    return default_client()


def _ordered(
    client: Client,
    func: Any,
    args: Sequence[tuple],
    what: str,
    progress: Optional[bool],
) -> Iterator[Any]:
    """Runs ``func(*a)`` for every ``a`` of ``args`` on the cluster and yields the results in
    the order of ``args`` as soon as each and all before it are done."""
    run = uuid.uuid4().hex[:8]
    keys = [f"bimaru-{what}-{run}-{i}" for i in range(len(args))]
    futures = [
        client.submit(func, *a, key=key, pure=False) for a, key in zip(args, keys)
    ]
    position = {f.key: i for i, f in enumerate(futures)}
    shown = _Progress(
        len(futures),
        what,
        sys.stderr.isatty() if progress is None else progress,
        sys.stderr,
    )
    done: Dict[int, Any] = {}
    following = 0
    try:
        for future in as_completed(futures):
            done[position[future.key]] = future.result()
            future.release()
            shown.step()
            while following in done:
                yield done.pop(following)
                following += 1
    finally:
        shown.close()
        # A run given up early (an exception, a generator closed) leaves no task behind.
        unfinished = [f for f in futures if not f.done()]
        if unfinished:
            client.cancel(unfinished)


def batch(
    paths: Iterable[str],
    *,
    client: Optional[Client] = None,
    progress: Optional[bool] = None,
    **options: Any,
) -> Iterator[str]:
    """The JSON lines of ``bimaru-sat batch PATHS``, in order, solved on the cluster.

    ``options`` are those of :func:`bimaru_sat.solve` plus ``format`` (``backend``,
    ``unique``, ``count``, ``time_limit``, ``encoding``, ``card``, ``solver``,
    ``ilp_model``, ``ilp_solver``, ``ilp_cuts``, ``ilp_objective``, ``presolve``, ``race``,
    ``threads``).
    ``progress`` (default: when standard error is a terminal) shows files done on standard
    error.
    """
    client = _client(client)
    files = _native.batch_files([str(p) for p in paths])
    args = [(path, listed, options) for path, listed in files]
    for lines in _ordered(client, _batch_task, args, "batch", progress):
        yield from lines


def generate(
    count: int,
    *,
    size: str = "10x10",
    fleet: Optional[str] = None,
    seed: int = 1,
    grade: Optional[str] = None,
    client: Optional[Client] = None,
    progress: Optional[bool] = None,
) -> Iterator[str]:
    """The JSON lines of ``bimaru-sat generate --count COUNT --size SIZE --seed SEED``
    (``--fleet``, ``--grade``), in order, one puzzle per task."""
    client = _client(client)
    options = {"size": size, "fleet": fleet, "seed": seed, "grade": grade}
    args = [(index, options) for index in range(count)]
    yield from _ordered(client, _generate_task, args, "generate", progress)


def compare(
    paths: Iterable[str],
    *,
    configs: Optional[Sequence[str]] = None,
    limit: int = 2,
    repeat: int = 1,
    client: Optional[Client] = None,
    progress: Optional[bool] = None,
) -> Iterator[Dict[str, Any]]:
    """The rows of :func:`bimaru_sat.compare` for every board of ``paths`` (files, and the
    files of folders), in order, one file per task."""
    client = _client(client)
    files = _native.batch_files([str(p) for p in paths])
    options = {"configs": list(configs) if configs else None, "limit": limit, "repeat": repeat}
    args = [(path, listed, options) for path, listed in files]
    for rows in _ordered(client, _compare_task, args, "compare", progress):
        yield from rows


def local_client(workers: Optional[int] = None, **cluster: Any) -> Client:
    """A client of a new ``LocalCluster``: ``workers`` single-threaded worker processes (by
    default one per core); ``cluster`` goes to ``LocalCluster``. Close it with
    ``client.close(); client.cluster.close()``, or use it in a ``with`` block (which
    leaves the cluster running)."""
    options: Dict[str, Any] = {
        "n_workers": workers or os.cpu_count() or 1,
        "threads_per_worker": 1,
        "processes": True,
        "dashboard_address": None,
    }
    options.update(cluster)
    return Client(LocalCluster(**options))


def _exit_of(statuses: Dict[str, int], unique: bool) -> int:
    """The command line's exit code for the statuses of a batch."""
    if statuses.get("error"):
        return 2
    if statuses.get("timeout"):
        return 4
    if statuses.get("unsat"):
        return 1
    if unique and statuses.get("multiple"):
        return 3
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bimaru_sat.dask",
        description="bimaru-sat's batch, compare and generate spread over a Dask cluster; "
        "JSON lines on standard output, in input order.",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the scheduler to use (tcp://HOST:8786); default: a LocalCluster on this machine",
    )
    parser.add_argument(
        "--workers", type=int, help="worker processes of the LocalCluster (default: one per core)"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on standard error (default: when it is a terminal)",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    b = commands.add_parser("batch", help="solve every board of files and folders")
    b.add_argument("paths", nargs="+")
    b.add_argument("--format")
    b.add_argument("--backend", default="sat", choices=["sat", "ilp"])
    b.add_argument("--unique", action="store_true")
    b.add_argument("--count", type=int)
    b.add_argument("--time-limit", type=float, metavar="SECONDS")
    b.add_argument("--encoding")
    b.add_argument("--card")
    b.add_argument("--solver")
    b.add_argument("--ilp-model")
    b.add_argument("--ilp-solver")
    b.add_argument(
        "--ilp-cuts",
        type=lambda text: [kind for kind in text.split(",") if kind],
        metavar="KIND[,KIND...]",
    )
    b.add_argument("--ilp-objective")
    b.add_argument("--no-presolve", action="store_true")
    b.add_argument("--no-race", action="store_true")

    c = commands.add_parser("compare", help="every configuration on every board")
    c.add_argument("paths", nargs="+")
    c.add_argument("--config", action="append", dest="configs", metavar="NAME")
    c.add_argument("--limit", type=int, default=2)
    c.add_argument("--repeat", type=int, default=1)

    g = commands.add_parser("generate", help="puzzles with unique solutions, as JSON lines")
    g.add_argument("--count", type=int, default=1)
    g.add_argument("--size", default="10x10")
    g.add_argument("--fleet")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--grade")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m bimaru_sat.dask``: returns the exit code."""
    args = _parser().parse_args(argv)
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        # The workers' own log lines (a heartbeat missed while the cluster shuts down) are
        # not the command's output; failures reach the client as exceptions.
        client = local_client(args.workers, silence_logs=logging.CRITICAL)
    out = sys.stdout
    start = time.monotonic()
    try:
        if args.command == "batch":
            unique = args.unique
            statuses: Dict[str, int] = {}
            lines = batch(
                args.paths,
                client=client,
                progress=args.progress,
                format=args.format,
                backend=args.backend,
                unique=unique,
                count=args.count,
                time_limit=args.time_limit,
                encoding=args.encoding,
                card=args.card,
                solver=args.solver,
                ilp_model=args.ilp_model,
                ilp_solver=args.ilp_solver,
                ilp_cuts=args.ilp_cuts,
                ilp_objective=args.ilp_objective,
                presolve=not args.no_presolve,
                race=not args.no_race,
            )
            boards = 0
            for line in lines:
                out.write(line + "\n")
                status = json.loads(line)["status"]
                statuses[status] = statuses.get(status, 0) + 1
                boards += 1
            summary = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
            print(
                f"batch: {boards} boards: {summary or 'none'}; {time.monotonic() - start:.3f} s",
                file=sys.stderr,
            )
            return _exit_of(statuses, unique)
        if args.command == "compare":
            agree = True
            for row in compare(
                args.paths,
                configs=args.configs,
                limit=args.limit,
                repeat=args.repeat,
                client=client,
                progress=args.progress,
            ):
                out.write(json.dumps(row, sort_keys=True) + "\n")
                agree = agree and bool(row["agrees"])
            return 0 if agree else 1
        for line in generate(
            args.count,
            size=args.size,
            fleet=args.fleet,
            seed=args.seed,
            grade=args.grade,
            client=client,
            progress=args.progress,
        ):
            out.write(line + "\n")
        return 0
    except _native.BimaruError as e:
        print(e, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    finally:
        cluster = None if args.scheduler else client.cluster
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    # The tasks must be the importable module's functions, not this script's copies, for the
    # workers to find them.
    from bimaru_sat.dask import main as _main

    sys.exit(_main())
