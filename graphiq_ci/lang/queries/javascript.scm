; JavaScript / JSX on top of ecmascript.scm: JSX components, class names and fields, `extends`.

(class_declaration name: (identifier) @name) @definition.class

(class_body
  (field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.field)

; Module-level variables, plain or exported (`_` = lexical_declaration or variable_declaration).
; Values are listed by type so a function-valued declaration (above) is never also a variable.
; An UPPER_CASE name is a constant; `const x = require(…)` is an import, not a variable.
(program
  (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (jsx_element) (jsx_self_closing_element)])) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(program
  (export_statement
    declaration: (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (jsx_element) (jsx_self_closing_element)])) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(program
  (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (jsx_element) (jsx_self_closing_element)] @_value)) @definition.variable
  (#not-match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^require\\s*\\("))

(program
  (export_statement
    declaration: (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (jsx_element) (jsx_self_closing_element)] @_value)) @definition.variable)
  (#not-match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^require\\s*\\("))

; Rendering a JSX component is a call to it (lower-case names are HTML tags).
(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

(jsx_opening_element
  name: (member_expression property: (property_identifier) @name)) @reference.call

(jsx_self_closing_element
  name: (member_expression property: (property_identifier) @name)) @reference.call

; `class A extends B` / `extends ns.B` / `extends mixin(B)`.
(class_heritage (identifier) @name) @reference.extends

(class_heritage (member_expression property: (property_identifier) @name)) @reference.extends

(class_heritage (call_expression arguments: (arguments (identifier) @name))) @reference.extends
