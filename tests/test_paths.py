"""What a test file is named after, across the naming conventions `affected` relies on."""

from __future__ import annotations

import pytest

from graphiq_ci.paths import is_test_path, subject_of_test


@pytest.mark.parametrize(("path", "subject"), [
    ("tests/test_parse_url.py", "parseurl"),       # pytest
    ("tests/parse_url_test.py", "parseurl"),
    ("pkg/url/parse_test.go", "parse"),            # go test
    ("src/test/java/a/ParseUrlTest.java", "parseurl"),  # JUnit
    ("Tests/ParseUrlTests.cs", "parseurl"),        # xUnit
    ("src/parse.test.ts", "parse"),                # jest
    ("src/parse.spec.js", "parse"),                # mocha, jasmine
    ("spec/parse_spec.rb", "parse"),               # rspec
    ("test/res.send.js", "res.send"),              # express: object.method
    ("tests/test_completion/test_install.py", "install"),  # the file, not its folder
])
def test_a_test_file_is_named_after_what_it_tests(path: str, subject: str) -> None:
    assert subject_of_test(path) == subject


@pytest.mark.parametrize(("path", "test"), [
    ("Tests/AlamofireTests/RequestTests.swift", True),   # SwiftPM
    ("Source/Core/Request.swift", False),
    ("Tests/ParseUrl.cs", True),                         # a .NET `Tests/` folder
    ("src/test/scala/scopt/ParserSpec.scala", True),     # sbt
    ("core/src/main/scala/scopt/OptionParserTests.scala", True),
    ("test/client_test.dart", True),                     # package:test
    ("lib/src/client.dart", False),
    ("test/phoenix/router_test.exs", True),              # ExUnit
    ("lib/phoenix/router.ex", False),
    ("spec/kong/01-unit/01-db/schema_spec.lua", True),   # busted
    ("kong/db/schema/init.lua", False),
    ("src/main/java/a/Tester.java", False),
])
def test_a_test_file_is_told_by_its_languages_conventions(path: str, test: bool) -> None:
    assert is_test_path(path) is test
