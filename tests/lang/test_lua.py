from __future__ import annotations

from lang_helpers import imports, parse, refs, symbol, symbols

from graphiq_ci.lang.imports import lua
from graphiq_ci.model import EdgeKind

SOURCE = """\
local cjson = require("cjson.safe")
local lrucache = require "resty.lrucache"
local utils = require("kong.tools.utils")
require("kong.globalpatches")

local ngx = ngx
local DEFAULT_TTL = 3600
local ERRORS = { NOT_FOUND = "not found", TIMEOUT = "timed out" }

-- Cache module: a two-level cache.
local _M = {}
local mt = { __index = _M }

local Entry = setmetatable({}, { __index = Base })

-- Builds the key.
local function make_key(ns, key)
  return ns .. ":" .. key  -- as old_cache_key() did
end

--- Creates a cache.
function _M.new(opts)
  local lru = lrucache.new(opts.size or 1000)
  local self = { lru = lru, ttl = opts.ttl or DEFAULT_TTL }
  return setmetatable(self, mt)
end

function _M:get(ns, key)
  local value = self.lru:get(make_key(ns, key))
  if value == nil then
    ngx.log(ngx.ERR, ERRORS.NOT_FOUND)
    return nil, "miss"
  end
  return cjson.decode(value)
end

_M.purge = function(self)
  self.lru:flush_all()
  utils.clear_tab(self)
end

--[[ Hooks run around a lookup. ]]
return {
  new = _M.new,
  hooks = {
    before = function(ctx) ctx.started = ngx.now() end,
    after = function(ctx) print"done" log{ ms = 250 } end,
  },
}
"""


def test_lua_symbols() -> None:
    parsed = parse("lua", "kong/cache/init.lua", SOURCE)
    assert symbols(parsed) == {
        ("constant", "DEFAULT_TTL", 7),
        ("constant", "ERRORS", 8),  # a filled ALL_CAPS table: data
        ("class", "_M", 11),  # an empty top-level table: the module its functions fill
        ("variable", "mt", 12),
        ("class", "Entry", 14),
        ("function", "make_key", 17),
        ("method", "_M.new", 22),  # `function M.f` and `function M:f` belong to M (@owner)
        ("method", "_M.get", 28),
        ("method", "_M.purge", 37),
        ("field", "hooks", 45),  # a table of functions in a field names them
        ("function", "hooks.before", 46),
        ("function", "hooks.after", 47),
    }
    assert symbol(parsed, "_M").doc == "Cache module: a two-level cache."
    assert symbol(parsed, "make_key").doc == "Builds the key."
    assert symbol(parsed, "_M.new").doc == "Creates a cache."  # LuaDoc's `---`
    get = symbol(parsed, "_M.get")
    assert (get.parent, get.end_line, get.arity) == ("_M", 35, "2")  # `self` is implicit
    assert get.signature == "function _M:get(ns, key)"
    assert symbol(parsed, "_M.purge").parent == "_M"
    assert symbol(parsed, "hooks.before").parent == "hooks"


def test_lua_references() -> None:
    parsed = parse("lua", "kong/cache/init.lua", SOURCE)
    assert refs(parsed, EdgeKind.CALLS) == {
        ("Entry", "setmetatable"),
        ("_M.new", "new"), ("_M.new", "setmetatable"),
        ("_M.get", "get"), ("_M.get", "make_key"), ("_M.get", "log"), ("_M.get", "decode"),
        ("_M.purge", "flush_all"), ("_M.purge", "clear_tab"),
        ("hooks.before", "now"), ("hooks.after", "print"), ("hooks.after", "log"),
    }  # `require` is an import, not a call
    assert refs(parsed, EdgeKind.EXTENDS) == {("Entry", "Base")}
    assert imports(parsed) == {
        ("cjson.safe", ("cjson",)), ("resty.lrucache", ("lrucache",)),
        ("kong.tools.utils", ("utils",)), ("kong.globalpatches", ()),
    }
    calls = {(r.scope, r.name): r for r in parsed.references if r.kind is EdgeKind.CALLS}
    # a call through a required module's name is a call into that module
    assert calls[("_M.get", "decode")].alias == ("cjson",)
    assert calls[("_M.purge", "clear_tab")].alias == ("utils",)
    assert calls[("_M.get", "make_key")].bare and not calls[("_M.get", "get")].bare
    assert calls[("hooks.after", "log")].arity == 1  # `log{ … }` passes one table


