"""Only what pyproject.toml cannot say: the templates/ directory at the repository root ships
as the `graphiq_ci.templates` package (package discovery only finds what lies under graphiq_ci/).
Everything else about the project is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["graphiq_ci*"]), "graphiq_ci.templates"],
    package_dir={"graphiq_ci.templates": "templates"},
)
