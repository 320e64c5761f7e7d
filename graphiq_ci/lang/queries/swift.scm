; Swift: classes, structs, enums, actors, protocols, extensions, functions, properties, calls,
; imports, supertypes. One node, `class_declaration`, holds class/struct/enum/actor/extension:
; its `declaration_kind` keyword tells them apart. The grammar names many unrelated children
; `name` (a function's return type, a parameter's type), so patterns say which node they want.

; Types. `actor` is a class. An extension is a `type` named after the type it extends (the last
; segment of `Outer.Inner`, as Rust names an impl block), so its members qualify as
; `Type.member` and its conformances belong to Type; the class itself stays one class symbol.
(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(protocol_declaration name: (type_identifier) @name) @definition.interface
(class_declaration
  declaration_kind: "extension"
  name: [(user_type (type_identifier) @name .)
         (user_type (type_identifier) @name . (type_arguments) .)]) @definition.type
(typealias_declaration name: (type_identifier) @name) @definition.type
(associatedtype_declaration name: (type_identifier) @name) @definition.type

; Enum cases. A case with one name is defined by the whole case (its doc comment and signature);
; `case red, green` is one node, so each of its names is defined by its own identifier (the first
; name would otherwise enclose the others and qualify them as `Color.red.green`). The names after
; a comma are not anchored to it: tree-sitter then reports only the first (`h` of `g, h, i`).
(enum_entry "case" . name: (simple_identifier) @name . data_contents: (_)? . raw_value: (_)? .) @definition.constant
(enum_entry "case" . name: (simple_identifier) @name @definition.constant ",")
(enum_entry "," name: (simple_identifier) @name @definition.constant)

; Functions (methods inside a type, via extract.py) and protocol requirements; operators
; (`static func ==`) are left out. `init`/`deinit`/`subscript` have no name: the keyword names them.
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.constructor
(deinit_declaration "deinit" @name) @definition.function
(subscript_declaration "subscript" @name) @definition.function

; Properties: a top-level `let` is a constant, a top-level `var` a variable; in a type (or a
; protocol's requirements) either is a field. Locals in function bodies are not definitions.
; `let x = 1, y = 2` is one node and defines x only: a name after the comma would sit inside
; x's definition and qualify as `x.y` (rare: none in Alamofire's sources).
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
([(class_body (property_declaration
    (value_binding_pattern) . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
  (enum_class_body (property_declaration
    (value_binding_pattern) . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
  (protocol_body (protocol_property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)])

; Supertypes. The grammar cannot tell a superclass from a protocol: a class's first inheritance
; item extends (Swift requires the superclass first), the others are implemented; a struct, enum,
; actor or extension implements all of its items; a protocol extends its parents. A conformance
; may carry an attribute (`@unchecked Sendable`); raw-value types (`enum E: String`) and `AnyObject`
; are skipped. A generic supertype is named without its arguments.
((class_declaration
   declaration_kind: "class"
   name: (type_identifier) . (type_parameters)? . (attribute)?
   . (inheritance_specifier
       inherits_from: [(user_type (type_identifier) @name .)
                       (user_type (type_identifier) @name . (type_arguments) .)]) @reference.extends)
 (#not-match? @name "^(class|AnyObject|String|Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Character|Bool)$"))
((class_declaration
   declaration_kind: "class"
   (inheritance_specifier) . (attribute)?
   . (inheritance_specifier
       inherits_from: [(user_type (type_identifier) @name .)
                       (user_type (type_identifier) @name . (type_arguments) .)]) @reference.implements)
 (#not-match? @name "^(class|AnyObject|String|Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Character|Bool)$"))
((class_declaration
   declaration_kind: ["struct" "enum" "actor" "extension"]
   (inheritance_specifier
     inherits_from: [(user_type (type_identifier) @name .)
                     (user_type (type_identifier) @name . (type_arguments) .)]) @reference.implements)
 (#not-match? @name "^(class|AnyObject|String|Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Character|Bool)$"))
((protocol_declaration
   (inheritance_specifier
     inherits_from: [(user_type (type_identifier) @name .)
                     (user_type (type_identifier) @name . (type_arguments) .)]) @reference.extends)
 (#not-match? @name "^(class|AnyObject)$"))

; Calls: `f()`, `Order(…)` (construction), `a.b.f()` → f with receiver `a.b` (also `a?.f()`,
; `self.init()`), `Foo<T>(…)`, and implicit members `.success(x)` (not `.init(…)`: it names no
; type). A trailing closure (`items.forEach { … }`) is the same call node. A call's children are
; its callee and its arguments (`call_suffix`), so a member access or `.member` whose parent is a
; call is the callee: checked in extract.py (#has-parent?), as nested patterns these two cost a
; third of the query's compile (expression nodes sit under hundreds of parents in this grammar).
(call_expression . (simple_identifier) @name) @reference.call
((navigation_expression
   target: (_) @receiver
   suffix: (navigation_suffix suffix: (simple_identifier) @name)) @reference.call
 (#has-parent? @reference.call call_expression))
((prefix_expression operation: "." target: (simple_identifier) @name) @reference.call
 (#not-eq? @name "init")
 (#has-parent? @reference.call call_expression))
(constructor_expression
  constructed_type: [(user_type (type_identifier) @name .)
                     (user_type (type_identifier) @name . (type_arguments) .)]) @reference.call

; Type references: a type name (`T`, `Outer.T` → T, `T<…>` → T) where a type is used: parameters,
; return types, annotations, generic arguments and constraints, casts, `some`/`any`, tuples,
; closures. Supertype lists, extension headers, attributes and constructor calls are not listed
; (counted above). Single letters (type parameters), the Swift basics and `.Type` are skipped.
([(user_type (type_identifier) @name @reference.type .)
  (user_type (type_identifier) @name @reference.type . (type_arguments) .)] @_type
 (#not-match? @name "^([A-Z]|Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Float80|String|Substring|Character|Bool|Void|Never|Any|AnyObject|Self|Error|Array|Dictionary|Set|Optional|Type|Protocol)$")
 (#has-parent? @_type parameter type_annotation optional_type type_arguments existential_type
   opaque_type function_declaration protocol_function_declaration subscript_declaration
   tuple_type_item function_type type_parameter array_type dictionary_type enum_type_parameters
   equality_constraint inheritance_constraint as_expression check_expression pattern
   protocol_composition_type typealias_declaration associatedtype_declaration lambda_parameter))

; Attributes name their type where it is applied: property wrappers (`@Published`), global actors
; (`@MainActor`). Lower-case ones (`@objc`, `@escaping`, `@available`) are compiler keywords.
((attribute (user_type (type_identifier) @name .)) @reference.type
 (#match? @name "^[A-Z]"))

; Imports: the module (or `Module.Symbol`) as written. `import Foundation` brings in the whole
; module (no bound name); `import struct Combine.AnyPublisher` binds AnyPublisher.
((import_declaration (identifier) @name) @reference.import
 (#not-match? @reference.import "(^|\\s)import\\s+(typealias|struct|class|enum|protocol|let|var|func)\\s"))
(import_declaration
  ["typealias" "struct" "class" "enum" "protocol" "let" "var" "func"]
  (identifier (simple_identifier) @alias .) @name) @reference.import

; Deep-graph tokens.
(navigation_suffix suffix: (simple_identifier) @deep.field)
(integer_literal) @deep.literal
(hex_literal) @deep.literal
(real_literal) @deep.literal
(line_str_text) @deep.literal
(comment) @comment
(multiline_comment) @comment

; Receiver types (lang/receivers.py): parameters and properties with a type annotation (`c: Client`,
; `c: Client?`), and what `let c = Client(…)` constructs. `self` is the enclosing type (an
; extension's too: it is named after the type). Not anchored to their own name: anchors doubled
; these patterns' compile, and `let a: A, b: B` (which makes `a` ambiguous, so unknown) is rare.
(parameter
  name: (simple_identifier) @name
  [(user_type (type_identifier) @type .)
   (optional_type wrapped: (user_type (type_identifier) @type .))]) @binding
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  (type_annotation
    [(user_type (type_identifier) @type .)
     (optional_type wrapped: (user_type (type_identifier) @type .))])) @binding
((property_declaration
   name: (pattern bound_identifier: (simple_identifier) @name)
   value: (call_expression . (simple_identifier) @constructs)) @binding
 (#match? @constructs "^[A-Z]"))
