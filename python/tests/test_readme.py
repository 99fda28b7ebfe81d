"""The README's Python block, run as written from the repository's top folder (issue 52: its
`pip install` left dask out, so its last line failed), and what `python -m bimaru_sat.dask`
says when dask is missing.

The block runs with this interpreter's `pip` and `python` first on the PATH, and with
CARGO_TARGET_DIR at the repository's target/, so that the package is rebuilt from what is
already compiled (as `.ci/run` installs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import bimaru_sat

ROOT = Path(__file__).resolve().parents[2]


def python_block() -> str:
    """The README's ```sh python block."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = lines.index("```sh python") + 1
    end = lines.index("```", start)
    return "\n".join(lines[start:end]) + "\n"


def test_the_readme_python_block_runs_as_written():
    block = python_block()
    assert 'pip install "./python[dask]"' in block
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    written = ROOT / "results.jsonl"
    try:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        # The second line prints the example's grid; the third writes a result per board.
        grid = bimaru_sat.solve(bimaru_sat.read_file(str(ROOT / "puzzles/ist-example.txt"))).grid
        assert str(grid) in done.stdout, done.stdout
        results = [json.loads(line) for line in written.read_text().splitlines()]
        assert len(results) == 20 and all(r["status"] == "found" for r in results)
    finally:
        written.unlink(missing_ok=True)


def test_without_dask_the_command_names_the_install_line():
    hide = (
        "import runpy, sys; sys.modules['distributed'] = None; "
        "sys.argv = ['bimaru_sat.dask', 'batch', 'puzzles']; "
        "runpy.run_module('bimaru_sat.dask', run_name='__main__', alter_sys=True)"
    )
    done = subprocess.run([sys.executable, "-c", hide], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "python -m bimaru_sat.dask: bimaru_sat.dask needs dask[distributed], which "
        "`pip install ./python` leaves out; install the package with its dask extra: "
        'pip install "./python[dask]" (or: pip install "dask[distributed]")'
    ]
    imported = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['distributed'] = None; import bimaru_sat.dask"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert imported.returncode != 0
    assert 'ImportError: bimaru_sat.dask needs dask[distributed]' in imported.stderr
