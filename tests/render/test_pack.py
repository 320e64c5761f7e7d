"""Packing code into the token budget: the shop fixture as a real git repo, and the real CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from graphiq_ci.context import Options, build_context
from graphiq_ci.context.model import CodeCandidates, CodeUnit, Context, ContextSymbol, Snippet
from graphiq_ci.index import run_index
from graphiq_ci.render.mermaid import diagram
from graphiq_ci.render.output import render_text
from graphiq_ci.render.pack import MARKER, pack
from graphiq_ci.render.safe import iter_fenced_lines
from graphiq_ci.render.tokens import count_tokens
from tests.context.conftest import SHOP, run_cli
from tests.context_pr.shop import Repo

TASK = "refunds over the order total are rejected"
BLANK_RUN = re.compile(r"\n[ \t]*\n[ \t]*\n")
BUDGETS = [150, 400, 1000, 3000]


def _commit_shop(root: Path) -> Repo:
    shutil.copytree(SHOP, root)
    repo = Repo(root)
    repo.git("init", "-q", "-b", "main")
    repo.commit("shop")
    return repo


@pytest.fixture(scope="module")
def shop_git(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shop committed to a fresh repository on main, then indexed (once per module)."""
    root = tmp_path_factory.mktemp("pack") / "shop"
    home = tmp_path_factory.mktemp("pack-home")
    with pytest.MonkeyPatch.context() as mp:  # module scope runs before the autouse isolation
        mp.setenv("HOME", str(home))
        mp.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
        mp.setenv("GIT_CONFIG_NOSYSTEM", "1")
        _commit_shop(root)
    run_index(root)
    return root


@pytest.fixture(scope="module")
def ctx(shop_git: Path) -> Context:
    return build_context(shop_git, TASK, Options())


def _shown(snippets: list[Snippet]) -> dict[str, set[int]]:
    """path → the line numbers its snippet's `ranges` ("12-40, 88") claim."""
    out: dict[str, set[int]] = {}
    for sn in snippets:
        for part in sn.ranges.split(", "):
            a, _, b = part.partition("-")
            out.setdefault(sn.file, set()).update(range(int(a), int(b or a) + 1))
    return out


def _cli_json(root: Path, budget: int) -> dict[str, Any]:
    proc = run_cli("context", TASK, "--repo", str(root), "--format", "json", "--max-tokens",
                   str(budget))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _h1_outside_fences(text: str) -> list[str]:
    return [line.rstrip("\n") for line, fence in iter_fenced_lines(text)
            if not fence and re.match(r"# ", line)]


# a. the budget holds, and the count reported is the count of the text


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
@pytest.mark.parametrize("budget", BUDGETS)
def test_rendered_text_never_exceeds_the_budget(ctx: Context, fmt: str, budget: int) -> None:
    out = render_text(ctx, fmt, max_tokens=budget)
    assert count_tokens(out.text) <= budget
    assert out.tokens == count_tokens(out.text)


@pytest.mark.parametrize("budget", [150, 400, 1000, 3000])
def test_the_markdown_header_claims_the_tokens_shown(ctx: Context, budget: int) -> None:
    out = render_text(ctx, "markdown", max_tokens=budget)
    claimed = re.search(r"~(\d+) tokens", out.text)
    assert claimed, out.text
    assert int(claimed.group(1)) <= budget
    assert abs(int(claimed.group(1)) - out.tokens) <= 2 + out.tokens // 50


@pytest.mark.parametrize("budget", BUDGETS)
def test_json_prompt_never_exceeds_the_budget(shop_git: Path, budget: int) -> None:
    data = _cli_json(shop_git, budget)
    assert count_tokens(data["prompt"]) <= budget
    assert data["tokens"] == data["stats"]["tokens"] == count_tokens(data["prompt"])


