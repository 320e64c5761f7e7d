"""Only what pyproject.toml cannot say: the templates/ directory at the repository root ships
as the `graphiq_ci.templates` package (package discovery only finds what lies under graphiq_ci/).
Everything else about the project is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

setup(
    # namespace discovery, as pyproject's default: graphiq_ci/github/ has no __init__.py
    packages=[*find_namespace_packages(include=["graphiq_ci*"], exclude=["*.__pycache__"]),
              "graphiq_ci.templates"],
    package_dir={"graphiq_ci.templates": "templates"},
)
