"""A name imported from a file that only passes it on (re-exports, `__init__.py` imports)
resolves to the definition it passes on: exactly one, never a guess between two."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from graphiq_ci.index import run_index

from .test_name_facts import call_edges

BARREL = {
    "src/core/util.ts": "export function merge(a: object, b: object) { return { ...a, ...b }; }\n"
                        "export function pick(a: object) { return a; }\n",
    "src/core/parse.ts": "export function safeParse(x: string) { return x; }\n",
    "src/core/checks.ts": "export function lengthCheck(n: number) { return n; }\n",
    "src/core/index.ts": 'export * from "./parse.js";\n'
                         'export * as util from "./util.js";\n'
                         'export { lengthCheck } from "./checks.js";\n',
    "src/classic/schemas.ts": """import { util } from "../core/index.js";
import * as core from "../core/index.js";
import { lengthCheck } from "../core/index.js";

export class ZodObject {
  merge(other: object) { return util.merge(this, other); }
  parse(x: string) { return core.safeParse(x); }
  min(n: number) { return lengthCheck(n); }
}
""",
}


def test_calls_through_an_entry_file_reach_what_it_re_exports(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`export * as util` (then `util.merge()`), `export *` (then `core.safeParse()`) and
    `export { lengthCheck } from` each link the call to the one definition passed on."""
    repo = make_repo(BARREL)
    run_index(repo)
    found = call_edges(repo)
    assert ("ZodObject.merge", "merge", "src/core/util.ts") in found
    assert ("ZodObject.parse", "safeParse", "src/core/parse.ts") in found
    assert ("ZodObject.min", "lengthCheck", "src/core/checks.ts") in found


def test_two_definitions_passed_on_under_one_name_stay_unresolved(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Two star re-exports both defining `check`: which one a caller gets is not guessed."""
    repo = make_repo({
        "src/a.ts": "export function check(x: number) { return x; }\n",
        "src/b.ts": "export function check(x: number) { return -x; }\n",
        "src/index.ts": 'export * from "./a";\nexport * from "./b";\n',
        "src/use.ts": 'import { check } from "./index";\n'
                      "export function run() { return check(1); }\n",
    })
    run_index(repo)
    assert not {e for e in call_edges(repo) if e[0] == "run" and e[1] == "check"}


def test_a_python_package_passes_on_what_its_init_imports(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`from .models import *` and `from .api import get` in `__init__.py`: `Request(…)` and
    `get(…)` imported from the package are models.py's and api.py's."""
    repo = make_repo({
        "pkg/models.py": "class Request:\n    def __init__(self, url):\n        self.url = url\n",
        "pkg/api.py": "def get(url):\n    return url\n",
        "pkg/__init__.py": "from .models import *\nfrom .api import get\n",
        "app.py": "from pkg import Request, get\n\n\ndef fetch(url):\n"
                  "    return get(Request(url))\n",
    })
    run_index(repo)
    found = call_edges(repo)
    assert ("fetch", "Request", "pkg/models.py") in found
    assert ("fetch", "get", "pkg/api.py") in found


def test_an_entry_file_re_exporting_elsewhere_re_resolves_its_importers(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """Only the entry file changes (its re-export now names another file); the importer's
    call follows it on the next incremental run, as a full index would resolve it."""
    repo = make_repo({
        "src/old.ts": "export function check(x: number) { return x; }\n",
        "src/new.ts": "export function check(x: number) { return -x; }\n",
        "src/index.ts": 'export { check } from "./old";\n',
        "src/use.ts": 'import { check } from "./index";\n'
                      "export function run() { return check(1); }\n",
    })
    run_index(repo)
    assert ("run", "check", "src/old.ts") in call_edges(repo)
    (repo / "src/index.ts").write_text('export { check } from "./new";\n')
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "re-export the new check"],
                   check=True)
    run_index(repo)
    incremental = call_edges(repo)
    assert ("run", "check", "src/new.ts") in incremental
    run_index(repo, full=True)
    assert call_edges(repo) == incremental


WORKSPACE = {
    "packages/lib/package.json": '{"name": "lib", "exports": {"./mini": "./src/mini/index.ts"}}\n',
    "packages/lib/src/mini/index.ts": 'export * from "./schemas.js";\n',
    "packages/lib/src/mini/schemas.ts": "export function pick(a: object) { return a; }\n",
    "packages/lib/src/util.ts": "export function pick(a: object) { return a; }\n",
    "packages/app/src/path/index.ts": "export function join(a: string) { return a; }\n",
    "packages/app/src/main.ts": """import * as z from "lib/mini";
import { join } from "path";
import * as acme from "@acme/lib/mini";
import { readFileSync } from "node:fs";

export function choose(a: object) { return z.pick(a); }
export function where(a: string) { return join(a); }
export function scopedChoose(a: object) { return acme.pick(a); }
export function read(p: string) { return readFileSync(p); }
""",
}


def test_a_workspace_package_import_reaches_its_source(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """`import * as z from "lib/mini"` names packages/lib/src/mini/ in a monorepo: the call
    reaches the `pick` that entry passes on, not the other `pick`. Node's own `path` is
    never the repository's `src/path/`."""
    repo = make_repo(WORKSPACE)
    run_index(repo)
    found = call_edges(repo)
    assert ("choose", "pick", "packages/lib/src/mini/schemas.ts") in found, found
    assert ("choose", "pick", "packages/lib/src/util.ts") not in found
    assert not {e for e in found if e[0] == "where"}
    # a scoped name is the package's folder without the scope; `node:` is Node's own
    assert ("scopedChoose", "pick", "packages/lib/src/mini/schemas.ts") in found, found
    assert not {e for e in found if e[0] == "read"}
