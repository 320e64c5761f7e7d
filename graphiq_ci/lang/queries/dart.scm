; Dart: classes, mixins, extensions, enums, typedefs, functions, methods, constructors, fields,
; top-level variables, calls, imports, supertypes, deep-graph tokens.
; The grammar is flat in places: a method's signature and its body are siblings (a class body
; holds `method_signature` then `function_body`, a file `function_signature` then
; `function_body`), so a callable is its signature node, with the body beside it as @body (read
; by no one yet: extract.py takes a definition's range from its node). Member accesses and calls
; are a primary followed by sibling `selector`s: `a.b.f(x)` is `a`, `.b`, `.f`, `(x)`.

; Types. A mixin is a trait; an extension (its members qualified under it) and an extension type
; are classes; `class A = B with C;` names its class inside a mixin application.
(class_definition name: (identifier) @name) @definition.class
(class_definition (mixin_application_class . (identifier) @name)) @definition.class
(mixin_declaration (identifier) @name) @definition.trait
(extension_declaration name: (identifier) @name) @definition.class
(extension_type_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(enum_constant name: (identifier) @name) @definition.constant
; `typedef Handler = …;`, `typedef Handler<T> = …;`, `typedef void Callback(Order o);`: the name
; is the type before `=`, the type parameters or the parameters (a return type comes first).
(type_alias (type_identifier) @name . ["=" (type_parameters) (formal_parameter_list)]) @definition.type

; Functions and methods (methods inside a type, via extract.py); getters, setters and operators
; are named by what follows `get`/`set`/`operator`. With a body: the signature, @body beside it.
; Without one (abstract, `external`, or a declaration ending in `;`): the whole declaration.
((method_signature
   [(function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)
    (operator_signature "operator" . _ @name)]) @definition.function
 . (function_body) @body)
(declaration
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)
   (operator_signature "operator" . _ @name)]) @definition.function
((program
   [(function_signature name: (identifier) @name)
    (getter_signature name: (identifier) @name)
    (setter_signature name: (identifier) @name)] @definition.function
   . (function_body) @body))
(program
  "external" . [(function_signature name: (identifier) @name)
                (getter_signature name: (identifier) @name)
                (setter_signature name: (identifier) @name)] @definition.function)

; Constructors: `Order(…)` is named `Order`, `Order.named(…)` (and `factory`, `const`,
; redirecting ones) `named`: the name right before the parameters, so `Order.fromJson(…)` calls
; reach `Order.fromJson` through their receiver.
((method_signature
   [(constructor_signature (identifier) @name . (formal_parameter_list))
    (factory_constructor_signature (identifier) @name . (formal_parameter_list))
    (constant_constructor_signature (identifier) @name . (formal_parameter_list))]) @definition.constructor
 . (function_body) @body)
(declaration
  [(constructor_signature (identifier) @name . (formal_parameter_list))
   (factory_constructor_signature (identifier) @name . (formal_parameter_list))
   (constant_constructor_signature (identifier) @name . (formal_parameter_list))
   (redirecting_factory_constructor_signature (identifier) @name . (formal_parameter_list))]) @definition.constructor

; Fields: a declaration of one name is the field (its type and modifiers in its signature); each
; name of `int a = 0, b;` is one. An extension type's representation is a field too.
(declaration
  [(initialized_identifier_list . (initialized_identifier . (identifier) @name) .)
   (static_final_declaration_list . (static_final_declaration . (identifier) @name) .)]) @definition.field
(declaration
  (initialized_identifier_list
    [((initialized_identifier . (identifier) @name) @definition.field . ",")
     ("," . (initialized_identifier . (identifier) @name) @definition.field)]))
(declaration
  (static_final_declaration_list
    [((static_final_declaration . (identifier) @name) @definition.field . ",")
     ("," . (static_final_declaration . (identifier) @name) @definition.field)]))
(representation_declaration name: (identifier) @name) @definition.field

; Top-level variables: the grammar does not group a declaration, so each declared name is the
; definition; `const` ones are constants, `final`/`var`/typed ones variables.
(program
  (const_builtin)
  . [(type_identifier) (type_arguments) (nullable_type) (function_type) (record_type)]*
  . (static_final_declaration_list (static_final_declaration . (identifier) @name) @definition.constant))
(program
  (final_builtin)
  . [(type_identifier) (type_arguments) (nullable_type) (function_type) (record_type)]*
  . (static_final_declaration_list (static_final_declaration . (identifier) @name) @definition.variable))
(program
  (initialized_identifier_list (initialized_identifier . (identifier) @name) @definition.variable))

