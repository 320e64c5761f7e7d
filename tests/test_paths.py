"""What a test file is named after, across the naming conventions `affected` relies on."""

from __future__ import annotations

import pytest

from graphiq_ci.paths import subject_of_test


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
