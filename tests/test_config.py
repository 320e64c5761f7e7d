from __future__ import annotations

import json

import pytest
import yaml

from graphiq_ci.config import Budgets, Config, load_config
from graphiq_ci.errors import GraphiqError


def write(tmp_path, text):
    (tmp_path / ".graphiq.yml").write_text(text, encoding="utf-8")
    return tmp_path


def test_missing_file_means_defaults(tmp_path):
    config, warnings = load_config(tmp_path)

    assert config == Config()
    assert warnings == []
    assert config.budgets == Budgets(max_nodes=24, max_tokens=1800, depth=2, change_tokens=8000)
    assert config.max_file_size == 1024 * 1024
    assert config.cochange_commits == 500
    assert config.languages is None


def test_full_file(tmp_path):
    config, warnings = load_config(
        write(
            tmp_path,
            """
trunk: develop
include: ["src/**", "lib/**"]
exclude: ["**/vendor/**"]
languages: [Python, typescript]
max_file_size: 200000
budgets: {max_nodes: 40, max_tokens: 8000, depth: 3, change_tokens: 0}
templates: {pr_comment: .github/graphiq/pr.md.j2}
weights: {bm25: 1, recency: 0.25}
cochange_commits: 0
""",
        )
    )

    assert warnings == []
    assert config.trunk == "develop"
    assert config.include == ("src/**", "lib/**")
    assert config.exclude == ("**/vendor/**",)
    assert config.languages == ("python", "typescript")
    assert config.max_file_size == 200_000
    assert config.budgets == Budgets(max_nodes=40, max_tokens=8000, depth=3, change_tokens=0)
    assert dict(config.templates) == {"pr_comment": ".github/graphiq/pr.md.j2"}
    assert dict(config.weights) == {"bm25": 1.0, "recency": 0.25}
    assert config.cochange_commits == 0


def test_config_is_immutable(tmp_path):
    config, _ = load_config(write(tmp_path, "weights: {bm25: 2}\n"))

    with pytest.raises(AttributeError):
        config.trunk = "x"
    with pytest.raises(TypeError):
        config.weights["bm25"] = 3.0


def test_empty_file_and_empty_sections_mean_defaults(tmp_path):
    assert load_config(write(tmp_path, "")) == (Config(), [])
    assert load_config(write(tmp_path, "budgets:\ninclude:\n")) == (Config(), [])


def test_unknown_keys_warn_with_the_nearest_known_key(tmp_path):
    config, warnings = load_config(write(tmp_path, "budget: {}\nbudgets: {max_node: 3}\nzzz: 1\n"))

    assert config == Config()
    assert warnings == [
        ".graphiq.yml: unknown key 'budget' ignored (did you mean 'budgets'?)",
        ".graphiq.yml: unknown key 'zzz' ignored",
        ".graphiq.yml: unknown key 'budgets.max_node' ignored (did you mean 'budgets.max_nodes'?)",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("budgets: {max_nodes: ten}", "budgets.max_nodes: expected an integer, got 'ten'"),
        ("budgets: {depth: -1}", "budgets.depth: expected an integer >= 0, got -1"),
        ("budgets: {max_tokens: true}", "budgets.max_tokens: expected an integer, got True"),
        ("budgets: [1, 2]", "budgets: expected a mapping of names to values, got [1, 2]"),
        ("include: src/**", "include: expected a list of strings, got 'src/**'"),
        ("exclude: [a, 3]", "exclude[1]: expected a string, got 3"),
        ("trunk: [main]", "trunk: expected a string, got ['main']"),
        ("max_file_size: 1.5", "max_file_size: expected an integer, got 1.5"),
        ("weights: {bm25: high}", "weights.bm25: expected a number, got 'high'"),
        ("templates: {pr: 3}", "templates.pr: expected a string, got 3"),
        ("- a\n- b", ".graphiq.yml: expected a mapping of names to values, got ['a', 'b']"),
    ],
)
def test_wrong_types_name_the_key_path(tmp_path, text, message):
    with pytest.raises(GraphiqError) as excinfo:
        load_config(write(tmp_path, text))

    assert str(excinfo.value) == message


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("trunk: main\nbudgets:\n  max_nodes: [1\n  depth: 2\n", 4),  # `[` never closed
        ("trunk: main\n\tbudgets: {}\n", 2),  # a tab cannot indent YAML
    ],
)
def test_malformed_yaml_names_the_file_and_line(tmp_path, text, line):
    """Our part of the message: the file, the line, `invalid YAML`, one line, no chained
    exception. What follows is PyYAML's own wording, which a PyYAML release may change."""
    with pytest.raises(GraphiqError) as excinfo:
        load_config(write(tmp_path, text))

    message = str(excinfo.value)
    assert "\n" not in message, message
    assert message.startswith(f".graphiq.yml:{line}: invalid YAML: "), message
    assert excinfo.value.__cause__ is None and excinfo.value.__suppress_context__


def test_malformed_yaml_names_where_an_open_bracket_started(tmp_path):
    """The line PyYAML stops at is past the mistake; the line the bracket opened on is ours."""
    with pytest.raises(GraphiqError) as excinfo:
        load_config(write(tmp_path, "trunk: main\nbudgets:\n  max_nodes: [1\n  depth: 2\n"))

    assert str(excinfo.value).endswith(" started on line 3)"), str(excinfo.value)


def test_show_prints_the_effective_configuration(tmp_path, cli):
    write(tmp_path, "trunk: main\nbudgest: {}\n")

    result = cli(["config", "--show", "--repo", str(tmp_path)])

    assert result.exit_code == 0
    assert yaml.safe_load(result.stdout) == {**Config().as_dict(), "trunk": "main"}
    assert "did you mean 'budgets'?" in result.stderr


def test_show_json(tmp_path, cli):
    result = cli(["config", "--show", "--json", "--repo", str(tmp_path)])

    assert json.loads(result.stdout)["budgets"] == {"max_nodes": 24, "max_tokens": 1800, "depth": 2,
                                                        "change_tokens": 8000}


def test_show_reports_config_errors_on_one_line(tmp_path, cli):
    write(tmp_path, "budgets: {max_nodes: ten}\n")

    result = cli(["config", "--show", "--repo", str(tmp_path)])

    assert result.exit_code == 2
    assert result.stderr == "graphiq-ci: budgets.max_nodes: expected an integer, got 'ten'\n"


def test_config_without_show_explains(tmp_path, cli):
    result = cli(["config", "--repo", str(tmp_path)])

    assert result.exit_code == 2
    assert "--show" in result.stderr


def test_show_reports_malformed_yaml_on_one_line(tmp_path, cli, monkeypatch):
    monkeypatch.delenv("GRAPHIQ_DEBUG", raising=False)  # --debug would show the traceback
    write(tmp_path, "trunk: main\n\tbudgets: {}\n")

    result = cli(["config", "--show", "--repo", str(tmp_path)])

    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("graphiq-ci: .graphiq.yml:2: invalid YAML: "), result.stderr