# b. the budget is used when there is more code to show


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
@pytest.mark.parametrize("budget", [400, 600])
def test_the_budget_is_filled_while_candidates_remain(ctx: Context, fmt: str,
                                                      budget: int) -> None:
    sources = ctx.code.sources
    candidate_tokens = sum(count_tokens("\n".join(sources[u.file][a - 1:b]))
                           for u in ctx.code.units for a, b in u.runs)
    assert candidate_tokens >= 1.5 * budget  # precondition: far more code than room
    out = render_text(ctx, fmt, max_tokens=budget)
    shown = _shown(out.snippets)
    left = [u for u in ctx.code.units
            if not {n for a, b in u.runs for n in range(a, b + 1)} <= shown.get(u.file, set())]
    assert left, "every candidate fit: the budget is not below the candidates"
    assert count_tokens(out.text) >= 0.9 * budget, out.text


def test_the_budget_is_filled_by_one_long_unit(tmp_path: Path) -> None:
    cc = _long_function(tmp_path)
    ctx = Context(query="chargeback totals", family="NaturalDescriptive",
                  stats={"terms": ["chargeback", "totals"]}, code=cc)
    assert count_tokens("\n".join(cc.sources["books.py"])) > 2 * 600
    assert render_text(ctx, "prompt", max_tokens=600).tokens >= 0.9 * 600


# c. a unit too big for the budget keeps its signature, the task's lines and its end

SIGNATURE = "def reconcile_month(ledger, bank, *, strict=False):"
DEEP = "    chargeback_total = sum(line.amount for line in bank.disputes)"
CLOSING = "    return ledger"


def _long_function(tmp_path: Path) -> CodeCandidates:
    body = [f"    step_{i} = ledger.post(bank.line({i}), strict)" for i in range(117)]
    body[92] = DEEP
    path = tmp_path / "books.py"
    path.write_text("\n".join([SIGNATURE, '    """Match the bank file to the ledger."""',
                               *body, CLOSING]) + "\n")
    lines = path.read_text().splitlines()
    unit = CodeUnit("books.py", "reconcile_month", "reconcile_month", "function", 1, len(lines),
                    [(1, len(lines))], 1.0, symbol_id=1)
    return CodeCandidates([unit], {"books.py": lines}, {"books.py": "python"})


@pytest.mark.parametrize("word", ["chargeback", "chargebacks"])
def test_a_shortened_unit_keeps_signature_matching_line_and_end(tmp_path: Path,
                                                                word: str) -> None:
    cc = _long_function(tmp_path)
    lines, budget = cc.sources["books.py"], 300
    assert len(lines) == 120 and [n for n, t in enumerate(lines) if "chargeback" in t] == [94]
    assert count_tokens("\n".join(lines)) > 3 * budget
    [sn] = pack(cc, [word], budget)
    code = sn.code.splitlines()
    assert sn.shortened and sn.file == "books.py"
    assert code[0] == SIGNATURE and DEEP in code and code[-1] == CLOSING
    shown = {n for part in sn.ranges.split(", ")
             for n in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)}
    assert 95 in shown and len(shown) < len(lines) and count_tokens(sn.code) <= budget
    assert not all(line in code for line in lines[1:8]), "cut to the head, not to the task"
    assert lines[93] in code and lines[95] in code, "the budget left grows around the match"
    assert MARKER in code and code.index(MARKER) < code.index(DEEP)
    # and rendered as a prompt, within its budget
    ctx = Context(query=f"{word} totals are wrong", family="NaturalDescriptive",
                  stats={"terms": [word, "totals"]}, code=cc)
    out = render_text(ctx, "prompt", max_tokens=budget)
    assert out.tokens <= budget and SIGNATURE in out.text and DEEP in out.text
    assert f"\n{MARKER}\n" in out.text


def test_a_shortened_unit_shows_a_repeated_matching_line_once(tmp_path: Path) -> None:
    """A function registering twelve tools under the same decorator: every decorator line
    uses the task's word, but the second and later say nothing the first did not."""
    tools = [line for i in range(12) for line in (
        "    @server.tool(annotations=READ_ONLY)", f"    async def tool_{i}(query):",
        f"        return await engine.answer(query, {i})", "")]
    lines = ["def build_server(engine):", '    """The tools, one per question."""',
             "    server = Server(engine)", *tools, "    return server"]
    (tmp_path / "server.py").write_text("\n".join(lines) + "\n")
    cc = CodeCandidates([CodeUnit("server.py", "build_server", "build_server", "function", 1,
                                  len(lines), [(1, len(lines))], 1.0, symbol_id=1)],
                        {"server.py": lines}, {"server.py": "python"})
    [sn] = pack(cc, ["server"], 100)
    code = sn.code.splitlines()
    assert sn.shortened and code[0] == "def build_server(engine):"
    assert code.count("    @server.tool(annotations=READ_ONLY)") == 1, code
    assert "    server = Server(engine)" in code and code[-1] == "    return server"