; Supertypes: `extends B` and a mixin's `on B` extend; `implements I, J` and `with M` implement.
(superclass (type_identifier) @name . [(type_arguments) (mixins)]) @reference.extends
(superclass (type_identifier) @name .) @reference.extends
((mixin_declaration "on" (type_identifier) @name) @reference.extends
 (#not-match? @name "^[a-z]"))
(mixin_application . (type_identifier) @name) @reference.extends
((mixins (type_identifier) @name) @reference.implements
 (#not-match? @name "^[a-z]"))
((interfaces (type_identifier) @name) @reference.implements
 (#not-match? @name "^[a-z]"))

; Calls: `f(x)` and `Order(x)` (construction) → f, Order; `a.b.f(x)`, `a?.f(x)`, `..f(x)` → f.
; A call is a `selector` holding the arguments after the callee's name. Its receiver is the name
; right before a member (`u.log()` through an import prefix, `Order.fromJson()` a named
; constructor or a static method, `this.f()`); a longer chain has none.
(_ (identifier) @name . (selector (argument_part))) @reference.call
(_ [(identifier) (this)] @receiver
   . (selector [(unconditional_assignable_selector (identifier) @name)
                (conditional_assignable_selector (identifier) @name)])
   . (selector (argument_part))) @reference.call
((_ (_) @previous
    . (selector [(unconditional_assignable_selector (identifier) @name)
                 (conditional_assignable_selector (identifier) @name)])
    . (selector (argument_part))) @reference.call
 (#not-match? @previous "^(\\w|\\$)+$"))
(_ (super) . (unconditional_assignable_selector (identifier) @name) . (selector (argument_part))) @reference.call
(cascade_section (cascade_selector (identifier) @name) . (argument_part)) @reference.call
; `new Order(x)`, `const Order(x)`, `new p.Order(x)`; `new Order.named(x)` calls `named` of Order.
; (`const a.B()` reads as a named constructor: the grammar cannot tell a prefix from a class.)
(new_expression . (type_identifier) @name . [(arguments) (type_arguments)]) @reference.call
(new_expression (type_identifier) @receiver . (type_identifier) @name . [(arguments) (type_arguments)]) @reference.call
(new_expression (type_identifier) @receiver . (identifier) @name) @reference.call
(const_object_expression (const_builtin) . (type_identifier) @name . [(arguments) (type_arguments)]) @reference.call
(const_object_expression (type_identifier) @receiver . (identifier) @name) @reference.call
(constructor_invocation (type_identifier) @receiver . (type_arguments) . (identifier) @name) @reference.call

; Type references where a type is used (not in supertype lists, nor constructed: counted
; above). A prefix (`http.Client`) is lower case like the Dart basics; single letters (type
; parameters) and the core library's common types are skipped too: they link everything.
([(formal_parameter (type_identifier) @name @reference.type)
  (super_formal_parameter (type_identifier) @name @reference.type)
  (declaration (type_identifier) @name @reference.type)
  (function_signature (type_identifier) @name @reference.type)
  (getter_signature (type_identifier) @name @reference.type)
  (operator_signature (type_identifier) @name @reference.type)
  (program (type_identifier) @name @reference.type)
  (initialized_variable_definition (type_identifier) @name @reference.type)
  (for_loop_parts (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (type_bound (type_identifier) @name @reference.type)
  (function_type (type_identifier) @name @reference.type)
  (normal_parameter_type (type_identifier) @name @reference.type)
  (typed_identifier (type_identifier) @name @reference.type)
  (record_type_field (type_identifier) @name @reference.type)
  (representation_declaration (type_identifier) @name @reference.type)
  (extension_declaration (type_identifier) @name @reference.type)
  (type_test (type_identifier) @name @reference.type)
  (type_cast (type_identifier) @name @reference.type)
  (try_statement (type_identifier) @name @reference.type)
  (object_pattern (type_identifier) @name @reference.type)
  (variable_pattern (type_identifier) @name @reference.type)]
 (#not-match? @name "^([a-z_$].*|_?[A-Z]|String|Object|List|Map|Set|Future|FutureOr|Stream|Iterable|Function|Never|Null|Type|Symbol|Record|Comparable|Duration|DateTime|Uri)$"))

; Annotations name their type where it is applied: `@JsonSerializable()`, `@Deprecated(…)` (the
; lower-case ones, `@override`, `@immutable`, are constants).
((annotation name: (identifier) @name) @reference.type
 (#match? @name "^[A-Z]"))

; Imports, exports and parts: the URI as written (a conditional import's default one). `as u`
; (`deferred as u`) binds u; `show A, B` binds A and B (an import without either makes every
; name of the file visible, unbound). `export 'x.dart';` passes every name of x.dart on, but
; binds nothing: only a `*` alias would say so, and no node of it reads `*`.
(import_specification (configurable_uri (uri (string_literal) @name)) "as" . (identifier) @alias) @reference.import
(import_specification (uri (string_literal) @name) "deferred" "as" . (identifier) @alias) @reference.import
((import_specification (configurable_uri (uri (string_literal) @name)) .) @reference.import)
(import_specification
  (configurable_uri (uri (string_literal) @name))
  . (combinator "show" . (identifier) @alias . ("," . (identifier) @alias)*)) @reference.import
(import_specification (configurable_uri (uri (string_literal) @name)) . (combinator "hide")) @reference.import
(library_export
  (configurable_uri (uri (string_literal) @name))
  . (combinator "show" . (identifier) @alias . ("," . (identifier) @alias)*)) @reference.import
((library_export (configurable_uri (uri (string_literal) @name)) .) @reference.import)
(library_export (configurable_uri (uri (string_literal) @name)) . (combinator "hide")) @reference.import
; A part and its library depend on each other: `part 'x.g.dart';`, `part of 'order.dart';`.
(part_directive (uri (string_literal) @name)) @reference.import
(part_of_directive (uri (string_literal) @name)) @reference.import

; Deep-graph tokens.
(unconditional_assignable_selector (identifier) @deep.field)
(conditional_assignable_selector (identifier) @deep.field)
(cascade_selector (identifier) @deep.field)
(decimal_integer_literal) @deep.literal
(hex_integer_literal) @deep.literal
(decimal_floating_point_literal) @deep.literal
(string_literal) @deep.literal
(comment) @comment
(documentation_comment) @comment