def test_lua_deep_tokens() -> None:
    parsed = parse("lua", "kong/cache/init.lua", SOURCE)
    tokens = {(t.scope, t.kind, t.token) for t in parsed.deep_tokens}
    assert {
        ("_M.new", EdgeKind.SHARES_DATA_SHAPE, "lru"),  # a table key
        ("_M.new", EdgeKind.SHARES_DATA_SHAPE, "size"),  # a field read
        ("_M.get", EdgeKind.SHARES_DATA_SHAPE, "NOT_FOUND"),
        ("_M.new", EdgeKind.SHARES_CONSTANT, "1000"),
        ("_M.get", EdgeKind.SHARES_CONSTANT, "miss"),
        ("ERRORS", EdgeKind.SHARES_CONSTANT, "timed out"),
        ("make_key", EdgeKind.COMMENT_REF, "old_cache_key"),  # a name in a comment
    } <= tokens


def test_lua_class_forms() -> None:
    source = """\
    M = {}
    local Animal = Object:extend()
    local Registry = { items = {} }
    function Animal.speak(self) return M.sound() end
    local function outer()
      local Inner = {}
      local cb = function() end
    end
    """
    parsed = parse("lua", "src/animal.lua", source)
    assert symbols(parsed) == {
        ("class", "M", 1),  # a global module table
        ("class", "Animal", 2),
        ("class", "Registry", 3),  # filled, named like a class
        ("method", "Animal.speak", 4),
        ("function", "outer", 5),  # a table inside a function is no module
        ("function", "outer.cb", 7),
    }
    assert refs(parsed, EdgeKind.EXTENDS) == {("Animal", "Object")}
    speak = [r for r in parsed.references if r.name == "sound"]
    assert [(r.scope, r.receiver_type) for r in speak] == [("Animal.speak", "M")]


def test_lua_import_candidates() -> None:
    assert lua("kong.tools.utils", "kong/init.lua") == [
        "kong/tools/utils.lua", "kong/tools/utils/init.lua",
        "lua/kong/tools/utils.lua", "lua/kong/tools/utils/init.lua",
        "src/kong/tools/utils.lua", "src/kong/tools/utils/init.lua",
        "*/kong/tools/utils.lua", "*/kong/tools/utils/init.lua",
    ]
    # a one-part name is mostly a C module or a rock: no suffix match
    assert lua("cjson", "a.lua") == [
        "cjson.lua", "cjson/init.lua", "lua/cjson.lua", "lua/cjson/init.lua",
        "src/cjson.lua", "src/cjson/init.lua",
    ]
    assert lua("telescope/builtin", "x.lua")[:2] == [
        "telescope/builtin.lua", "telescope/builtin/init.lua"]
    assert lua("a b", "x.lua") == [] and lua("", "x.lua") == []


def test_lua_syntax_error_keeps_good_symbols() -> None:
    source = ("local function ok()\n  return 1\nend\n\n"
              "function broken(\n\nlocal function later() end\n")
    parsed = parse("lua", "x.lua", source)
    assert parsed.error
    assert ("function", "ok", 1) in symbols(parsed)


def test_lua_self_is_the_table_a_method_is_declared_on() -> None:
    """`self` inside `function Cache:get()` is `Cache`, the method's owner; a plain
    function's `self` is nothing known."""
    parsed = parse("lua", "lib/cache.lua", """\
        local Cache = {}

        function Cache:get(key)
          return self:load(key)
        end

        function Cache.load(self, key)
          return self.store[key]
        end

        local function helper(self)
          return self:flush()
        end

        return Cache
        """)
    calls = {r.name: r.receiver_type for r in parsed.references if r.kind is EdgeKind.CALLS}
    assert calls == {"load": "Cache", "flush": ""}
