"""bench/convert.py runs (LiteLLM or not: it is an optional bench dependency) and finds no
silent loss of ours: every fact of its conversation that an output no longer carries has a
drift warning saying so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_conversion_bench_runs_and_finds_no_silent_loss() -> None:
    command = [sys.executable, str(ROOT / "bench" / "convert.py")]
    command += ["--sizes", "10,30", "--repeats", "1", "--bare", "--facts-size", "60"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for target in ("anthropic", "gemini", "bedrock-converse"):
        assert any(line.split()[:2] == [target, "30"] for line in out.splitlines()), out
    floors = out.split("Floors, us per message")[1].splitlines()
    assert any(line.split()[:1] == ["30"] for line in floors), out
    assert "Our silent losses: none" in out
    assert "OUR SILENT LOSS" not in out
