"""The lines a unit of code owns: decorators, annotations and attributes are shown with the
definition below them, never as their container's own lines between `…` markers
(context/spans.py: `attached_start`), and a function's nested functions are shown inside it
(context/code.py: `_own_runs`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.render.pack import MARKER
from tests.context.conftest import run_cli


def _ledger() -> str:
    """A class of many decorated methods, as an MCP server's tools or a CLI's commands are:
    too long to be shown whole, so its own lines and each method are units of their own."""
    methods = "".join(f"""
    @register(name="report_{i}")
    def report_{i}(self, period):
        totals = [self.postings[n].amount * {i} for n in range(period)]
        return format_table(totals, columns={i}, title="report {i}")
""" for i in range(14))
    return f'''"""Ledger accounts."""


class Ledger:
    """An account's postings and the reports made of them."""

    currency = "EUR"
{methods}
    @staticmethod
    @cached
    def parse_ledger(text):
        """A ledger parsed from its text export, one posting a line."""
        return Ledger([Posting.parse(line) for line in text.splitlines()])
'''


def _routes() -> str:
    tests = "".join(f"""
    #[test]
    fn posting_{i}_is_kept() {{
        let ledger = Ledger::from(vec![{i}, {i} * 2, {i} * 3]);
        assert_eq!(ledger.postings().len(), 3, "posting {i} kept");
    }}
""" for i in range(14))
    return f"""pub fn ledger_balance(postings: &[i64]) -> i64 {{
    postings.iter().sum()
}}

#[cfg(test)]
mod tests {{
    use super::*;
{tests}
    #[test]
    #[should_panic(expected = "overflow")]
    fn ledger_balance_overflows() {{
        ledger_balance(&[i64::MAX, 1]);
    }}
}}
"""


def _snippets(root: Path, task: str) -> dict[str, list[str]]:
    proc = run_cli("context", task, "--repo", str(root), "--format", "json",
                   "--max-tokens", "300")
    assert proc.returncode == 0, proc.stderr
    return {sn["file"]: sn["code"].splitlines() for sn in json.loads(proc.stdout)["snippets"]}


def _above(code: list[str], line: str) -> list[str]:
    """The lines directly above `line` in a snippet, nearest last, up to a `…` or a blank."""
    at = code.index(line)
    out: list[str] = []
    for text in reversed(code[:at]):
        if text == MARKER or not text.strip():
            break
        out.insert(0, text)
    return out


def _dangling(code: list[str], prefix: str) -> list[str]:
    """Attribute lines shown without the definition they belong to."""
    return [line for n, line in enumerate(code[:-1]) if line.lstrip().startswith(prefix)
            and not code[n + 1].lstrip().startswith((prefix, "def ", "fn ", "mod "))]


def test_python_decorators_stay_with_their_methods(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"ledger.py": _ledger()})
    code = _snippets(root, "parse the ledger text export")["ledger.py"]
    assert _above(code, "    def parse_ledger(text):")[-2:] == ["    @staticmethod",
                                                                 "    @cached"]
    assert not _dangling(code, "@"), code


def test_a_decorated_definition_keeps_its_own_line(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Shown from its decorators, a definition is still reported at its `def` line, as
    `search` and the graph report it."""
    text = _ledger()
    root = make_repo({"ledger.py": text})
    proc = run_cli("context", "parse the ledger text export", "--repo", str(root), "--format",
                   "json")
    assert proc.returncode == 0, proc.stderr
    [sym] = [s for s in json.loads(proc.stdout)["symbols"]
             if s["qualified"] == "Ledger.parse_ledger"]
    assert sym["line"] == text.splitlines().index("    def parse_ledger(text):") + 1


def test_rust_attributes_stay_with_their_items(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"src/lib.rs": _routes()})
    code = _snippets(root, "ledger balance overflows should panic")["src/lib.rs"]
    assert _above(code, "    fn ledger_balance_overflows() {")[-2:] == [
        "    #[test]", '    #[should_panic(expected = "overflow")]']
    assert not _dangling(code, "#["), code


# a function's nested functions are its own code: shown in it, never cut out as a class's
# methods are

CONVERTORS = '''"""Converting command-line values."""


def generate_list_convertor(convertor, default_value):
    """A convertor for every item of a list parameter, keeping a None default."""

    def internal_convertor(raw):
        out = []
        for item in raw:
            parsed = parse_item(item)
            if parsed is not EMPTY:
                out.append(parsed)
        return out or fallback

    return internal_convertor


class Registry:
    """Convertors by parameter type."""

    def register(self, kind, convertor):
        self.by_kind[kind] = convertor

    def lookup(self, kind):
        return self.by_kind.get(kind)
''' + "".join(f'''

def list_convertor_default_{i}(items):
    """The default value of list convertor {i}."""
    return items[{i}] if len(items) > {i} else None
''' for i in range(30))


def test_a_nested_function_is_shown_inside_its_function(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"convert.py": CONVERTORS})
    code = _snippets(root, "list convertor default value None")["convert.py"]
    start = code.index("def generate_list_convertor(convertor, default_value):")
    end = code.index("    return internal_convertor")
    assert MARKER not in code[start:end], code[start:end]
    assert "    def internal_convertor(raw):" in code[start:end]


# ... and is scored on all of it: a function holding a nested function is not a container
# whose body is its children's text

RECONCILE = '''"""Reconciling the ledger with the bank."""


def reconcile(ledger, bank):
    """Match the two statements."""

    def by_id(entry):
        return entry.id

    chargebacks = [entry for entry in bank if entry.kind == "chargeback"]
    for chargeback in chargebacks:
        ledger.reverse(chargeback.refund_total)
    return sorted(chargebacks, key=by_id)


def chargeback_fee(amount):
    """The fee on an amount."""
    return amount * 0.01
'''


def test_a_function_with_a_nested_function_is_scored_on_its_body(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"ledger.py": RECONCILE})
    proc = run_cli("context", "reverse the chargeback refund total", "--repo", str(root),
                   "--format", "json")
    assert proc.returncode == 0, proc.stderr
    names = [s["qualified"] for s in json.loads(proc.stdout)["symbols"]]
    assert names.index("reconcile") < names.index("chargeback_fee"), names
