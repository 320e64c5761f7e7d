; Lua: functions, module tables and their functions, calls, require, deep-graph tokens.
; A module or class is a table: `local M = {}` at top level, then `function M.f()` /
; `function M:f()` beside it. Those belong to the table (@owner, as a Go receiver's type does):
; `M.f`, `_M.new` (Kong's and OpenResty's `_M`), `DAO.select`.

; Functions. `function f()` and `local function f()`; `function M.f()`, `function M:f()`
; (`self`) and `function a.b.c:f()` are methods of the table named before the last `.`/`:`.
; Inside a function they nest in it instead (a closure-built object: `new.get_status`).
(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @owner field: (identifier) @name)) @definition.method
(function_declaration
  name: (method_index_expression table: (_) @owner method: (identifier) @name)) @definition.method

; A function assigned: `local f = function() end` (the declaration, so a comment above it is its
; doc), `f = function() end` as a statement, `M.f = function() end`, and a table field
; `{ f = function() end }` (a method when the table is a module table below, else nested).
(variable_declaration
  (assignment_statement
    (variable_list . (identifier) @name .)
    (expression_list . (function_definition) .))) @definition.function
((assignment_statement
   (variable_list . (identifier) @name .)
   (expression_list . (function_definition) .)) @definition.function
 (#has-parent? @definition.function chunk block))
(assignment_statement
  (variable_list . (dot_index_expression table: (_) @owner field: (identifier) @name) .)
  (expression_list . (function_definition) .)) @definition.method
(field name: (identifier) @name value: (function_definition)) @definition.function
; A table of functions kept in a field (`return { init_worker = { before = function() … } }`,
; a handler's hooks) is a field, so they read `init_worker.before`, not many `before`s.
(field name: (identifier) @name
  value: (table_constructor (field value: (function_definition)))) @definition.field

; Module tables, at top level only. An empty table (`local _M = {}`, `local DAO = {}`,
; `M = {}`) is a namespace its functions are added to: a class. A filled one is a class when
; named like one (`_M`, `M`, `CamelCase`: `local _M = { _VERSION = "1.0" }`), a constant
; when ALL_CAPS, else a variable (data: `local defaults = { timeout = 10 }`). A class and not
; a module: a capitalised receiver (`Foo.bar()`) resolves through a type of that name.
((chunk
   [(variable_declaration
      (assignment_statement
        (variable_list . (identifier) @name .)
        (expression_list . (table_constructor) @_table .))) @definition.class
    (assignment_statement
      (variable_list . (identifier) @name .)
      (expression_list . (table_constructor) @_table .)) @definition.class])
 (#match? @_table "^[{][ \t\r\n]*[}]$"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list . (table_constructor (field)) .))) @definition.class)
 (#match? @name "^(_?M|[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*)$"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list . (table_constructor (field)) .))) @definition.constant)
 (#match? @name "^[A-Z][A-Z0-9_]+$"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list . (table_constructor (field)) .))) @definition.variable)
 (#not-match? @name "^(_?M|[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*|[A-Z][A-Z0-9_]+)$"))

; A top-level ALL_CAPS name given a literal is a constant (`local DEFAULT_TTL = 3600`); other
; top-level locals are mostly standard functions made local (`local fmt = string.format`).
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list . [(number) (string)] .))) @definition.constant)
 (#match? @name "^[A-Z][A-Z0-9_]+$"))

; Classes made by a call: `local Point = setmetatable({}, { __index = Base })` extends Base;
; `local Point = Base:extend()` (rxi's classic, Kong's old base plugin) extends Base.
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list
         . (function_call name: (identifier) @_make) .))) @definition.class)
 (#eq? @_make "setmetatable"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) .)
       (expression_list
         . (function_call
             name: (identifier) @_make
             arguments: (arguments
               . (_) . (table_constructor
                         (field name: (identifier) @_index value: (identifier) @name))))
             @reference.extends .))))
 (#eq? @_make "setmetatable") (#eq? @_index "__index"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) @name .)
       (expression_list
         . (function_call
             name: (method_index_expression method: (identifier) @_extend)) .))) @definition.class)
 (#eq? @_extend "extend"))
((chunk
   (variable_declaration
     (assignment_statement
       (variable_list . (identifier) .)
       (expression_list
         . (function_call
             name: (method_index_expression table: (identifier) @name method: (identifier) @_extend))
             @reference.extends .))))
 (#eq? @_extend "extend"))

; Calls: `f(x)`, `f"x"`, `f{…}`; `a.b.f(x)` → f on `a.b`; `obj:m(x)` → m on obj. `require` is an
; import, not behaviour.
((function_call name: (identifier) @name) @reference.call
 (#not-eq? @name "require"))
(function_call
  name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @reference.call
(function_call
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @reference.call

; Imports: `require("a.b")` / `require "a.b"` / `require [[a.b]]`; @name is the module string.
; `local x = require("a.b")` (or `x = …`) binds x (@alias): `x.f()` is then a call into a.b.
; Other require calls (a statement, `require("a").f()`, a table field) bind nothing; they are
; rare beside the declarations, so the parent check costs little.
(assignment_statement
  (variable_list . (identifier) @alias .)
  (expression_list
    . ((function_call
         name: (identifier) @_require
         arguments: (arguments . (string content: (string_content) @name) .)) @reference.import
       (#eq? @_require "require")) .))
((function_call
   name: (identifier) @_require
   arguments: (arguments . (string content: (string_content) @name) .)) @reference.import
 (#eq? @_require "require")
 (#has-parent? @reference.import chunk block dot_index_expression method_index_expression
   field arguments parenthesized_expression binary_expression))

; Deep-graph tokens: fields read or written (`x.field`, `obj:method`), table keys, literals.
; (A method's own name in `function M.f` counts too: no pattern can leave that parent out.)
(dot_index_expression field: (identifier) @deep.field)
(method_index_expression method: (identifier) @deep.field)
(field name: (identifier) @deep.field)
(number) @deep.literal
(string content: (string_content) @deep.literal)
(comment) @comment
