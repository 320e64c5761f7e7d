"""action.yml and .pre-commit-hooks.yaml are code users run: check them like code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from pre_commit.clientlib import InvalidManifestError, load_manifest

from tests.conftest import cli_options

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
HOOKS = ROOT / ".pre-commit-hooks.yaml"


@pytest.fixture(scope="module")
def action():
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def test_action_is_a_composite_action(action):
    assert action["name"] and action["description"]
    assert action["runs"]["using"] == "composite"
    assert action["runs"]["steps"]


def test_action_inputs_and_outputs(action):
    inputs = action["inputs"]
    assert set(inputs) == {
        "github-token",
        "base",
        "base-ref",
        "max-nodes",
        "max-tokens",
        "change-tokens",
        "format",
        "template",
        "comment",
        "cache-index",
    }
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert inputs["base"]["default"] == "${{ github.event.pull_request.base.sha }}"
    assert inputs["base-ref"]["default"] == "${{ github.event.pull_request.base.ref }}"
    assert inputs["comment"]["default"] == "true"
    assert inputs["cache-index"]["default"] == "true"
    assert all(spec["description"] for spec in inputs.values())

    step_ids = {step.get("id") for step in action["runs"]["steps"]}
    for name, spec in action["outputs"].items():
        assert name in {"context-file", "files", "comment-url"}
        step, output = re.fullmatch(
            r"\$\{\{ steps\.(\w+)\.outputs\.([\w-]+) \}\}", spec["value"]
        ).groups()
        assert step in step_ids and output == name
    assert len(action["outputs"]) == 3


def test_every_run_step_is_bash_without_inline_expressions(action):
    run_steps = [step for step in action["runs"]["steps"] if "run" in step]
    assert run_steps
    for step in run_steps:
        assert step["shell"] == "bash"
        # Expressions are expanded before the shell sees them: inputs go through env:.
        assert "${{" not in step["run"]


def test_action_pins_major_versions_and_keys_the_index_by_commit(action):
    """The behaviour (restore by prefix, save on push) is replayed in test_action_replay."""
    uses = {step["uses"]: step for step in action["runs"]["steps"] if "uses" in step}
    python = uses["actions/setup-python@v5"]["with"]
    assert python["python-version"] == "3.11" and python["update-environment"] is False
    restore = uses["actions/cache/restore@v4"]
    assert restore["with"]["path"] == ".graphiq/"
    assert restore["with"]["restore-keys"] == "graphiq-index-${{ runner.os }}-"
    save = uses["actions/cache/save@v4"]
    assert save["if"] == "github.event_name == 'push' && inputs.cache-index == 'true'"
    assert save["with"]["key"] == "graphiq-index-${{ runner.os }}-${{ github.sha }}"


def test_action_installs_itself_in_a_venv_and_passes_only_real_flags(action):
    scripts = "\n".join(step["run"] for step in action["runs"]["steps"] if "run" in step)
    assert ('"$GRAPHIQ_VENV/bin/python" -m pip install --disable-pip-version-check --quiet '
            '"$GRAPHIQ_ACTION_PATH"') in scripts
    assert '"$GRAPHIQ_VENV/bin/graphiq-ci" "${args[@]}"' in scripts
    flags = set(re.findall(r"--[a-z][a-z-]+", scripts.split("pr-comment", 1)[1]))
    assert flags <= cli_options("pr-comment")
    assert {
        "--base",
        "--max-nodes",
        "--max-tokens",
        "--change-tokens",
        "--format",
        "--template",
        "--no-comment",
    } <= flags


def test_pre_commit_manifest_is_valid():
    hooks = {hook["id"]: hook for hook in load_manifest(str(HOOKS))}

    index_hook, context_hook = hooks["graphiq-ci-index"], hooks["graphiq-ci-context"]
    assert index_hook["entry"] == "graphiq-ci index --hook"
    assert index_hook["stages"] == ["pre-commit", "post-commit", "post-checkout", "post-merge",
                                    "post-rewrite"]
    assert context_hook["entry"] == "graphiq-ci context --diff --format markdown"
    assert context_hook["stages"] == ["manual"]
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
        assert hook["always_run"] is True
        assert hook["require_serial"] is True


def test_index_hook_entry_matches_the_cli():
    assert "--hook" in cli_options("index")


def test_the_manifest_validator_is_not_a_rubber_stamp(tmp_path):
    bad = tmp_path / "hooks.yaml"
    bad.write_text(HOOKS.read_text().replace("post-rewrite", "post-rewrote"))

    with pytest.raises(InvalidManifestError):
        load_manifest(str(bad))


def test_the_wheel_ships_the_templates_and_queries_and_renders_from_them(tmp_path):
    """templates/ lives at the repository root; the wheel must still carry it, as
    graphiq_ci.templates, with every language query, and an install must render with it."""
    import shutil
    import subprocess
    import sys
    import zipfile

    # from the files git tracks only: a checkout's build/ and *.egg-info/ leak stale modules
    # into a wheel built in place, hiding a package the build itself would leave out
    src = tmp_path / "src"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(tmp_path), str(src)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("graphiq_ci-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = {p.name for p in (ROOT / "templates").glob("*.md.j2")}
    assert templates == {"markdown.md.j2", "prompt.md.j2", "pr_comment.md.j2"}
    assert {f"graphiq_ci/templates/{t}" for t in templates} <= names
    queries = {p.name for p in (ROOT / "graphiq_ci/lang/queries").glob("*.scm")}
    assert queries and {f"graphiq_ci/lang/queries/{q}" for q in queries} <= names
    assert not any(n.startswith("templates/") for n in names)  # no top-level package
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "graphiq_ci").rglob("*.py")}
    assert sources and sources <= names, sorted(sources - names)  # every module ships
    # the installed wheel renders: unpack it and import from there, not from this checkout
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = ("import graphiq_ci.render.jinja_env as j, sys; "
            "assert j.__file__.startswith(sys.argv[1]), j.__file__; "
            "print(j._environment().get_template('prompt.md.j2').filename)")
    out = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(site / "graphiq_ci" / "templates" / "prompt.md.j2")
