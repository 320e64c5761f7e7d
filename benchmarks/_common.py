"""Paths and helpers shared by the benchmark scripts (stdlib only).

Environment:
  GRAPHIQ_BENCH_DIR  the quality benchmark (holds eval.py); default <repo>/../shared/bench
  BENCH_WORK         checkouts, caches, peers; default ~/.cache/graphiq-bench
  BENCH_MIRRORS      bare mirrors <owner>+<name>/repo; default $BENCH_WORK/mirrors
  CODEGRAPH_PKG_DIR  CodeGraph's platform bundle (as in peers/codegraph_adapter.py)
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"
BENCH_DIR = Path(os.environ.get("GRAPHIQ_BENCH_DIR") or REPO_ROOT.parent / "shared" / "bench")
WORK = Path(os.environ.get("BENCH_WORK") or Path.home() / ".cache" / "graphiq-bench")
MIRRORS = Path(os.environ.get("BENCH_MIRRORS") or WORK / "mirrors")
CODEGRAPH_PKG = Path(os.environ.get("CODEGRAPH_PKG_DIR")
                     or WORK / "peers" / "node_modules" / "@colbymchenry" / "codegraph-linux-x64")
CODEGRAPH_NODE = CODEGRAPH_PKG / "node"
CODEGRAPH_CLI = CODEGRAPH_PKG / "lib" / "dist" / "bin" / "codegraph.js"
CODEGRAPH_ENV = {"DO_NOT_TRACK": "1", "CODEGRAPH_TELEMETRY": "0", "NO_COLOR": "1"}
CODEGRAPH_INSTALL = "npm install --prefix $BENCH_WORK/peers @colbymchenry/codegraph"
DEFAULT_REPO = "colinhacks/zod"


def graphiq_exe() -> str:
    """The graphiq-ci next to the running interpreter, so the venv's install is measured."""
    exe = Path(sys.executable).parent / "graphiq-ci"
    if exe.exists():
        return str(exe)
    found = shutil.which("graphiq-ci")
    if found is None:
        sys.exit(f"graphiq-ci not found next to {sys.executable} or on PATH; `pip install -e .`")
    return found


def installed_exe() -> str:
    """graphiq-ci as `pip install .` installs it, for start-up figures: an editable install
    (this venv's) puts a path finder into every interpreter's start, which users of a regular
    install never pay. A venv under BENCH_WORK gets this checkout's wheel without its
    dependencies, which it finds in the running venv's site-packages through a .pth file."""
    import site
    import tempfile

    venv = WORK / "regular-install"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    with tempfile.TemporaryDirectory() as tmp:  # HEAD's files: the commit the figures name
        src = Path(tmp) / "src"
        src.mkdir()
        tar = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", "HEAD"],
                             capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=tar, check=True)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp,
                        str(src)], check=True, capture_output=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-index", "--force-reinstall", *map(str, Path(tmp).glob("*.whl"))],
                       check=True, capture_output=True)
    target = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                             "'purelib'))"], capture_output=True, text=True, check=True)
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(target.stdout.strip()) / "graphiq-deps.pth").write_text("\n".join(deps) + "\n")
    return str(venv / "bin" / "graphiq-ci")


def codegraph_installed() -> bool:
    return CODEGRAPH_NODE.exists() and CODEGRAPH_CLI.exists()


def codegraph_cmd(*args: str) -> list[str]:
    """The CodeGraph CLI on its bundled Node, with the adapter's flags."""
    return [str(CODEGRAPH_NODE), "--liftoff-only", "--disable-warning=ExperimentalWarning",
            str(CODEGRAPH_CLI), *args]


def load_bench_module(name: str) -> ModuleType:
    """Import eval.py / report.py from the benchmark folder without copying them."""
    path = BENCH_DIR / f"{name}.py"
    if not path.exists():
        sys.exit(f"{path} not found: set GRAPHIQ_BENCH_DIR to the folder holding eval.py")
    spec = importlib.util.spec_from_file_location(f"graphiq_bench_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mirror(repo: str) -> Path:
    path = MIRRORS / repo.replace("/", "+") / "repo"
    if not path.is_dir():
        sys.exit(f"no mirror for {repo} at {path}: "
                 f"`git clone --mirror https://github.com/{repo} {path}` or set BENCH_MIRRORS")
    return path


def pinned_head(repo: str) -> str:
    """The commit the benchmark's repos.json pins for `repo`, else the mirror's HEAD."""
    repos_json = BENCH_DIR / "tasks" / "repos.json"
    if repos_json.exists():
        head = json.loads(repos_json.read_text()).get("repos", {}).get(repo, {}).get("head")
        if head:
            return str(head)
    return subprocess.run(["git", f"--git-dir={mirror(repo)}", "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()


def default_checkout(repo: str = DEFAULT_REPO) -> Path:
    """A git clone (objects shared with the mirror) of `repo` at its pinned head, under WORK."""
    sha = pinned_head(repo)
    dest = WORK / "bench-repos" / f"{repo.replace('/', '+')}@{sha[:12]}"
    if (dest / ".git").is_dir():
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    src = mirror(repo)
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(src), str(dest)],
                   check=True)
    subprocess.run(["git", "-C", str(dest), "checkout", "-q", "-B", "bench", sha], check=True)
    return dest


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def p90(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}x"


def hardware_note() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"{platform.system()}")


def write_summary(path: Path, title: str, script: str, body: str) -> None:
    """A committed Markdown summary: the command line that made it, the date, the tables."""
    import shlex
    import time

    cmdline = " ".join([f"python benchmarks/{script}", *map(shlex.quote, sys.argv[1:])])
    path.write_text(f"# {title}\n\n`{cmdline}` on {time.strftime('%Y-%m-%d')}\n\n{body}\n")
    print(f"\nwrote {path}", file=sys.stderr)