def test_the_best_unit_is_shortened_when_denser_units_took_its_room(tmp_path: Path) -> None:
    """The best unit fits its share of the budget whole, but twenty small, weaker units are
    denser and go first; when its turn comes it no longer fits whole. It must still show its
    signature and the line that uses the task's word, not vanish."""
    body = [f"    step_{i} = ledger.post(bank.line({i}), strict)" for i in range(28)]
    body[20] = DEEP
    big = [SIGNATURE, *body, CLOSING]
    small = [line for i in range(20) for line in
             (f"def helper_{i}(ledger):", f"    return ledger.total({i})", "")]
    (tmp_path / "books.py").write_text("\n".join(big) + "\n")
    (tmp_path / "helpers.py").write_text("\n".join(small) + "\n")
    units = [CodeUnit("books.py", "reconcile_month", "reconcile_month", "function", 1, len(big),
                      [(1, len(big))], 1.0, symbol_id=1)]
    units += [CodeUnit("helpers.py", f"helper_{i}", f"helper_{i}", "function", 3 * i + 1,
                       3 * i + 2, [(3 * i + 1, 3 * i + 2)], 0.6, symbol_id=2 + i)
              for i in range(20)]
    cc = CodeCandidates(units, {"books.py": big, "helpers.py": small[:-1]},
                        {"books.py": "python", "helpers.py": "python"})
    budget = 600
    assert 0.5 * budget < count_tokens("\n".join(big)) < 0.7 * budget  # one whole piece
    snippets = pack(cc, ["chargeback"], budget)
    by_file = {sn.file: sn for sn in snippets}
    assert set(by_file) == {"books.py", "helpers.py"}
    assert by_file["helpers.py"].symbols, "the denser units went first"
    code = by_file["books.py"].code.splitlines()
    assert by_file["books.py"].shortened and code[0] == SIGNATURE and DEEP in code
    assert sum(count_tokens(sn.code) for sn in snippets) <= budget


def test_a_large_budget_is_not_spent_on_a_tail_of_tiny_units_first(tmp_path: Path) -> None:
    """The best unit (a 90-line method) and 200 five-line setters scoring a fifth of
    it, as a renderer's file holds: at 8,000 tokens the setters together could take the whole
    budget before the method's turn. With that much room the method's length must count
    against it less than at 2,000 (`pack.density`), where small pieces still go first."""
    body = [f"        frame_{i} = self.buffer.line({i}) + self.cursor.offset({i})"
            for i in range(88)]
    big = ["    def flush(self):", *body, "        return self.buffer"]
    tiny = [line for i in range(200) for line in (
        f"    def set_mode_{i}(self, enabled):", f"        self.modes[{i}] = enabled",
        f"        self.dirty.add({i})", f"        self.log.append(({i}, enabled))",
        f"        return self.modes[{i}]")]
    lines = ["class Renderer:", *big, *tiny]
    (tmp_path / "renderer.py").write_text("\n".join(lines) + "\n")
    units = [CodeUnit("renderer.py", "flush", "Renderer.flush", "method", 2, 91, [(2, 91)],
                      1.0, symbol_id=1)]
    units += [CodeUnit("renderer.py", f"set_mode_{i}", f"Renderer.set_mode_{i}", "method",
                       92 + 5 * i, 96 + 5 * i, [(92 + 5 * i, 96 + 5 * i)], 0.22,
                       symbol_id=2 + i) for i in range(200)]
    cc = CodeCandidates(units, {"renderer.py": lines}, {"renderer.py": "python"})
    flush = set(range(2, 92))
    assert count_tokens("\n".join(tiny)) > 8000 - count_tokens("\n".join(big))
    [wide] = pack(cc, ["renderer"], 8000)
    assert flush <= _shown([wide])["renderer.py"], "the best unit is shown whole"
    [narrow] = pack(cc, ["renderer"], 2000)  # little room: small pieces first, as before
    assert not flush <= _shown([narrow])["renderer.py"] and len(narrow.symbols) > 20


