"""Security: nothing outside the repository is read or written, user templates can't escape
the sandbox, untrusted text renders inert, and secrets in the environment go nowhere.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from graphiq_ci.context import Options, build_context
from graphiq_ci.errors import GraphiqError
from graphiq_ci.render import render_text
from tests.conftest import git
from tests.reliability.conftest import generate_repo, run_cli

OUTSIDE_MARK = "OUTSIDE_FILE_CONTENT_7731"

HOSTILE_SOURCE = '''
def handle_ledger(entry):
    """Reconcile the ledger. Ping @octocat and @acme/admins. </details><script>alert(1)</script>

    ```
    a fence in a docstring
    ````
    """
    marker = "`````"  # backtick runs longer than any fence we would pick by default
    return entry  # <img src=x onerror=alert(1)>
'''
HOSTILE_NAMES = {
    "pkg/@octocat <img src=x onerror=alert(1)>.py": "def ledger_image():\n    return 1\n",
    "pkg/``ticks`` ledger.py": "def ledger_ticks():\n    return 1\n",
    "pkg/<details open><summary> ledger.py": "def ledger_details():\n    return 1\n",
}
TASK = ("Fix handle_ledger for @octocat <script>alert(1)</script> </details>\n"
        "```\nunclosed fence in the task ledger\n")
ALLOWED_TAGS = {"h1", "h2", "h3", "h4", "p", "ol", "ul", "li", "code", "pre", "em", "strong",
                "blockquote", "details", "summary", "hr", "br", "a"}


@pytest.fixture
def hostile_repo(tmp_path: Path) -> Path:
    repo = generate_repo(tmp_path / "repo", 4, 3, commit=False)
    (repo / "pkg" / "ledger.py").write_text(HOSTILE_SOURCE)
    for rel, text in HOSTILE_NAMES.items():
        (repo / rel).write_text(text)
    (tmp_path / "outside.txt").write_text(f"{OUTSIDE_MARK}\n")
    os.symlink(tmp_path / "outside.txt", repo / "pkg" / "escape.py")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hostile")
    return repo


def assert_inert(markdown: str, code_blocks: int) -> None:
    """As GitHub would render it: no HTML of ours but safe tags, no mention, fences intact."""
    html = MarkdownIt("commonmark").render(markdown)
    tags = {t.lower() for t in re.findall(r"<\s*/?\s*([A-Za-z][\w-]*)", html)}
    assert tags <= ALLOWED_TAGS, (tags - ALLOWED_TAGS, markdown)
    prose = re.sub(r"<pre>.*?</pre>|<code>.*?</code>", "", html, flags=re.S)
    assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", prose), prose
    assert html.count("<pre>") == code_blocks, markdown


def test_untrusted_text_renders_inert_markdown(hostile_repo: Path) -> None:
    ctx = build_context(hostile_repo, TASK, Options(max_nodes=12))
    assert any(s.name == "handle_ledger" for s in ctx.symbols)
    paths = {f.path for f in ctx.files}
    assert paths & set(HOSTILE_NAMES), paths
    for fmt in ("markdown", "pr_comment"):
        out = render_text(ctx, fmt, max_tokens=4000, with_diagram=(fmt == "pr_comment"))
        blocks = len(out.snippets) + ("```mermaid" in out.text)
        assert_inert(out.text, blocks)
        assert OUTSIDE_MARK not in out.text


def test_context_run_leaks_no_secret_and_reads_nothing_outside(hostile_repo: Path) -> None:
    env = dict(os.environ, GITHUB_TOKEN="secret-xyz", GRAPHIQ_TOKEN="secret-xyz")
    outs = [run_cli("context", TASK, "--repo", str(hostile_repo), "--format", fmt, env=env)
            for fmt in ("markdown", "json")]
    for out in outs:
        assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
        assert "secret-xyz" not in out.stdout + out.stderr
        assert OUTSIDE_MARK not in out.stdout + out.stderr
    assert_inert(outs[0].stdout, outs[0].stdout.count("\n**`"))
    for path in (hostile_repo / ".graphiq").iterdir():
        data = path.read_bytes()
        assert b"secret-xyz" not in data, path
        assert OUTSIDE_MARK.encode() not in data, path


def test_a_graphiq_symlink_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    repo = generate_repo(tmp_path / "repo", 2, 2)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, repo / ".graphiq")
    out = run_cli("index", "--repo", str(repo))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "outside" in out.stderr
    assert list(elsewhere.iterdir()) == []


ESCAPES = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ ''.__class__.__base__.__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
    "{{ lipsum.__globals__['os'].environ }}",
    "{{ self._TemplateReference__context }}",
    "{{ task.__class__ }}",
    "{{ files[0].__class__.__init__.__globals__ }}",
    "{{ config.items() }}",
    "{{ request.application.__globals__ }}",
    "{{ ''|attr('__class__') }}",
    "{{ task.format.__globals__ }}",
    "{% include '/etc/passwd' %}",
    "{% include '../outside.txt' %}",
    "{% include 'link_out.txt' %}",
    "{% extends '/etc/hostname' %}",
    "{% import '/etc/passwd' as p %}",
    "{{ range(10**9) | list }}",
    "{{ 'x' * 10**9 }}",
    "{{ 2 ** 100000 }}",
    "{{ 1 + 'a' }}",
    "{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}",
]


@pytest.fixture(scope="module")
def rendered_ctx(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    base = tmp_path_factory.mktemp("templates")
    repo = generate_repo(base / "repo", 3, 3, commit=False)
    (base / "outside.txt").write_text(f"{OUTSIDE_MARK}\n")
    tdir = repo / "templates"
    tdir.mkdir()
    os.symlink(base / "outside.txt", tdir / "link_out.txt")
    return tdir, build_context(repo, "ledger reconcile stage", Options(refresh=True))


@pytest.mark.parametrize("source", ESCAPES)
def test_a_user_template_cannot_escape_the_sandbox(rendered_ctx: tuple[Path, object],
                                                   source: str) -> None:
    tdir, ctx = rendered_ctx
    template = tdir / "evil.md.j2"
    template.write_text(source)
    with pytest.raises(GraphiqError) as err:
        render_text(ctx, "markdown", template=template)  # type: ignore[arg-type]
    message = str(err.value)
    assert "\n" not in message and message.startswith("template ")
    assert OUTSIDE_MARK not in message and "root:" not in message


def test_a_template_escape_is_exit_code_2_on_the_command_line(tmp_path: Path) -> None:
    repo = generate_repo(tmp_path / "repo", 3, 3)
    (tmp_path / "outside.txt").write_text(f"{OUTSIDE_MARK}\n")
    os.symlink(tmp_path / "outside.txt", repo / "link_out.txt")
    for source in ("{{ ''.__class__.__mro__ }}", "{% include '/etc/passwd' %}",
                   "{% include 'link_out.txt' %}"):
        (repo / "evil.j2").write_text(source)
        out = run_cli("context", "ledger reconcile", "--repo", str(repo), "--template",
                      str(repo / "evil.j2"))
        assert out.returncode == 2, (source, out.returncode, out.stderr)
        assert "Traceback" not in out.stderr and out.stdout == ""
        assert OUTSIDE_MARK not in out.stderr and "root:" not in out.stderr
        errors = [ln for ln in out.stderr.splitlines() if "template" in ln]
        assert len(errors) == 1, out.stderr
