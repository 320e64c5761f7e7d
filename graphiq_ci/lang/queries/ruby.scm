; Ruby: classes, modules, methods, constants, calls, require, superclass and mixins, deep tokens.

(class name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.class
(singleton_class value: (self) @name) @definition.class
(module name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.module
; `def` is a function at top level and becomes a method inside a class (extract.py).
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(assignment left: (constant) @name) @definition.constant

; `class A < B`; `include M` / `prepend M` / `extend M` mix a module in.
(superclass [(constant) @name (scope_resolution name: (constant) @name)]) @reference.extends
((call
   method: (identifier) @_mixin
   arguments: (argument_list [(constant) @name (scope_resolution name: (constant) @name)])) @reference.implements
 (#match? @_mixin "^(include|prepend|extend)$"))

; Calls: `f(x)`, `a.b.f` → f; `Foo.new` is also a call of Foo. Declarative class-body calls
; (require, include, attr_*, visibility) are not behaviour and are skipped.
((call method: (identifier) @name) @reference.call
 (#not-match? @name "^(require|require_relative|load|include|prepend|extend|attr_reader|attr_writer|attr_accessor|private|protected|public|module_function)$"))
((call receiver: [(constant) @name (scope_resolution name: (constant) @name)] method: (identifier) @_new) @reference.call
 (#eq? @_new "new"))

; Constants used as receivers (`Db.connect`) and rescued exceptions are type references.
(call receiver: [(constant) @name (scope_resolution name: (constant) @name)]) @reference.type
(exceptions [(constant) @name (scope_resolution name: (constant) @name)] @reference.type)

; `require 'x'` / `require_relative 'x'` / `load 'x'`: @name is the string content.
((call
   method: (identifier) @_require
   arguments: (argument_list . (string (string_content) @name))) @reference.import
 (#match? @_require "^(require|require_relative|load)$"))

; Deep-graph tokens: method names called on a receiver (Ruby attributes are methods).
(call receiver: (_) method: (identifier) @deep.field)
(integer) @deep.literal
(float) @deep.literal
(string (string_content) @deep.literal)
(simple_symbol) @deep.literal
(comment) @comment
