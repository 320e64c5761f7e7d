"""Dart imports resolve to files: `package:name/…` to the `lib/` of the package of that name
(a monorepo's folder named after it), a relative URI beside the importing file; calls through
them reach the definitions there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index

from .test_name_facts import call_edges

MONOREPO = {
    "pkgs/http/lib/src/client.dart": "class Client {\n  Client();\n"
                                     "  Client.withTimeout(int ms);\n"
                                     "  Future<String> get(String url) async => url;\n}\n",
    "pkgs/http/lib/src/utils.dart": "String join(String a, String b) => a + b;\n",
    "pkgs/app/lib/src/format.dart": "String slug(String s) => s;\n",
    # the same names in another package: only the imports tell them apart
    "pkgs/grpc/lib/src/client.dart": "class Client {\n  Client();\n"
                                     "  Client.withTimeout(int ms);\n}\n",
    "pkgs/grpc/lib/src/utils.dart": "String join(String a, String b) => b + a;\n",
    "pkgs/grpc/lib/src/format.dart": "String slug(String s) => s;\n",
    "pkgs/app/lib/src/fetcher.dart": """import 'package:http/src/client.dart';
import 'package:http/src/utils.dart' as u;
import 'format.dart';

class Fetcher {
  final Client client = Client.withTimeout(30);
  final String base = u.join('a', 'b');
  final String name = slug('x');
  final Client other = Client();
}
""",
}


def test_package_and_relative_imports_reach_their_files(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    repo = make_repo(MONOREPO)
    run_index(repo)
    found = {(callee, path) for caller, callee, path in call_edges(repo)
             if str(caller).startswith("Fetcher")}
    assert found == {
        ("Client.withTimeout", "pkgs/http/lib/src/client.dart"),  # the named constructor
        ("join", "pkgs/http/lib/src/utils.dart"),  # through the `as u` prefix
        ("slug", "pkgs/app/lib/src/format.dart"),
        ("Client", "pkgs/http/lib/src/client.dart"),
    }
