; TypeScript and TSX on top of ecmascript.scm (one file for both grammars, so only nodes
; both have: no JSX, no `<T>x`): interfaces, type aliases, enums, namespaces, type references.

; TypeScript class names are type_identifiers.
(class_declaration name: (type_identifier) @name) @definition.class

(abstract_class_declaration name: (type_identifier) @name) @definition.class

; Overload and ambient (`declare function`) signatures are declarations too.
(function_signature name: (identifier) @name) @definition.function

(interface_declaration name: (type_identifier) @name) @definition.interface

(type_alias_declaration name: (type_identifier) @name) @definition.type

(enum_declaration name: (identifier) @name) @definition.enum

(enum_body (property_identifier) @name @definition.constant)

(enum_body (enum_assignment name: (property_identifier) @name) @definition.constant)

; `namespace A {}` / `module A.B {}`; `declare module 'pkg' {}` is named by its string content.
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace

(module name: [(identifier) (nested_identifier)] @name) @definition.namespace

(module name: (string (string_fragment) @name)) @definition.module

(class_body
  (public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field)

(class_body (abstract_method_signature name: (property_identifier) @name) @definition.method)

(class_body (method_signature name: (property_identifier) @name) @definition.method)

; Interface members.
(interface_body (method_signature name: (property_identifier) @name) @definition.method)

(interface_body (property_signature name: (property_identifier) @name) @definition.field)

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
               (as_expression) (satisfies_expression) (non_null_expression)])) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(program
  (export_statement
    declaration: (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (as_expression) (satisfies_expression) (non_null_expression)])) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(program
  (_ (variable_declarator
       name: (identifier) @name
       value: [(number) (string) (template_string) (object) (array) (call_expression)
               (new_expression) (identifier) (member_expression) (subscript_expression)
               (binary_expression) (unary_expression) (ternary_expression) (true) (false)
               (null) (undefined) (regex) (await_expression) (parenthesized_expression)
               (as_expression) (satisfies_expression) (non_null_expression)] @_value)) @definition.variable
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
               (as_expression) (satisfies_expression) (non_null_expression)] @_value)) @definition.variable)
  (#not-match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^require\\s*\\("))

; `class A extends B<T> implements I, J<T>`; `interface I extends J, K<T>`.
(extends_clause value: (identifier) @name) @reference.extends

(extends_clause value: (member_expression property: (property_identifier) @name)) @reference.extends

(extends_clause value: (call_expression arguments: (arguments (identifier) @name))) @reference.extends

(implements_clause (type_identifier) @name) @reference.implements

(implements_clause (generic_type name: (type_identifier) @name)) @reference.implements

(implements_clause
  (generic_type name: (nested_type_identifier name: (type_identifier) @name))) @reference.implements

(implements_clause (nested_type_identifier name: (type_identifier) @name)) @reference.implements

(extends_type_clause type: (type_identifier) @name) @reference.extends

(extends_type_clause type: (generic_type name: (type_identifier) @name)) @reference.extends

(extends_type_clause
  type: (nested_type_identifier name: (type_identifier) @name)) @reference.extends

; Type references: a type name (plain, `ns.T`, or `T<…>`) wherever a type is *used*. Parents are
; listed because type_identifier also names declarations and type parameters, and so extends and
; implements clauses are not counted twice. Single letters are type parameters: skipped. A
; qualified or generic type checks its parent in extract.py (#has-parent?): repeated under each
; of 20 parents, its chain was most of the query's compile (74 ms).
([(type_annotation (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (union_type (type_identifier) @name @reference.type)
  (intersection_type (type_identifier) @name @reference.type)
  (array_type (type_identifier) @name @reference.type)
  (tuple_type (type_identifier) @name @reference.type)
  (parenthesized_type (type_identifier) @name @reference.type)
  (readonly_type (type_identifier) @name @reference.type)
  (optional_type (type_identifier) @name @reference.type)
  (rest_type (type_identifier) @name @reference.type)
  (function_type return_type: (type_identifier) @name @reference.type)
  (constraint (type_identifier) @name @reference.type)
  (default_type (type_identifier) @name @reference.type)
  (conditional_type (type_identifier) @name @reference.type)
  (lookup_type (type_identifier) @name @reference.type)
  (index_type_query (type_identifier) @name @reference.type)
  (type_predicate (type_identifier) @name @reference.type)
  (as_expression (type_identifier) @name @reference.type)
  (satisfies_expression (type_identifier) @name @reference.type)
  (type_alias_declaration value: (type_identifier) @name @reference.type)]
 (#not-match? @name "^[A-Z]$"))

([(nested_type_identifier name: (type_identifier) @name @reference.type)
  (generic_type name: [(type_identifier) @name @reference.type
                       (nested_type_identifier name: (type_identifier) @name @reference.type)])] @_type
 (#not-match? @name "^[A-Z]$")
 (#has-parent? @_type type_annotation type_arguments union_type intersection_type array_type tuple_type
   parenthesized_type readonly_type optional_type rest_type function_type.return_type
   constraint default_type conditional_type lookup_type index_type_query type_predicate
   as_expression satisfies_expression type_alias_declaration.value))

; `import x = require('m')`.
(import_statement
  (import_require_clause (identifier) @alias source: (string (string_fragment) @name))) @reference.import

; Receiver types: annotated parameters, variables and class fields (`c: Client`).
(required_parameter pattern: (identifier) @name type: (type_annotation (type_identifier) @type)) @binding
(optional_parameter pattern: (identifier) @name type: (type_annotation (type_identifier) @type)) @binding
(variable_declarator name: (identifier) @name type: (type_annotation (type_identifier) @type)) @binding
(public_field_definition name: (property_identifier) @attribute type: (type_annotation (type_identifier) @type)) @binding
