; PHP: classes, interfaces, traits, enums, functions, methods, properties, constants, calls,
; `use` imports and require/include, extends/implements, deep-graph tokens.

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(enum_declaration_list (enum_case name: (name) @name) @definition.constant)
; Only a braced namespace encloses code; `namespace A\B;` is a one-line statement.
(namespace_definition name: (namespace_name) @name body: (_)) @definition.namespace

(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
; Properties are named without the `$`.
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(const_declaration (const_element (name) @name)) @definition.constant

; `class A extends B implements C, \D`; an interface's `extends`; `use T;` in a class mixes a
; trait in.
(base_clause [(name) @name (qualified_name (name) @name .)] @reference.extends)
(class_interface_clause [(name) @name (qualified_name (name) @name .)] @reference.implements)
(declaration_list
  (use_declaration [(name) @name (qualified_name (name) @name .)] @reference.implements))

; Calls: `f()`, `\ns\f()`, `$o->f()`, `$o?->f()`, `A::f()` → f; `new A()` → A.
(function_call_expression function: [(name) @name (qualified_name (name) @name .)]) @reference.call
(member_call_expression name: (name) @name) @reference.call
(nullsafe_member_call_expression name: (name) @name) @reference.call
(scoped_call_expression name: (name) @name) @reference.call
(object_creation_expression [(name) @name (qualified_name (name) @name .)]) @reference.call

; Type references: named_type only ever appears where a type is used (parameters, returns,
; properties, unions, nullable `?T`); `catch (E $e)` and `instanceof` too.
(named_type [(name) @name (qualified_name (name) @name .)]) @reference.type
(binary_expression
  operator: "instanceof"
  right: [(name) @name (qualified_name (name) @name .)]) @reference.type

; `use A\B\C;` → name `A\B\C`, alias C (or the `as` alias); in a group `use A\{B, C as D}` each
; clause is its own import named by the clause (the prefix has no node joined with it).
(namespace_use_declaration
  (namespace_use_clause
    [(qualified_name (name) @alias .) (name) @alias] @name
    !alias)) @reference.import
(namespace_use_declaration
  (namespace_use_clause
    [(qualified_name) (name)] @name
    alias: (name) @alias)) @reference.import
(namespace_use_declaration
  body: (namespace_use_group
    (namespace_use_clause [(qualified_name (name) @alias .) (name) @alias] @name !alias))) @reference.import
(namespace_use_declaration
  body: (namespace_use_group
    (namespace_use_clause [(qualified_name) (name)] @name alias: (name) @alias))) @reference.import
; require/include: the path string (also the literal part of `__DIR__ . '/x.php'`).
(require_expression
  [(string (string_content) @name)
   (binary_expression right: (string (string_content) @name))]) @reference.import
(require_once_expression
  [(string (string_content) @name)
   (binary_expression right: (string (string_content) @name))]) @reference.import
(include_expression
  [(string (string_content) @name)
   (binary_expression right: (string (string_content) @name))]) @reference.import
(include_once_expression
  [(string (string_content) @name)
   (binary_expression right: (string (string_content) @name))]) @reference.import

; Deep-graph tokens.
(member_access_expression name: (name) @deep.field)
(nullsafe_member_access_expression name: (name) @deep.field)
(integer) @deep.literal
(float) @deep.literal
(string (string_content) @deep.literal)
(encapsed_string (string_content) @deep.literal)
(comment) @comment
