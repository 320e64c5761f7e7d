; JavaScript, JSX, TypeScript and TSX alike: the patterns every ECMAScript grammar here
; shares (functions, classes, calls, imports, deep-graph tokens). Each language's own file
; follows it in the same query (see lang/registry.py).

; --- functions and classes ------------------------------------------------------------------
(function_declaration name: (identifier) @name) @definition.function

(generator_function_declaration name: (identifier) @name) @definition.function

; `export default function () {}` / `export default class {}` have no name: call them "default".
(export_statement "default" @name value: [(function_expression) (arrow_function)]) @definition.function

(export_statement "default" @name value: (class)) @definition.class

; Class members. Methods nested in a class become `method` in extract.py.
(class_body
  (method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.method)

; `const f = () => …` / `const f = function () {…}` / `const C = class {…}`, at any depth. The
; definition node is the whole declaration so leading comments (and `export`) attach to it.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(lexical_declaration
  (variable_declarator name: (identifier) @name value: (class))) @definition.class

; Methods of object literals bound to a name (`export const api = { get() {…}, put: () => … }`).
(variable_declarator
  value: (object (method_definition name: (property_identifier) @name) @definition.function))

(variable_declarator
  value: (object
    (pair
      key: (property_identifier) @name
      value: [(arrow_function) (function_expression)]) @definition.function))

; CommonJS / prototype style: `module.exports.f = function …`, `Foo.prototype.bar = () => …`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)])) @definition.function)

; A named function handed to a call at the top level is how some modules define their API:
; `defineGetter(req, 'protocol', function protocol () {…})`. Only top-level statements: a
; named callback inside a function (`function done (err)`) is not an API.
(program
  (expression_statement
    (call_expression
      arguments: (arguments
        (function_expression name: (identifier) @name) @definition.function))))

(program (_ (variable_declarator name: (identifier) @name !value)) @definition.variable)

(program
  (export_statement
    declaration: (_ (variable_declarator name: (identifier) @name !value)) @definition.variable))

; --- references ------------------------------------------------------------------------------
; Calls: the callee's last identifier (`a.b.c()` → c); `new Foo()` and `new ns.Foo()` → Foo.
(call_expression function: (identifier) @name (#not-eq? @name "require")) @reference.call

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

(new_expression constructor: (identifier) @name) @reference.call

; A decorator is a call of it made for what it decorates (`@Injectable`, `@ns.Log`,
; `@Component({...})`): the uses inside it count there (@decorator).
(decorator (identifier) @name) @reference.call
(decorator (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(decorator) @decorator

(new_expression constructor: (member_expression property: (property_identifier) @name)) @reference.call

; ESM imports: @name is the specifier without quotes; one match per bound name (@alias), and a
; single alias-less match for a side-effect import (`import './x.css'`).
(import_statement
  (import_clause
    [(identifier) @alias
     (namespace_import (identifier) @alias)
     (named_imports
       [(import_specifier alias: (identifier) @alias)
        (import_specifier name: (identifier) @alias !alias)]*)]*)?
  source: (string (string_fragment) @name)) @reference.import

; Re-exports depend on the module they re-export from, and bind what they pass on for the
; files importing them (index/resolve.py follows them): `export * from './x'` binds "*",
; `export * as util from './x'` binds `util`, `export { a } from './x'` binds `a` (a renamed
; `{ a as b }` is not followed: `b` is defined nowhere under that name).
(export_statement
  [(namespace_export (identifier) @alias)
   "*" @alias
   (export_clause
     [(export_specifier name: (identifier) @alias !alias)
      (export_specifier alias: (_))]*)]
  source: (string (string_fragment) @name)) @reference.import

; Dynamic `import('./x')`.
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @name))) @reference.import

; CommonJS: `const x = require('m')`, `const {a, b: c} = require('m')`, bare `require('m')`.
(variable_declarator
  name: (identifier) @alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @name)))
  (#eq? @_require "require")) @reference.import

(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @alias
     (pair_pattern value: (identifier) @alias)])
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @name)))
  (#eq? @_require "require")) @reference.import

(expression_statement
  (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @name)))
  (#eq? @_require "require")) @reference.import

; --- deep-graph tokens -----------------------------------------------------------------------
(member_expression property: (property_identifier) @deep.field)

(number) @deep.literal

(string (string_fragment) @deep.literal)

(comment) @comment

; Receiver types (lang/receivers.py): what `x = new T()` and `this.x = new T()` construct.
(variable_declarator name: (identifier) @name value: (new_expression constructor: (identifier) @constructs)) @binding
; `const p = shop.pool()`: the call it is @assigned from (its declared return type)
(variable_declarator name: (identifier) @name value: (call_expression) @assigned) @binding
(assignment_expression
  left: (member_expression object: (this) property: (property_identifier) @attribute)
  right: (new_expression constructor: (identifier) @constructs)) @binding
