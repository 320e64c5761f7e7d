"""What one syntax node says, read the same way for every language: its text, its doc comment,
its signature and visibility, how many parameters it takes or arguments it passes, the literal
it holds, where a decorator's uses count. extract.py maps query captures to facts with these."""

from __future__ import annotations

import bisect
import re

import tree_sitter as ts

MAX_SIGNATURE_CHARS = 240
_NUMBER = re.compile(r"-?(0x[0-9a-fA-F]+|\d+(\.\d+)?)([a-zA-Z]*)")
_WRAPPERS = frozenset({"decorated_definition", "export_statement", "template_declaration"})
_ATTRIBUTES = frozenset({"attribute_item", "decorator", "annotation", "marker_annotation"})
#: the fields grammars put a callable's declared return type in: Python, TypeScript, Rust,
#: Scala, PHP (`return_type`), Go (`result`), C# (`returns`), Java, C and C++ (`type`)
_RETURN_FIELDS = ("return_type", "result", "returns", "type")
#: a return type's wrapping that leaves its type: TypeScript's `: `, a pointer, a reference,
#: Rust's `mut` and lifetime, a string annotation's quotes (Python's `-> "Pool"`)
_RETURN_WRAPPING = re.compile(r"^(?::\s*|&\s*|\*\s*|mut\s+|'\w+\s+|[\"'])+")
_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


def node_text(node: ts.Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


_COMMENT_OPEN = re.compile(r"^(///?|#+|/\*\*?|\*/|\*|---(?=[^-]|$)|--(?:\[=*\[)?|\"\"\"|''')\s?")


def clean_comment(text: str) -> str:
    """A comment's words: markers stripped (`//`, `#`, `/** */`, `--`, LuaDoc's `---` and
    `--[[`), lines joined."""
    lines = []
    for line in text.splitlines():
        line = line.strip()
        line = _COMMENT_OPEN.sub("", line)
        line = re.sub(r"(\*/|\"\"\"|''')$", "", line).strip()
        if line:
            lines.append(line)
    return " ".join(lines)[:1000]


def leading_comment(node: ts.Node) -> str:
    """Comments directly above a definition (or above its export/decorator wrapper)."""
    while node.parent is not None and node.parent.type in _WRAPPERS:
        node = node.parent
    parts: list[str] = []
    row = node.start_point[0]
    sib = node.prev_sibling
    while sib is not None and sib.type in _ATTRIBUTES:  # `/// doc` above `#[derive(..)]`
        row = sib.start_point[0]
        sib = sib.prev_sibling
    while sib is not None and "comment" in sib.type and sib.end_point[0] >= row - 1:
        parts.append(node_text(sib))
        row = sib.start_point[0]
        sib = sib.prev_sibling
    return clean_comment("\n".join(reversed(parts)))


def signature_of(node: ts.Node, data: bytes) -> str:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else None
    raw = data[node.start_byte : end] if end else data[node.start_byte : node.end_byte]
    text = raw.decode("utf-8", "replace")
    if end is None:
        text = text.split("\n", 1)[0]
    return " ".join(text.split()).rstrip("{:= ")[:MAX_SIGNATURE_CHARS]


def return_type(definition: ts.Node) -> str:
    """The one type a callable's declared return type names (`Elements select()`,
    `-> &Pool`, `: Promise<Queue>` gives `Promise`), by its last name; "" when it declares
    none, or names no single type (Go's `(*T, error)`, a union, an array, a function type).
    What the type's generic arguments are is not kept: a call on the result is the outer
    type's member (`List<Foo>`'s `size()` is `List`'s)."""
    node = next((n for n in map(definition.child_by_field_name, _RETURN_FIELDS) if n), None)
    if node is None:
        return ""
    text = _RETURN_WRAPPING.sub("", node_text(node).strip())
    name = _TYPE_NAME.match(text)
    if name is None:
        return ""
    rest = text[name.end():].lstrip()
    if rest.replace(" ", "").startswith("[]") or (rest and rest[0] not in "<[\"'"):
        return ""  # an array of the type (`T[]`), a union (`A | B`): not one named type
    return re.split(r"\.|::", name.group(0))[-1]


def visibility_of(name: str, signature: str) -> str:
    """Private by convention (`_x`, `#x`) or modifier before the name (Elixir's `defp` is
    its own keyword); dunders are public."""
    head = signature.split(name, 1)[0] if name and name in signature \
        else signature.split("(", 1)[0]
    dunder = name.startswith("__") and (name.endswith("__") or name[2:3].isalpha())
    if (name.startswith(("_", "#")) and not dunder) or re.search(
            r"\b(private|protected|internal|defp|defmacrop|defguardp)\b", head):
        return "private"
    if re.search(r"\b(pub|public|export)\b", head):
        return "public"
    return ""


def decorated_at(decorator: ts.Node) -> int:
    """Where a decorator's uses count: at what it decorates, the first sibling after it that is
    not another decorator or a comment (Python's decorated definition, a TypeScript method);
    a class decorator's next sibling is the class's own name, inside the class as well."""
    sib = decorator.next_named_sibling
    while sib is not None and (sib.type == decorator.type or "comment" in sib.type):
        sib = sib.next_named_sibling
    return sib.start_byte if sib is not None else decorator.start_byte


def moved_into(decorators: list[tuple[int, int, int]], at: int) -> int:
    """`at`, or the decorated definition's offset when `at` is inside a decorator."""
    i = bisect.bisect_right(decorators, (at, 1 << 62, 0)) - 1
    if i >= 0 and decorators[i][0] <= at < decorators[i][1]:
        return decorators[i][2]
    return at


def is_bare(call: ts.Node, name: ts.Node) -> bool:
    """Nothing qualifies the called name: it is the call's own first named child (`f()`,
    `new Foo()`, `T{}`), not behind an object or a scope (`x.f()`, `$this->f()`, `A::f()`)."""
    return name.parent == call and call.named_child(0) == name


def argument_count(call: ts.Node) -> int:
    """How many arguments a call passes (its `arguments` field), -1 when it has none."""
    args = call.child_by_field_name("arguments")
    return -1 if args is None else sum(1 for c in args.named_children if "comment" not in c.type)


def parameter_count(definition: ts.Node) -> str:
    """A callable's parameter count ("2"; "1+" when the last is variadic), "" when it has no
    `parameters` field: what lets a call's argument count pick one of its overloads."""
    params = definition.child_by_field_name("parameters")
    if params is None:
        return ""
    kinds = [c.type for c in params.named_children if "comment" not in c.type]
    if kinds and ("spread" in kinds[-1] or "variadic" in kinds[-1]):
        return f"{len(kinds) - 1}+"
    return str(len(kinds))


def literal_token(text: str) -> str:
    """Literals worth linking: numbers other than 0/1/2 and short non-trivial strings."""
    text = text.strip()
    if _NUMBER.fullmatch(text):
        return "" if text in {"0", "1", "2", "-1", "0.0", "1.0"} else text
    inner = text.strip("'\"`")
    if 4 <= len(inner) <= 60 and not inner.isspace() and "\n" not in inner:
        return inner
    return ""
