"""action.yml and .pre-commit-hooks.yaml are code users run: check them like code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
import typer.main
import yaml
from pre_commit.clientlib import InvalidManifestError, load_manifest

from graphiq_ci.commands import index, pr_comment

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
HOOKS = ROOT / ".pre-commit-hooks.yaml"


def cli_options(register, name):
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)
    command = typer.main.get_command(app).commands[name]
    return {opt for param in command.params for opt in param.opts}


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
    assert flags <= cli_options(pr_comment.register, "pr-comment")
    assert {
        "--base",
        "--max-nodes",
        "--max-tokens",
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
    assert "--hook" in cli_options(index.register, "index")


def test_the_manifest_validator_is_not_a_rubber_stamp(tmp_path):
    bad = tmp_path / "hooks.yaml"
    bad.write_text(HOOKS.read_text().replace("post-rewrite", "post-rewrote"))

    with pytest.raises(InvalidManifestError):
        load_manifest(str(bad))
