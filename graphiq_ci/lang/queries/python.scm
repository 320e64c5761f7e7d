; Python: definitions, calls, imports, inheritance, and the tokens the deep graph links on.

(class_definition name: (identifier) @name) @definition.class
(class_definition
  name: (identifier) @name
  body: (block . (string) @doc)) @definition.class

(function_definition name: (identifier) @name) @definition.function
(function_definition
  name: (identifier) @name
  body: (block . (string) @doc)) @definition.function

(module (assignment left: (identifier) @name) @definition.variable)
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))

(class_definition
  body: (block (assignment left: (identifier) @name) @definition.field))

(class_definition
  superclasses: (argument_list (identifier) @name) @reference.extends)
(class_definition
  superclasses: (argument_list (attribute attribute: (identifier) @name)) @reference.extends)

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

; A decorator is a call of it made for the definition below (`@cache`, `@functools.wraps(f)`):
; the uses inside it count there (@decorator), not in the enclosing class or module.
(decorator (identifier) @name) @reference.call
(decorator (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call
(decorator) @decorator

; Receiver types (lang/receivers.py): a declared @type (annotated parameters, variables, class
; attributes, `self.x: T`) or the class a constructor call @constructs (`x = T()`,
; `self.x = T()`). A dotted `mod.T` is left out: it may be another package's T.
(typed_parameter (identifier) @name type: (type (identifier) @type)) @binding
(typed_default_parameter name: (identifier) @name type: (type (identifier) @type)) @binding
(assignment left: (identifier) @name type: (type (identifier) @type)) @binding
(assignment left: (identifier) @name right: (call function: (identifier) @constructs)) @binding
; `p = shop.pool()`: the method call it is @assigned from (its declared return type)
(assignment left: (identifier) @name right: (call function: (attribute)) @assigned) @binding
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @attribute)
             type: (type (identifier) @type)) @binding
 (#eq? @_self "self"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @attribute)
             right: (call function: (identifier) @constructs)) @binding
 (#eq? @_self "self"))

(type (identifier) @name) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (subscript value: (identifier) @name)) @reference.type
(raise_statement (identifier) @name) @reference.type
(except_clause (identifier) @name) @reference.type
(except_clause (tuple (identifier) @name)) @reference.type

(import_statement name: (dotted_name) @name @alias) @reference.import
(import_statement name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias)) @reference.import
; `from x import *` binds "*": what x defines or imports is reachable through this module too
; (index/resolve.py follows it for the files importing this one)
(import_from_statement
  module_name: (_) @name
  [(wildcard_import) @alias
   name: (dotted_name) @alias]?) @reference.import
(import_from_statement
  module_name: (_) @name
  name: (aliased_import name: (dotted_name) @alias)) @reference.import

(attribute object: (_) attribute: (identifier) @deep.field)
(integer) @deep.literal
(float) @deep.literal
(string (string_content) @deep.literal)
(comment) @comment
