; Rust: items, impl blocks, calls, `use` paths, trait bounds and impls, deep-graph tokens.

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(enum_variant_list (enum_variant name: (identifier) @name) @definition.constant)
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
(mod_item name: (identifier) @name body: (_)) @definition.module
(macro_definition name: (identifier) @name) @definition.function
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)

; An impl block is a `type` named after its self type, so its functions become methods with
; qualified names like `MemStore.new` (the struct itself is a separate symbol of the same name).
(impl_item
  type: [(type_identifier) @name
         (scoped_type_identifier name: (type_identifier) @name)
         (generic_type type: [(type_identifier) @name
                              (scoped_type_identifier name: (type_identifier) @name)])]) @definition.type

; `impl Trait for T` implements Trait; `trait A: B + C` extends B and C.
(impl_item
  trait: [(type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
          (generic_type type: [(type_identifier) @name
                               (scoped_type_identifier name: (type_identifier) @name)])]) @reference.implements
(trait_item
  bounds: (trait_bounds
    [(type_identifier) @name
     (scoped_type_identifier name: (type_identifier) @name)
     (generic_type type: (type_identifier) @name)])) @reference.extends

; Calls: `f()`, `x.f()`, `a::b::f()`, `f::<T>()` → f; `Point { … }` constructs a Point; macros
; are calls too, except the std ones every file uses.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: [(identifier) @name
               (scoped_identifier name: (identifier) @name)
               (field_expression field: (field_identifier) @name)])) @reference.call
(struct_expression
  name: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)]) @reference.call
((macro_invocation macro: (identifier) @name) @reference.call
 (#not-match? @name "^(println|print|eprintln|eprint|format|format_args|vec|write|writeln|assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|panic|todo|unimplemented|unreachable|matches|dbg|concat|stringify|include_str|env|cfg)$"))

; Type references: a type name (plain, `a::T` or `T<…>`) where a type is used; parents are listed so
; declared names and impl/trait headers are not counted again. Single letters (type parameters) and
; the std wrappers every signature uses are skipped. A path or generic type checks its parent in
; extract.py (#has-parent?): under each parent it cost 40 ms of the query's compile.
([(parameter type: (type_identifier) @name @reference.type)
  (function_item return_type: (type_identifier) @name @reference.type)
  (function_signature_item return_type: (type_identifier) @name @reference.type)
  (field_declaration type: (type_identifier) @name @reference.type)
  (ordered_field_declaration_list type: (type_identifier) @name @reference.type)
  (type_arguments (type_identifier) @name @reference.type)
  (type_binding type: (type_identifier) @name @reference.type)
  (reference_type type: (type_identifier) @name @reference.type)
  (pointer_type type: (type_identifier) @name @reference.type)
  (array_type element: (type_identifier) @name @reference.type)
  (tuple_type (type_identifier) @name @reference.type)
  (abstract_type trait: (type_identifier) @name @reference.type)
  (dynamic_type trait: (type_identifier) @name @reference.type)
  (let_declaration type: (type_identifier) @name @reference.type)
  (const_item type: (type_identifier) @name @reference.type)
  (static_item type: (type_identifier) @name @reference.type)
  (type_item type: (type_identifier) @name @reference.type)]
 (#not-match? @name "^([A-Z]|Self|Option|Vec|String|Box)$"))

([(scoped_type_identifier name: (type_identifier) @name @reference.type)
  (generic_type type: [(type_identifier) @name @reference.type
                       (scoped_type_identifier name: (type_identifier) @name @reference.type)])] @_type
 (#not-match? @name "^([A-Z]|Self|Option|Vec|String|Box)$")
 (#has-parent? @_type parameter.type function_item.return_type function_signature_item.return_type
   field_declaration.type ordered_field_declaration_list.type type_arguments type_binding.type
   reference_type.type pointer_type.type array_type.element tuple_type abstract_type.trait
   dynamic_type.trait let_declaration.type const_item.type static_item.type type_item.type))

([(type_parameter bounds: (trait_bounds [(type_identifier) @name @reference.type
                    (scoped_type_identifier name: (type_identifier) @name @reference.type)
                    (generic_type type: [(type_identifier) @name @reference.type
                                         (scoped_type_identifier name: (type_identifier) @name @reference.type)])]))
  (where_predicate bounds: (trait_bounds [(type_identifier) @name @reference.type
                    (scoped_type_identifier name: (type_identifier) @name @reference.type)
                    (generic_type type: [(type_identifier) @name @reference.type
                                         (scoped_type_identifier name: (type_identifier) @name @reference.type)])]))]
 (#not-match? @name "^([A-Z]|Self|Option|Vec|String|Box)$"))

; `use` paths as written. `use a::b::C;` → name `a::b::C`, alias C; `use a::{B, c::D as E}` → one
; import per item: `a` with alias B, and `c::D` with alias E (the prefix is dropped: there is no
; node for the joined path, and imports.rust only needs the trailing module segments).
(use_declaration argument: (identifier) @name @alias) @reference.import
(use_declaration argument: (scoped_identifier name: (identifier) @alias) @name) @reference.import
(use_declaration argument: (use_as_clause path: (_) @name alias: (identifier) @alias)) @reference.import
(use_declaration argument: (use_wildcard (_) @name)) @reference.import
(use_declaration
  argument: (scoped_use_list
    path: (_) @name
    list: (use_list [(identifier) @alias (use_as_clause path: (identifier) alias: (identifier) @alias)]))) @reference.import
(use_declaration
  argument: (scoped_use_list
    list: (use_list
      [(scoped_identifier name: (identifier) @alias) @name
       (use_as_clause path: (scoped_identifier) @name alias: (identifier) @alias)
       (scoped_use_list path: (_) @name)]))) @reference.import
(use_declaration
  argument: (use_list
    [(identifier) @name @alias
     (scoped_identifier name: (identifier) @alias) @name
     (use_as_clause path: (_) @name alias: (identifier) @alias)])) @reference.import
; `mod x;` pulls in x.rs; `extern crate x;`.
(mod_item name: (identifier) @name @alias !body) @reference.import
(extern_crate_declaration name: (identifier) @name) @reference.import

; Deep-graph tokens.
(field_expression field: (field_identifier) @deep.field)
(field_initializer field: (field_identifier) @deep.field)
(shorthand_field_initializer (identifier) @deep.field)
(integer_literal) @deep.literal
(float_literal) @deep.literal
(string_literal (string_content) @deep.literal)
(line_comment) @comment
(block_comment) @comment

; Receiver types (lang/receivers.py): parameters, `let x: T`, struct fields, and what
; `let x = T::new(…)` / `let x = T { … }` construct. `self` is the enclosing impl block's type.
(parameter pattern: (identifier) @name
  type: [(type_identifier) @type (reference_type type: (type_identifier) @type)]) @binding
(let_declaration pattern: (identifier) @name
  type: [(type_identifier) @type (reference_type type: (type_identifier) @type)]) @binding
(field_declaration name: (field_identifier) @name
  type: [(type_identifier) @type (reference_type type: (type_identifier) @type)]) @binding
(let_declaration pattern: (identifier) @name
  value: [(call_expression function: (scoped_identifier path: (identifier) @constructs))
          (struct_expression name: (type_identifier) @constructs)]) @binding
; `let p = shop.pool()` / `make_queue()`: the call it is @assigned from (its return type)
(let_declaration pattern: (identifier) @name
  value: (call_expression function: [(field_expression) (identifier)]) @assigned) @binding
