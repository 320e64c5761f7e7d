from __future__ import annotations

import pytest
from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.model import EdgeKind

SOURCE = """\
import type { User } from './models';
import express = require('express');

/** Shape of a repository. */
export interface Repo<T> extends Base, Other<T> {
  find(id: string): Promise<T | null>;
  readonly size: number;
}

export type Handler = (req: Request) => Response;
export enum Color { Red, Green = "g" }

namespace Util {
  export function clamp(n: number): number { return n; }
}

// Users in SQL.
@Injectable()
export abstract class UserRepo extends BaseRepo<User> implements Repo<User>, Disposable {
  private cache: Map<string, User> = new Map();
  constructor(private readonly db: Db) { super(); }
  async find(id: string): Promise<User | null> {
    return this.db.get<User>(id) as User;
  }
  abstract close(): void;
}

export const makeRepo = (db: Db): UserRepo => new SqlRepo(db);
declare function ambient(x: number): void;
let cursor: Array<Item> = [];
export function generic<T extends Shape>(arg: T): T[] {
  throw new NotFoundError("no such user");
}
"""

EXPECTED = {
    ("interface", "Repo", 5),
    ("method", "Repo.find", 6),
    ("field", "Repo.size", 7),
    ("type", "Handler", 10),
    ("enum", "Color", 11),
    ("constant", "Color.Red", 11),
    ("constant", "Color.Green", 11),
    ("namespace", "Util", 13),
    ("function", "Util.clamp", 14),
    ("class", "UserRepo", 19),
    ("field", "UserRepo.cache", 20),
    ("method", "UserRepo.constructor", 21),
    ("method", "UserRepo.find", 22),
    ("method", "UserRepo.close", 25),
    ("function", "makeRepo", 28),
    ("function", "ambient", 29),
    ("variable", "cursor", 30),
    ("function", "generic", 31),
}


@pytest.mark.parametrize(
    ("language", "path"), [("typescript", "src/repo.ts"), ("tsx", "src/repo.tsx")]
)
def test_typescript_symbols(language: str, path: str) -> None:
    parsed = parse(language, path, SOURCE)
    assert symbols(parsed) == EXPECTED
    assert symbol(parsed, "Repo").doc == "Shape of a repository."
    assert symbol(parsed, "UserRepo").doc == "Users in SQL."  # above the decorator
    assert symbol(parsed, "UserRepo.find").parent == "UserRepo"
    assert parsed.error == ""


def test_typescript_references() -> None:
    parsed = parse("typescript", "src/repo.ts", SOURCE)
    assert refs(parsed, EdgeKind.EXTENDS) == {
        ("Repo", "Base"), ("Repo", "Other"), ("UserRepo", "BaseRepo"),
    }
    assert refs(parsed, EdgeKind.IMPLEMENTS) == {("UserRepo", "Repo"), ("UserRepo", "Disposable")}
    types = refs(parsed, EdgeKind.REFERENCES)
    assert {("Handler", "Request"), ("Handler", "Response"), ("UserRepo.cache", "Map")} <= types
    assert {("UserRepo.find", "User"), ("cursor", "Item"), ("generic", "Shape")} <= types
    assert not any(name == "T" for _, name in types)  # type parameters are not references
    assert ("Repo", "Other") not in types  # a supertype is counted once, as extends
    calls = refs(parsed, EdgeKind.CALLS)
    assert {("UserRepo.find", "get"), ("makeRepo", "SqlRepo")} <= calls
    assert ("generic", "NotFoundError") in calls
    assert imports(parsed) == {("./models", ("User",)), ("express", ("express",))}


def test_tsx_jsx_and_syntax_error() -> None:
    source = "export const A = (p: Props) => <div>{p.x}</div>;\nlet x: = ;\nclass B {}\n"
    parsed = parse("tsx", "src/a.tsx", source)
    assert parsed.error
    assert {("function", "A", 1), ("class", "B", 3)} <= symbols(parsed)
    assert ("A", "Props") in refs(parsed, EdgeKind.REFERENCES)
