"""Every command has help text and a mention in the README, so the docs cannot drift."""

from __future__ import annotations

import re
import sqlite3

from tests.conftest import PROJECT_ROOT, subcommands


def _commands() -> dict[str, str]:
    return {name: parser.description or "" for name, parser in subcommands().items()}


def test_every_command_has_help_text() -> None:
    commands = _commands()
    assert set(commands) >= {"index", "stats", "search", "context", "config", "pr-comment",
                             "mcp", "affected"}
    assert all(text.strip() for text in commands.values()), commands


def test_every_command_is_in_the_readme() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    missing = [name for name in _commands()
               if not re.search(rf"graphiq-ci {re.escape(name)}\b", readme)]
    assert not missing, missing


def test_help_lists_every_command_with_its_first_line(cli) -> None:
    result = cli(["--help"])
    assert result.exit_code == 0
    flat = " ".join(result.stdout.split())
    for name, text in _commands().items():
        assert f"{name} {' '.join(text.splitlines()[0].split())}" in flat, name


def test_every_option_of_every_command_has_help_in_its_help(cli) -> None:
    for name, parser in subcommands().items():
        shown = cli([name, "--help"]).stdout
        for action in parser._actions:
            for option in action.option_strings:
                assert option in shown, (name, option)
            assert action.help and action.help.strip(), (name, action.dest)


def test_no_arguments_prints_the_commands_and_is_a_usage_error(cli) -> None:
    result = cli([])
    assert result.exit_code == 2
    assert "context" in result.stdout and "affected" in result.stdout


def test_a_bad_value_is_a_usage_error_naming_the_option(cli) -> None:
    result = cli(["context", "task", "--max-tokens", "50"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "argument --max-tokens: 50 is not at least 100" in result.stderr
    result = cli(["context", "task", "--depth", "nine"])
    assert result.exit_code == 2 and "'nine' is not a whole number" in result.stderr


def test_a_command_builds_its_own_parser_only(tmp_path) -> None:
    """A run imports and registers the command it was asked for (issue #14: every parser and
    module loaded is paid on each call): `config` loads no other command's module, and no
    parser asks shutil for the terminal's width."""
    import subprocess
    import sys

    probe = ("import sys\n"
             "from graphiq_ci.cli import run\n"
             f"assert run(['config', '--show', '--repo', {str(tmp_path)!r}]) == 0\n"
             "print(sorted(m for m in sys.modules if m == 'shutil' or "
             "m.startswith('graphiq_ci.commands.')), file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=PROJECT_ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip().splitlines()[-1] == \
        "['graphiq_ci.commands.common', 'graphiq_ci.commands.config']"


def test_the_hook_refresh_loads_no_parser_and_help_no_typing(make_repo) -> None:
    """`index --hook` runs on every commit and takes `run`'s shortcut: it loads neither
    argparse nor any command module; `--help` loads argparse but not typing (#14)."""
    import subprocess
    import sys

    repo = make_repo({"app.py": "def checkout():\n    return 1\n"})
    probe = ("import sys\n"
             "from graphiq_ci.cli import run\n"
             "assert run(sys.argv[1:]) == 0\n"
             "print(sorted(m for m in sys.modules if m in ('argparse', 'typing') or "
             "m.startswith('graphiq_ci.commands')), file=sys.stderr)\n")
    hook = subprocess.run([sys.executable, "-c", probe, "index", "--hook"], cwd=repo,
                          capture_output=True, text=True, timeout=60)
    assert hook.returncode == 0, hook.stderr
    assert "building the index" in hook.stderr  # it did run: the first hooked commit
    assert "'argparse'" not in hook.stderr and "graphiq_ci.commands" not in hook.stderr
    shown = subprocess.run([sys.executable, "-c", probe, "--help"], cwd=repo,
                           capture_output=True, text=True, timeout=60)
    loaded = shown.stderr.strip().splitlines()[-1]
    assert "'argparse'" in loaded and "'typing'" not in loaded


def test_a_no_change_hook_refresh_loads_no_writer(make_repo) -> None:
    """The hook's refresh when nothing changed (most commits) neither imports the writer nor
    the extraction's fact types; the next edit still gets them and is indexed (#14)."""
    import subprocess
    import sys

    repo = make_repo({"app.py": "def checkout():\n    return 1\n"})
    probe = ("import sys\n"
             "from graphiq_ci.cli import run\n"
             "assert run(['index', '--hook']) == 0\n"
             "print(sorted(m for m in sys.modules if m in ('graphiq_ci.index.writer', "
             "'graphiq_ci.model')), file=sys.stderr)\n")

    def hook() -> str:
        done = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stderr.strip().splitlines()[-1]

    assert hook() == "['graphiq_ci.index.writer', 'graphiq_ci.model']"  # the first: a build
    assert hook() == "[]"
    (repo / "app.py").write_text("def checkout():\n    return 2\n\n\ndef refund():\n    pass\n")
    assert hook() == "['graphiq_ci.index.writer', 'graphiq_ci.model']"
    db = sqlite3.connect(repo / ".graphiq" / "graphiq.db")
    assert {n for (n,) in db.execute("SELECT name FROM symbols")} >= {"checkout", "refund"}


def test_a_query_and_a_refresh_load_no_dataclasses(make_repo) -> None:
    """A warm `context`, a one-file refresh and the query after it (the graph read through its
    delta) import neither `dataclasses` nor `inspect`: creating the records as dataclasses and
    importing the module were a sixth of a warm `context` on zod (#14). The answers are real:
    the edit is indexed and found."""
    import subprocess
    import sys

    repo = make_repo({"billing.py": "def refund_invoice(invoice):\n    return -invoice\n",
                      "shop.py": "from billing import refund_invoice\n\n\n"
                                 "def checkout(cart):\n    return refund_invoice(cart)\n"})
    probe = ("import io, sys, contextlib\n"
             "from graphiq_ci.cli import run\n"
             "out = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             "    assert run(sys.argv[1:]) == 0\n"
             "print(out.getvalue(), file=sys.stderr)\n"
             "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules), "
             "file=sys.stderr)\n")

    def loaded(*args: str) -> tuple[str, str]:
        done = subprocess.run([sys.executable, "-c", probe, *args], cwd=repo,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        *text, modules = done.stderr.strip().splitlines()
        return "\n".join(text), modules

    loaded("index")  # the first build (index/history.py, a full run, has its own dataclass)
    text, modules = loaded("context", "refund an invoice")
    assert "refund_invoice" in text and modules == "[]"
    (repo / "billing.py").write_text("def refund_invoice(invoice):\n    return -invoice\n\n\n"
                                     "def void_invoice(invoice):\n    return 0\n")
    assert loaded("index")[1] == "[]"
    text, modules = loaded("search", "void_invoice")
    assert "void_invoice" in text and modules == "[]"


def test_help_wraps_at_the_width_columns_gives(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    narrow = cli(["context", "--help"]).stdout
    monkeypatch.setenv("COLUMNS", "160")
    wide = cli(["context", "--help"]).stdout
    def options(text: str) -> list[str]:  # the description is shown as written
        return [line for line in text.split("options:")[1].splitlines() if line.strip()]

    assert max(map(len, options(narrow))) <= 50 < max(map(len, options(wide)))
