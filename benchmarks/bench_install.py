"""The Action's install, cold and warm: action.yml's own steps replayed on this machine.

    python benchmarks/bench_install.py [--runs 3]

`cold` is a runner with no cache: the "Locate graphiq-ci's venv" step (the key) and the
"Install graphiq-ci" step (a venv, pip install of this checkout), run from action.yml's
`run:` text in bash. `warm` is a runner whose cache holds that venv: the key step, then
actions/cache's restore of the archive its save step made (`tar` through `zstdmt --long=30`,
as actions/cache does on Linux), then the first `graphiq-ci --help`. Medians of --runs.

What a laptop cannot replay is the download of the archive from GitHub's cache service; the
archive's size is printed so it can be added at the runner's bandwidth.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_quality import git_describe  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")
STEP_ENV = {  # what the runner substitutes for the `${{ }}` of these steps
    "GRAPHIQ_ACTION_PATH": str(ROOT),
    "GRAPHIQ_PYTHON": sys.executable,
}


def step(name_or_id: str) -> str:
    """The `run:` text of one of action.yml's steps."""
    steps = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["runs"]["steps"]
    return str(next(s["run"] for s in steps if name_or_id in (s.get("id"), s.get("name"))))


def run_step(script: str, runner_temp: Path, extra: dict[str, str]) -> dict[str, str]:
    """Run one step in bash as the runner would; returns what it wrote to GITHUB_OUTPUT."""
    out = runner_temp / "github_output"
    out.write_text("")
    env = {**os.environ, **STEP_ENV, **extra, "RUNNER_TEMP": str(runner_temp),
           "RUNNER_OS": "Linux", "GITHUB_OUTPUT": str(out)}
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the step failed:\n{script}\n{done.stderr}")
    return dict(line.split("=", 1) for line in out.read_text().splitlines() if "=" in line)


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-install-"))
    try:
        runner = tmp / "runner"
        runner.mkdir()
        key_s, outputs = timed(lambda: run_step(step("venv"), runner, {}))
        venv = Path(outputs["dir"])
        install_s, _ = timed(lambda: run_step(
            step("Install graphiq-ci"), runner,
            {"GRAPHIQ_VENV": str(venv), "PIP_NO_CACHE_DIR": "1"}))
        exe = venv / "bin" / "graphiq-ci"
        first_s, _ = timed(lambda: subprocess.run([str(exe), "--help"], check=True,
                                                  capture_output=True))
        cold = key_s + install_s + first_s
        archive = tmp / "cache.tzst"  # actions/cache's save, Linux
        subprocess.run(["tar", "--posix", "-cf", str(archive), "-P", "-C", str(runner),
                        "--use-compress-program", "zstdmt -T0 --long=30", venv.name],
                       check=True)
        warm: list[float] = []
        parts: list[tuple[float, float, float]] = []
        for _ in range(args.runs):
            shutil.rmtree(venv)
            k, _ = timed(lambda: run_step(step("venv"), runner, {}))
            r, _ = timed(lambda: subprocess.run(
                ["tar", "-xf", str(archive), "-P", "-C", str(runner),
                 "--use-compress-program", "unzstd --long=30"], check=True))
            f, _ = timed(lambda: subprocess.run([str(exe), "--help"], check=True,
                                                capture_output=True))
            warm.append(k + r + f)
            parts.append((k, r, f))
        w = statistics.median(warm)
        k, r, f = (statistics.median(p[i] for p in parts) for i in range(3))
        size = archive.stat().st_size / 2**20
        venv_size = sum(p.stat().st_size for p in venv.rglob("*") if p.is_file()) / 2**20
        print(f"graphiq-ci {git_describe()}; action.yml's install steps, replayed; "
              f"median of {args.runs} warm runs")
        print("| run | key | install / restore | first `--help` | total |")
        print("|---|---|---|---|---|")
        print(f"| cold (no cache, pip from the index) | {key_s:.2f} s | {install_s:.2f} s | "
              f"{first_s:.2f} s | {cold:.2f} s |")
        print(f"| warm (venv restored from the cache archive) | {k:.2f} s | {r:.2f} s | "
              f"{f:.2f} s | {w:.2f} s |")
        print(f"warm / cold: {w / cold:.2f}x; venv {venv_size:.0f} MiB, cache archive "
              f"{size:.0f} MiB (download not included: at 100 MB/s add {size * 1.05 / 100:.1f} s)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
