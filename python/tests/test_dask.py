"""bimaru_sat.dask on a LocalCluster of two worker processes: the same lines as the command
line, in order, and none lost or doubled when a worker dies mid-run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

distributed = pytest.importorskip("distributed")

import bimaru_sat  # noqa: E402
import bimaru_sat.dask as bdask  # noqa: E402

from conftest import ROOT, run  # noqa: E402

FOLDER = "puzzles/generated/20x20"


def comparable(line: str) -> dict:
    """A result line without its times, which differ from run to run."""
    result = json.loads(line)
    for field in ("encode_ms", "solve_ms"):
        result.get("stats", {}).pop(field, None)
    return result


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        yield client


@pytest.fixture(scope="module")
def reference(cli):
    done = run(cli, "batch", "--no-race", FOLDER)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 20
    return lines


def test_command_matches_cli_batch_line_for_line(cli, reference):
    done = subprocess.run(
        [sys.executable, "-m", "bimaru_sat.dask", "--workers", "2", "batch", "--no-race", FOLDER],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert [comparable(l) for l in done.stdout.splitlines()] == [comparable(l) for l in reference]
    assert "batch: 20 boards: 20 found" in done.stderr


def test_batch_on_a_client_is_in_input_order(client, reference, monkeypatch):
    monkeypatch.chdir(ROOT)
    lines = list(bdask.batch([FOLDER], client=client, race=False, progress=False))
    assert [comparable(l) for l in lines] == [comparable(l) for l in reference]


def test_a_failed_file_is_a_result_line(client, tmp_path, cli):
    good = ROOT / "puzzles" / "ist-example.txt"
    (tmp_path / "a.txt").write_text(good.read_text())
    (tmp_path / "b.txt").write_text("ROW 1 2\n")
    (tmp_path / "c.txt").write_text(good.read_text())
    lines = list(bdask.batch([str(tmp_path / n) for n in ["a.txt", "b.txt", "c.txt"]], client=client, race=False))
    expected = run(cli, "batch", "--no-race", *[str(tmp_path / n) for n in ["a.txt", "b.txt", "c.txt"]])
    assert expected.returncode == 2
    assert [comparable(l) for l in lines] == [comparable(l) for l in expected.stdout.splitlines()]
    assert json.loads(lines[1])["status"] == "error"


def test_time_limit_is_a_result_line(client, tmp_path):
    board = bimaru_sat.Puzzle(row_counts=[None] * 14, col_counts=[None] * 14, fleet={4: 1, 3: 2, 2: 3, 1: 4})
    (tmp_path / "open.json").write_text(board.to("json"))
    lines = list(bdask.batch([str(tmp_path)], client=client, count=10**9, time_limit=0.2))
    assert len(lines) == 1 and json.loads(lines[0])["status"] == "timeout"


def test_generate_matches_cli(client, cli):
    done = run(cli, "generate", "--size", "8x8", "--seed", "9", "--count", "6")
    lines = list(bdask.generate(6, size="8x8", seed=9, client=client))
    assert lines == done.stdout.splitlines()


def test_compare_rows_in_order(client, monkeypatch):
    monkeypatch.chdir(ROOT)
    files = [f"puzzles/generated/10x10/{i:03}.{ext}" for i in range(1, 4) for ext in ("json", "txt")]
    configs = ["sat/cell/seq", "sat/placement/totalizer"]
    rows = list(bdask.compare(files, configs=configs, client=client))
    assert [(r["puzzle"], r["config"]) for r in rows] == [(f, c) for f in files for c in configs]
    assert all(r["agrees"] and r["verdict"] == "unique" for r in rows)


def test_a_worker_killed_mid_run_loses_no_board(client, reference, monkeypatch):
    monkeypatch.chdir(ROOT)
    pids = client.run(os.getpid)
    lines = bdask.batch([FOLDER], client=client, race=False, progress=False)
    got = [next(lines)]
    # Kill a worker while it works on a board.
    victim = None
    for _ in range(2000):
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            victim = busy[0]
            break
        time.sleep(0.005)
    assert victim is not None, "no worker was busy"
    os.kill(pids[victim], signal.SIGKILL)
    got.extend(lines)
    names = [json.loads(l)["file"] for l in got]
    assert len(names) == len(set(names)) == 20
    assert [comparable(l) for l in got] == [comparable(l) for l in reference]
