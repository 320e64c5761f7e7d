; Java: types, members, calls, imports, extends/implements, deep-graph tokens.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_body (enum_constant name: (identifier) @name) @definition.constant)

(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

; Fields; UPPER_CASE ones are constants (the Java convention for static finals), as are interface
; constants.
((field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
 (#match? @name "^[A-Z][A-Z0-9_]*$"))
((field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
 (#not-match? @name "^[A-Z][A-Z0-9_]*$"))
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; `extends A<T>`; `implements I, J`; an interface's `extends I, J`.
(superclass
  [(type_identifier) @name
   (scoped_type_identifier (type_identifier) @name .)
   (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])]) @reference.extends
(super_interfaces
  (type_list
    [(type_identifier) @name
     (scoped_type_identifier (type_identifier) @name .)
     (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])]) @reference.implements)
(extends_interfaces
  (type_list
    [(type_identifier) @name
     (scoped_type_identifier (type_identifier) @name .)
     (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])]) @reference.extends)

; Calls: `a.b.c()` → c; `new a.Foo<>()` → Foo.
(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(object_creation_expression
  type: [(type_identifier) @name
         (scoped_type_identifier (type_identifier) @name .)
         (generic_type [(type_identifier) @name (scoped_type_identifier (type_identifier) @name .)])]) @reference.call

; Type references where a type is used (type_identifier only ever names uses in Java; parents are
; listed so extends/implements and `new` are not counted twice). Single letters (type parameters)
; and java.lang basics are skipped: they link everything.
([(formal_parameter type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (spread_parameter [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (field_declaration type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (local_variable_declaration type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (method_declaration type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (throws [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (array_type element: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (type_arguments [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (wildcard [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (cast_expression type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (instanceof_expression right: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (catch_type [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (type_bound [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (constant_declaration type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])
  (annotation_type_element_declaration type: [(type_identifier) @name @reference.type
      (scoped_type_identifier (type_identifier) @name @reference.type .)
      (generic_type [(type_identifier) @name @reference.type
                     (scoped_type_identifier (type_identifier) @name @reference.type .)])])]
 (#not-match? @name "^([A-Z]|String|Object|Integer|Long|Boolean|Double|Float|Short|Byte|Character|Void)$"))

; Annotations name their type where it is applied: `@Nullable`, `@AutoValue.Builder`,
; `@Memoized(x)`. java.lang's own (`@Override`) find no definition and stay unresolved.
([(marker_annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)])
  (annotation name: [(identifier) @name (scoped_identifier name: (identifier) @name)])] @reference.type
 (#not-match? @name "^(Override|Deprecated|SuppressWarnings|FunctionalInterface|SafeVarargs)$"))

; Imports: the dotted path as written (`a.b.C`; `a.b` for `a.b.*`); a static import names its class.
((import_declaration (scoped_identifier name: (identifier) @alias) @name .) @reference.import
 (#not-match? @reference.import "^import\\s+static"))
(import_declaration (scoped_identifier) @name (asterisk)) @reference.import
((import_declaration (scoped_identifier scope: (_) @name name: (identifier) @alias) .) @reference.import
 (#match? @reference.import "^import\\s+static"))

; Deep-graph tokens.
(field_access field: (identifier) @deep.field)
(decimal_integer_literal) @deep.literal
(hex_integer_literal) @deep.literal
(decimal_floating_point_literal) @deep.literal
(string_literal (string_fragment) @deep.literal)
(line_comment) @comment
(block_comment) @comment

; Receiver types (lang/receivers.py): parameters, locals and fields by declared type, and what
; `var x = new T()` constructs.
(formal_parameter type: [(type_identifier) @type (generic_type (type_identifier) @type)] name: (identifier) @name) @binding
((local_variable_declaration type: [(type_identifier) @type (generic_type (type_identifier) @type)]
   declarator: (variable_declarator name: (identifier) @name)) @binding
 (#not-eq? @type "var"))
(field_declaration type: [(type_identifier) @type (generic_type (type_identifier) @type)]
  declarator: (variable_declarator name: (identifier) @name)) @binding
(local_variable_declaration
  declarator: (variable_declarator name: (identifier) @name
    value: (object_creation_expression type: (type_identifier) @constructs))) @binding
; `var p = shop.pool()`: the call it is @assigned from (its declared return type)
((local_variable_declaration type: (type_identifier) @_var
   declarator: (variable_declarator name: (identifier) @name value: (method_invocation) @assigned))
 @binding
 (#eq? @_var "var"))
