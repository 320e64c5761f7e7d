; Scala 2 and 3: classes, objects, traits, enums, types, defs, vals, givens, calls, imports,
; supertypes. Braced and indentation-based (`:`) bodies are the same `template_body` node.

; Types. `case class` and `abstract class` are classes; an `object` (a companion, a `case
; object`, a `package object`) is a class too, so its members are methods and fields. A named
; structural given (`given ord: Ordering[A] with …`) is a class holding its methods.
(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(package_object name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(given_definition name: (identifier) @name body: (with_template_body)) @definition.class
(type_definition name: (type_identifier) @name) @definition.type

; Enum cases: `case South, West` is one node holding a node per name, so each name defines its
; own constant; `case Rgb(r: Int)` is a full case.
(simple_enum_case name: (identifier) @name) @definition.constant
(full_enum_case name: (identifier) @name) @definition.constant

; Functions (methods inside a type, via extract.py), abstract ones too. An auxiliary constructor
; `def this(…)` is the constructor `this`. A given alias (`given ec: Ctx = …`, which may take
; `using` parameters) is a function. Extension methods are named without their receiver.
((function_definition name: (identifier) @name) @definition.function
 (#not-eq? @name "this"))
(function_declaration name: (identifier) @name) @definition.function
((function_definition name: (identifier) @name) @definition.constructor
 (#eq? @name "this"))
(given_definition name: (identifier) @name "=") @definition.function

; Vals and vars: in a class, object, trait, enum or given body they are fields (not in an
; anonymous class's body, `new T { val x = … }`: its parent is the expression); at the top level
; (Scala 3) a `val` is a constant and a `var` a variable. Locals in function bodies are not
; definitions. Destructuring (`val (a, b) = …`, `val a, b = …`) defines nothing.
([(template_body
    [(val_definition pattern: (identifier) @name)
     (var_definition pattern: (identifier) @name)
     (val_declaration name: (identifier) @name)
     (var_declaration name: (identifier) @name)] @definition.field)
   (enum_body
    [(val_definition pattern: (identifier) @name)
     (var_definition pattern: (identifier) @name)] @definition.field)
   (with_template_body
    [(val_definition pattern: (identifier) @name)
     (var_definition pattern: (identifier) @name)] @definition.field)] @_body
 (#has-parent? @_body class_definition object_definition package_object trait_definition
   enum_definition given_definition))
(compilation_unit
  [(val_definition pattern: (identifier) @name)
   (val_declaration name: (identifier) @name)] @definition.constant)
(compilation_unit
  [(var_definition pattern: (identifier) @name)
   (var_declaration name: (identifier) @name)] @definition.variable)

; Constructor parameters that are members: `val`/`var` ones, and every parameter of a case class.
(class_parameter ["val" "var"] name: (identifier) @name) @definition.field
(class_definition
  "case"
  class_parameters: (class_parameters (class_parameter name: (identifier) @name) @definition.field))

; Supertypes (`extends A with B`, Scala 3 `extends A, B`; a generic or qualified one is named by
; its last type name). The grammar cannot tell a class from a trait: a class's, object's or
; enum's first supertype extends (Scala puts the superclass first), the others are implemented;
; a trait extends all of its parents; an enum case extends its enum. A clause's types are matched
; without their field: a field repeated under a hidden rule names only its first node.
((extends_clause
   . [(type_identifier) @name
      (generic_type type: (type_identifier) @name)
      (stable_type_identifier (type_identifier) @name .)
      (generic_type type: (stable_type_identifier (type_identifier) @name .))] @reference.extends) @_clause
 (#has-parent? @_clause class_definition object_definition package_object enum_definition
   simple_enum_case full_enum_case))
((extends_clause
   (_)
   [(type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (stable_type_identifier (type_identifier) @name .)
    (generic_type type: (stable_type_identifier (type_identifier) @name .))] @reference.implements) @_clause
 (#has-parent? @_clause class_definition object_definition package_object enum_definition))
((extends_clause
   [(type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (stable_type_identifier (type_identifier) @name .)
    (generic_type type: (stable_type_identifier (type_identifier) @name .))] @reference.extends) @_clause
 (#has-parent? @_clause trait_definition))

; Calls: `f(x)`, `f[T](x)`, `a.b.f(x)` → f with receiver `a.b` (also with a block or a Scala 3
; colon argument), `new Foo(x)` / `new Foo[T]` / `new a.Foo with Bar { … }` → Foo, `Foo(x)` (a
; case class's `apply`) → Foo, and infix calls of named methods (`store find id`; symbolic
; operators such as `+` or `::` are left out). `this(…)` in an auxiliary constructor is not a call.
((call_expression function: (identifier) @name) @reference.call
 (#not-eq? @name "this"))
(call_expression
  function: [(field_expression value: (_) @receiver field: (identifier) @name)
             (generic_function function: (field_expression value: (_) @receiver field: (identifier) @name))]) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(instance_expression
  [(type_identifier) @name
   (generic_type type: (type_identifier) @name)
   (stable_type_identifier (type_identifier) @name .)
   (compound_type base: [(type_identifier) @name (generic_type type: (type_identifier) @name)])]) @reference.call
(infix_expression left: (_) @receiver operator: (identifier) @name) @reference.call

; Type references: a type name (`T`, `a.b.T` → T, `T[…]` → T) where a type is used: parameters,
; return and val types, type arguments and bounds, function and tuple types, type aliases,
; ascriptions, typed and extractor patterns (`case e: StoreError`, `case Order(id, _)`), derives
; clauses. Supertype lists and constructor calls are not listed (counted above). Single letters
; (type parameters) and the Scala basics are skipped.
([(type_identifier) @name
  (generic_type type: (type_identifier) @name)
  (stable_type_identifier (type_identifier) @name .)
  (generic_type type: (stable_type_identifier (type_identifier) @name .))] @reference.type
 (#not-match? @name "^([A-Z]|Int|Long|Short|Byte|Char|String|Boolean|Double|Float|Unit|Any|AnyRef|AnyVal|Nothing|Null|Option|Some|None|List|Seq|IndexedSeq|Iterable|Iterator|Map|Set|Vector|Array|Either|Left|Right|Future|Try|Success|Failure|BigInt|BigDecimal|Ordering)$")
 (#has-parent? @reference.type parameter class_parameter binding val_definition var_definition
   val_declaration var_declaration function_definition function_declaration given_definition
   type_arguments function_type parameter_types tuple_type type_definition.type upper_bound
   lower_bound view_bound context_bound compound_type infix_type annotated_type
   repeated_parameter_type lazy_parameter_type typed_pattern ascription_expression
   case_class_pattern derives_clause self_type projected_type.type))

; Annotations name their type where it is applied: `@Inject`, `@JsonProperty("id")`. Lower-case
; ones (`@tailrec`, `@deprecated`) are the compiler's and Scala's own.
((annotation name: [(type_identifier) @name (stable_type_identifier (type_identifier) @name .)]) @reference.type
 (#match? @name "^[A-Z]"))

; Imports. The grammar keeps an import's dotted path as sibling identifiers, with no node of its
; own, so an import is named by the whole declaration as written (`import a.b.C`), which
; imports.scala reads: `a.b.C` binds C, `a.b.C as D` and `a.b.{C => D}` bind D, and wildcards
; (`a.b._`, `a.b.*`, `a.b.{given, *}`) and hidden names (`{C => _}`) bind nothing. Several
; selectors, `a.b.{C, D => E}`, give an import each, named by the selector alone (C binds C, D
; binds E): the declaration would not say which of them a file is for. `import a.B, c.D` (rare)
; is read as its last import.
(import_declaration (identifier) @alias .) @name @reference.import
(import_declaration (as_renamed_identifier alias: (identifier) @alias)) @name @reference.import
(import_declaration (namespace_wildcard)) @name @reference.import
(import_declaration (namespace_selectors (namespace_wildcard) .)) @name @reference.import
(import_declaration
  (namespace_selectors
    . [(identifier) @alias
       (arrow_renamed_identifier alias: (identifier) @alias)
       (as_renamed_identifier alias: (identifier) @alias)] .)) @name @reference.import
(import_declaration
  (namespace_selectors
    . [(identifier) @name @alias
       (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)
       (as_renamed_identifier name: (identifier) @name alias: (identifier) @alias)]
    . (_))) @reference.import
(import_declaration
  (namespace_selectors
    (_)
    . [(identifier) @name @alias
       (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)
       (as_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @reference.import

; Deep-graph tokens.
(field_expression field: (identifier) @deep.field)
(integer_literal) @deep.literal
(floating_point_literal) @deep.literal
(string) @deep.literal
(comment) @comment
(block_comment) @comment

; Receiver types (lang/receivers.py): parameters, constructor parameters and vals with a type
; (`c: Client`, `c: Client[A]`), and what `val c = new Client(…)` or `val c = Client(…)` builds.
(parameter
  name: (identifier) @name
  type: [(type_identifier) @type (generic_type type: (type_identifier) @type)]) @binding
(class_parameter
  name: (identifier) @name
  type: [(type_identifier) @type (generic_type type: (type_identifier) @type)]) @binding
([(val_definition
    pattern: (identifier) @name
    type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (var_definition
    pattern: (identifier) @name
    type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])
  (val_declaration
    name: (identifier) @name
    type: [(type_identifier) @type (generic_type type: (type_identifier) @type)])]) @binding
(val_definition
  pattern: (identifier) @name
  value: (instance_expression [(type_identifier) @constructs
                               (generic_type type: (type_identifier) @constructs)])) @binding
((val_definition
   pattern: (identifier) @name
   value: (call_expression function: (identifier) @constructs)) @binding
 (#match? @constructs "^[A-Z]"))