# d. the JSON's snippets are the code blocks its prompt shows


@pytest.mark.parametrize("budget", [400, 1000])
def test_json_snippets_are_the_code_blocks_of_the_prompt(shop_git: Path, budget: int) -> None:
    data = _cli_json(shop_git, budget)
    snippets, prompt = data["snippets"], data["prompt"]
    assert snippets and data["stats"]["snippets"] == len(snippets)
    headers = re.findall(r"^## (.+) \(lines (.+)\)$", prompt, re.M)
    assert headers == [(sn["file"], sn["ranges"]) for sn in snippets]
    missing = [sn["file"] for sn in snippets if sn["code"] not in prompt]
    assert not missing  # the PEP8 double blank lines are collapsed in both, or in neither
    repo_tokens = sum(count_tokens(p.read_text()) for p in SHOP.rglob("*") if p.is_file())
    shown = sum(count_tokens(sn["code"]) for sn in snippets)
    assert 0 < shown < (0.4 if budget == 400 else 0.9) * repo_tokens


# e. never two blank lines in a row, though the source has them


def _has_double_blank(ctx: Context, snippets: list[Snippet]) -> bool:
    """Some snippet's ranges hold two blank source lines in a row."""
    src = ctx.code.sources
    return any(n + 1 in shown and not (src[path][n - 1] + src[path][n]).strip()
               for path, shown in _shown(snippets).items() for n in shown)


@pytest.mark.parametrize("fmt", ["markdown", "prompt"])
@pytest.mark.parametrize("budget", [1000, 3000])
def test_rendered_text_has_no_two_blank_lines_in_a_row(ctx: Context, fmt: str,
                                                       budget: int) -> None:
    assert "\n\n\n" in (SHOP / "shop" / "payments.py").read_text()  # PEP8 double blanks
    out = render_text(ctx, fmt, max_tokens=budget)
    assert _has_double_blank(ctx, out.snippets)  # the shown lines include such a pair
    assert not BLANK_RUN.search(out.text), out.text


@pytest.mark.parametrize("view", ["markdown", "prompt", "pr"])
def test_cli_output_has_no_two_blank_lines_in_a_row(shop_git: Path, tmp_path: Path,
                                                    view: str) -> None:
    root, args = shop_git, [TASK, "--format", view]
    if view == "pr":
        repo = _commit_shop(tmp_path / "shop")
        repo.git("checkout", "-q", "-b", "feature")
        repo.edit("shop/payments.py", "the order total", "the order total, rejected")
        repo.commit("reject refunds over the order total")
        root, args = repo.path, ["--diff", "--format", "markdown"]
    proc = run_cli("context", *args, "--repo", str(root), "--max-tokens", "1500")
    assert proc.returncode == 0, proc.stderr
    assert ("where this PR reaches" in proc.stdout) == (view == "pr")
    assert "\n\n\n" in "".join(p.read_text() for p in (root / "shop").glob("*.py"))
    assert not BLANK_RUN.search(proc.stdout), proc.stdout[-200:]


# f. a task's own headings nest under `# Task`

PR_BODY = "Fix refunds\n\n# Summary\nrefund the order\n\n```python\n# not a heading\n```"


def test_task_headings_stay_under_the_task(shop_git: Path) -> None:
    proc = run_cli("context", PR_BODY, "--repo", str(shop_git), "--format", "prompt",
                   "--max-tokens", "800")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert _h1_outside_fences(text) == ["# Task", "# Relevant code"]
    assert "\n### Summary\nrefund the order\n" in text
    fenced = [fence for line, fence in iter_fenced_lines(text) if line == "# not a heading\n"]
    assert fenced == ["```"]
    assert text.index("# not a heading") < text.index("# Relevant code")


