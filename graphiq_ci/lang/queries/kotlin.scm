; Kotlin: classes, interfaces, enums, objects, functions, properties, calls, imports, supertypes.
; The grammar has few fields, so kinds are told apart by keyword tokens and the last child.

; `class`/`data class`/`sealed class` (ends in a body, constructor, supertype list or type
; parameters, or with the name itself); `interface`; `enum class` (ends in an enum body).
(class_declaration
  "class"
  (type_identifier) @name
  [(class_body) (primary_constructor) (delegation_specifier) (type_parameters) (type_constraints)] .) @definition.class
(class_declaration "class" (type_identifier) @name .) @definition.class
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body) .) @definition.enum
(enum_class_body (enum_entry (simple_identifier) @name) @definition.constant)
(object_declaration (type_identifier) @name) @definition.class
(type_alias (type_identifier) @name) @definition.type

; Functions (methods inside a class, via extract.py); extension functions are named without the
; receiver. Secondary constructors have no name of their own: the keyword names them.
(function_declaration (simple_identifier) @name) @definition.function
(secondary_constructor "constructor" @name) @definition.constructor

; Properties: UPPER_CASE top-level ones are constants; in a class (or `val`/`var` constructor
; parameters) they are fields.
((source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.constant)
 (#match? @name "^[A-Z][A-Z0-9_]*$"))
((source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable)
 (#not-match? @name "^[A-Z][A-Z0-9_]*$"))
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.field)
(primary_constructor
  (class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.field)

; Supertypes: `: Base()` (a constructor call) extends a class; a bare `: Iface` is implemented;
; an interface's supertypes are extended.
(delegation_specifier (constructor_invocation (user_type (type_identifier) @name))) @reference.extends
(class_declaration "class" (delegation_specifier (user_type (type_identifier) @name)) @reference.implements)
(class_declaration "interface" (delegation_specifier (user_type (type_identifier) @name)) @reference.extends)
(object_declaration (delegation_specifier (user_type (type_identifier) @name)) @reference.implements)

; Calls: `f()`, `Order(…)` (construction), `a.b.f()` → f.
(call_expression . (simple_identifier) @name) @reference.call
(call_expression
  . (navigation_expression (navigation_suffix (simple_identifier) @name) .)) @reference.call

; Type references: user types where a type is used (not in supertype lists, counted above).
; Single letters (type parameters) and the Kotlin basics are skipped.
([(parameter (user_type (type_identifier) @name @reference.type))
  (class_parameter (user_type (type_identifier) @name @reference.type))
  (nullable_type (user_type (type_identifier) @name @reference.type))
  (variable_declaration (user_type (type_identifier) @name @reference.type))
  (function_declaration (user_type (type_identifier) @name @reference.type))
  (type_projection (user_type (type_identifier) @name @reference.type))
  (type_alias (user_type (type_identifier) @name @reference.type))
  (function_type (user_type (type_identifier) @name @reference.type))
  (function_type_parameters (user_type (type_identifier) @name @reference.type))
  (receiver_type (user_type (type_identifier) @name @reference.type))
  (type_constraint (user_type (type_identifier) @name @reference.type))
  (type_test (user_type (type_identifier) @name @reference.type))
  (as_expression (user_type (type_identifier) @name @reference.type))
  (catch_block (user_type (type_identifier) @name @reference.type))
  (parenthesized_type (user_type (type_identifier) @name @reference.type))
  (type_parameter (user_type (type_identifier) @name @reference.type))]
 (#not-match? @name "^([A-Z]|String|Int|Long|Short|Byte|Boolean|Double|Float|Char|Unit|Any|Nothing|List|MutableList|Map|MutableMap|Set|MutableSet|Array)$"))

; Imports: the dotted path as written; alias = the imported name, or the `as` alias.
(import_header (identifier (simple_identifier) @alias .) @name .) @reference.import
(import_header (identifier) @name (import_alias (type_identifier) @alias)) @reference.import
(import_header (identifier) @name (wildcard_import)) @reference.import

; Deep-graph tokens.
(navigation_suffix (simple_identifier) @deep.field)
(integer_literal) @deep.literal
(real_literal) @deep.literal
(string_content) @deep.literal
(line_comment) @comment
(multiline_comment) @comment

; Annotations name their type where it is applied: `@Inject`, `@a.Named("x")`.
(annotation (user_type (type_identifier) @name .)) @reference.type
(annotation (constructor_invocation (user_type (type_identifier) @name .))) @reference.type
