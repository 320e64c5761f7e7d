"""Replay action.yml's composite steps on this machine, as a GitHub runner would run them.

Every `run:` step runs in real bash with the `env:` the runner would give it; `if:` and
`${{ }}` are evaluated with GitHub's operators (`==`, `!=`, `&&`, `||`, `!`). The three
`uses:` steps stand in for GitHub's services, the only thing faked: setup-python answers
with this interpreter; actions/cache keeps entries in a directory, restores an exact key or
else the newest entry whose key starts with a restore-key, and (for `actions/cache`) saves
after the job when there was no exact hit, as the real post step does.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ACTION = Path(__file__).resolve().parents[2] / "action.yml"
TOKEN = re.compile(r"\s*('(?:[^']|'')*'|==|!=|&&|\|\||!|\(|\)|[A-Za-z_][\w.-]*)")


@dataclass
class CacheService:
    """actions/cache's store: key → saved copy, newest wins a prefix match."""

    root: Path
    saved: list[str] = field(default_factory=list)

    def restore(self, key: str, prefixes: list[str], path: Path) -> str | None:
        entries = sorted(self.root.glob("*/key"), key=lambda p: p.stat().st_mtime_ns)
        keys = {p.read_text(): p.parent for p in entries}
        hit = key if key in keys else next(
            (k for prefix in prefixes for k in reversed(list(keys)) if k.startswith(prefix)),
            None)
        if hit is not None:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(keys[hit] / "data", path, symlinks=True)
        return hit

    def save(self, key: str, path: Path) -> None:
        entry = self.root / f"{len(list(self.root.iterdir())):03d}"
        shutil.copytree(path, entry / "data", symlinks=True)
        (entry / "key").write_text(key)
        time.sleep(0.01)  # distinct mtimes: "newest" is well defined
        self.saved.append(key)


@dataclass
class Run:
    log: str
    outputs: dict[str, dict[str, str]]
    ran: list[str]  # the names of the steps that ran, in order


def replay(*, workspace: Path, event_name: str, event: dict[str, Any], sha: str,
           env: dict[str, str], cache: CacheService, runner_temp: Path,
           inputs: dict[str, str] | None = None) -> Run:
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    ctx: dict[str, Any] = {
        "github": {"event_name": event_name, "event": event, "sha": sha,
                   "action_path": str(ACTION.parent), "token": env.get("GITHUB_TOKEN", "")},
        "runner": {"os": "Linux", "temp": str(runner_temp)},
        "steps": {},
    }
    ctx["inputs"] = {name: _expand(_str(spec.get("default", "")), ctx)
                     for name, spec in action["inputs"].items()}
    ctx["inputs"].update(inputs or {})
    log, ran, post = [], [], []
    for n, step in enumerate(action["runs"]["steps"]):
        name = step.get("name") or step.get("uses") or step.get("id")
        if "if" in step and not _truthy(_eval(step["if"], ctx)):
            continue
        ran.append(name)
        outputs: dict[str, str] = {}
        if "run" in step:
            out_file = runner_temp / f"output-{n}"
            out_file.write_text("")
            step_env = {**env, "GITHUB_WORKSPACE": str(workspace), "RUNNER_OS": "Linux",
                        "RUNNER_TEMP": str(runner_temp), "GITHUB_OUTPUT": str(out_file),
                        **{k: _expand(_str(v), ctx) for k, v in step.get("env", {}).items()}}
            done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workspace,
                                  env=step_env, capture_output=True, text=True, timeout=600)
            log.append(done.stdout + done.stderr)
            if done.returncode != 0:
                raise AssertionError(f"step {name!r} failed ({done.returncode}):\n{log[-1]}")
            outputs = _parse_outputs(out_file.read_text())
        else:
            outputs = _uses(step, ctx, workspace, cache, post)
        if "id" in step:
            ctx["steps"][step["id"]] = {"outputs": outputs}
    for save in post:
        save()
    action_outputs = {k: _expand(v["value"], ctx) for k, v in action["outputs"].items()}
    return Run("".join(log), {"action": action_outputs, **{
        k: v["outputs"] for k, v in ctx["steps"].items()}}, ran)


def _uses(step: dict[str, Any], ctx: dict[str, Any], workspace: Path, cache: CacheService,
          post: list[Any]) -> dict[str, str]:
    uses, args = step["uses"], {k: _expand(_str(v), ctx) for k, v in step.get("with", {}).items()}
    if uses.startswith("actions/setup-python@"):
        assert args.get("update-environment") == "false"  # the caller's python stays its own
        return {"python-path": sys.executable}
    if not uses.startswith("actions/cache"):
        raise AssertionError(f"the replay does not know {uses}")
    path = workspace / args["path"]
    key = args["key"]
    outputs: dict[str, str] = {}
    if uses.startswith(("actions/cache@", "actions/cache/restore@")):
        prefixes = [p for p in args.get("restore-keys", "").splitlines() if p.strip()]
        hit = cache.restore(key, prefixes, path)
        outputs = {"cache-hit": "true" if hit == key else "false",
                   "cache-matched-key": hit or ""}
        if uses.startswith("actions/cache@") and hit != key:
            post.append(lambda: cache.save(key, path) if path.exists() else None)
    else:
        cache.save(key, path)
    return outputs


def _expand(text: str, ctx: dict[str, Any]) -> str:
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: _str(_eval(m.group(1), ctx)), text)


def _eval(expr: str, ctx: dict[str, Any]) -> Any:
    """GitHub's expression subset the action uses, as a Python expression over values."""
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            raise AssertionError(f"cannot read the expression {expr!r}")
        tok, pos = m.group(1), m.end()
        if tok.startswith("'"):
            out.append(repr(tok[1:-1].replace("''", "'")))
        elif tok in ("==", "!=", "(", ")"):
            out.append(tok)
        else:
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(tok)
                       or repr(_lookup(tok, ctx)))
    return eval("".join(out))  # noqa: S307 - the tokens above are the only input


def _lookup(path: str, ctx: dict[str, Any]) -> Any:
    if path in ("true", "false"):
        return path == "true"
    value: Any = ctx
    for part in path.split("."):
        value = value.get(part, "") if isinstance(value, dict) else ""
    return value


def _truthy(value: Any) -> bool:
    return bool(value) and value != "false"


def _str(value: Any) -> str:
    return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _parse_outputs(text: str) -> dict[str, str]:
    """`name=value` lines and `name<<DELIM … DELIM` blocks, as GITHUB_OUTPUT holds them."""
    out: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and "=" not in line.split("<<", 1)[0]:
            name, delim = line.split("<<", 1)
            block = []
            for inner in lines:
                if inner == delim:
                    break
                block.append(inner)
            out[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
    return out