def test_an_unclosed_fence_in_the_task_does_not_swallow_the_template(shop_git: Path) -> None:
    proc = run_cli("context", "Fix refunds\n\n```python\n# unclosed", "--repo", str(shop_git),
                   "--format", "prompt", "--max-tokens", "800")
    assert proc.returncode == 0, proc.stderr
    assert _h1_outside_fences(proc.stdout) == ["# Task", "# Relevant code"]


# g. a small file is shown whole when one of its units is chosen

COUPONS = ('"""Coupons."""\n\nimport math\n\n\ndef coupon_value(total, pct):\n'
           "    return math.floor(total * pct) / 100\n\n\ndef unrelated():\n    return 1\n")


@pytest.mark.parametrize(("budget", "whole"), [(500, True), (40, False)])
def test_a_small_file_is_shown_whole_when_it_fits(tmp_path: Path, budget: int,
                                                  whole: bool) -> None:
    (tmp_path / "coupons.py").write_text(COUPONS)
    lines = (tmp_path / "coupons.py").read_text().splitlines()
    unit = CodeUnit("coupons.py", "coupon_value", "coupon_value", "function", 6, 7, [(6, 7)],
                    1.0, symbol_id=1)
    cc = CodeCandidates([unit], {"coupons.py": lines}, {"coupons.py": "python"})
    [sn] = pack(cc, ["coupon"], budget)
    code = sn.code.splitlines()
    assert "    return math.floor(total * pct) / 100" in code and not sn.shortened
    if whole:
        assert sn.ranges == f"1-{len(lines)}"
        assert [line for line in code if line.strip()] == [line for line in lines if line.strip()]
    else:
        assert sn.ranges == "6-7" and "def unrelated():" not in code


def test_a_small_fixture_file_is_shown_whole(ctx: Context) -> None:
    out = render_text(ctx, "prompt", max_tokens=3000)
    [sn] = [sn for sn in out.snippets if sn.file == "shop/receipts.py"]
    lines = (SHOP / "shop" / "receipts.py").read_text().splitlines()
    assert sn.ranges == f"1-{len(lines)}"
    assert [line for line in sn.code.splitlines() if line.strip()] == \
        [line for line in lines if line.strip()]


# the Mermaid diagram (moved from the old test_shorten.py)


def test_mermaid_labels_escape_hostile_names() -> None:
    def sym(sid: int, qualified: str, path: str) -> ContextSymbol:
        return ContextSymbol(sid, qualified, qualified, "function", path, 1, 2, 1.0 / sid, [])

    ctx = Context(query="settle everything", family="NaturalDescriptive", entry_points=[1],
                  symbols=[sym(1, 'evil"]:::x\n<script>@octocat`|', "shop/settlement.py"),
                           sym(2, "b[0]{x}", "a.py")],
                  edges=[(1, 2, "calls")])
    lines = diagram(ctx).splitlines()
    assert lines[0] == "flowchart LR"
    assert len(lines) == 4  # two nodes and one edge: the newline did not split a label
    for line in lines[1:3]:
        label = re.fullmatch(r'\s+n\d+\[\[?"(.*)"\]\]?', line)
        assert label and re.fullmatch(r"[\w .:/()-]*", label.group(1)), line
    assert lines[1].startswith("  n0[[") and lines[2].startswith('  n1["')  # entry in bold
    assert lines[3].strip() == "n0 -->|calls| n1"


def test_line_costs_are_exact_so_the_packers_sums_are_order_free() -> None:
    """pack.py prices runs from prefix sums and rejects units from a bound: both equal the
    per-line sums only while every line's cost is exact in binary floating point."""
    from graphiq_ci.render.tokens import CHARS_PER_TOKEN, lines_tokens

    assert CHARS_PER_TOKEN & (CHARS_PER_TOKEN - 1) == 0
    costs = lines_tokens(["x" * n for n in range(200)])
    assert sum(costs) == sum(reversed(costs)) == sum(sorted(costs, key=lambda c: -c))
