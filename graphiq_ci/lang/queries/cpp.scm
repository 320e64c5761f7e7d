; C++ on top of c_family.scm: classes, namespaces, methods (in-class and `A::f` out of line),
; aliases, base classes, `new`, templates. extract.py attaches a comment above `template <…>`
; to the class.

; Functions: the name sits under a function_declarator, itself under up to two pointer_declarators
; (`char **f(void)`). Prototypes (`int f(int);`, the API of a header) are functions too.
(function_definition
  declarator: [(function_declarator
                 declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
               (pointer_declarator
                 declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))
               (reference_declarator
                 (function_declarator declarator: [(identifier) (field_identifier)] @name))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function

; Out-of-line members `R A::f(…) {…}`: named f and owned by A (@owner: `A.f`, as declared in the
; class, so the declaration and this body pair up; the class is not their lexical parent);
; `A::A` is a constructor.
((function_definition
   declarator: [(function_declarator
                  declarator: (qualified_identifier
                    scope: (_) @_scope @owner
                    name: [(identifier) (destructor_name) (operator_name)] @name))
                (pointer_declarator
                  declarator: (function_declarator
                    declarator: (qualified_identifier scope: (_) @_scope @owner name: (identifier) @name)))
                (reference_declarator
                  (function_declarator
                    declarator: (qualified_identifier scope: (_) @_scope @owner name: (identifier) @name)))]) @definition.function
 (#not-eq? @_scope @name))

((function_definition
   declarator: (function_declarator
     declarator: (qualified_identifier scope: (_) @_scope @owner name: (identifier) @name))) @definition.constructor
 (#eq? @_scope @name))

; In-class declarations: `T f(…);` is a method, `A(…);` a constructor, `~A();` a destructor, each
; only declared (@declaration: index/pairs.py ties it to an out-of-line `A::f` body). An
; inline constructor `A(…) {…}` also matches the function pattern above; the class-anchored
; pattern starts at an outer node, so tree-sitter reports it first and extract.py keeps it.
(field_declaration_list
  (field_declaration
    declarator: [(function_declarator declarator: [(field_identifier) (operator_name)] @name)
                 (pointer_declarator
                   declarator: (function_declarator declarator: (field_identifier) @name))
                 (reference_declarator
                   (function_declarator declarator: [(field_identifier) (operator_name)] @name))]) @definition.method @declaration)

(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor @declaration)

(field_declaration_list
  (declaration declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method @declaration)

(field_declaration_list
  (function_definition
    declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)

(class_specifier name: (type_identifier) @name body: (_)) @definition.class

(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace

(alias_declaration name: (type_identifier) @name) @definition.type

(concept_definition name: (identifier) @name) @definition.type

; `struct s {…};` (and unions, enums) at file level or inside #if blocks (header guards). A
; `typedef struct {…} s_t;` is defined by the whole typedef, named by the typedef name, so its
; doc comment attaches and a tagged typedef is one symbol, not two.
; The parents are a predicate (extract.py) rather than one pattern each: see #has-parent?.
([(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
  (union_specifier name: (type_identifier) @name body: (_)) @definition.struct]
 (#has-parent? @definition.struct translation_unit preproc_ifdef preproc_if preproc_else
   declaration_list template_declaration field_declaration.type declaration.type))

((enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
 (#has-parent? @definition.enum translation_unit preproc_ifdef preproc_if preproc_else
   declaration_list field_declaration.type declaration.type))

(field_declaration_list
  (field_declaration
    declarator: [(field_identifier) @name
                 (reference_declarator (field_identifier) @name)
                 (pointer_declarator declarator: (field_identifier) @name)
                 (array_declarator declarator: (field_identifier) @name)]) @definition.field)

; File-level variables (also inside #if blocks, e.g. `extern` declarations in a header).
((declaration
   declarator: [(identifier) @name
                (pointer_declarator declarator: (identifier) @name)
                (array_declarator declarator: (identifier) @name)
                (init_declarator
                  declarator: [(identifier) @name
                               (pointer_declarator declarator: (identifier) @name)
                               (array_declarator declarator: (identifier) @name)])]) @definition.variable
 (#has-parent? @definition.variable translation_unit declaration_list preproc_ifdef))

(call_expression
  function: (field_expression field: (template_method name: (field_identifier) @name))) @reference.call

(call_expression
  function: (qualified_identifier
    name: [(identifier) @name
           (template_function name: (identifier) @name)
           (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])])) @reference.call

(call_expression function: (template_function name: (identifier) @name)) @reference.call

(new_expression
  type: [(type_identifier) @name
         (template_type name: (type_identifier) @name)
         (qualified_identifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])]) @reference.call

; `class A : public B, C<T>` → extends B and C.
(base_class_clause
  [(type_identifier) @name
   (template_type name: (type_identifier) @name)
   (qualified_identifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])] @reference.extends)

; Type references where a type is used: plain, `ns::T`, `T<…>` (template arguments are type
; descriptors, so they are covered). type_identifier also names declarations, hence the parents.
; Single letters (template parameters) and the std basics are skipped.
([(type_identifier) @name @reference.type
  (template_type name: (type_identifier) @name @reference.type)
  (qualified_identifier
    name: [(type_identifier) @name @reference.type
           (template_type name: (type_identifier) @name @reference.type)
           (qualified_identifier
             name: [(type_identifier) @name @reference.type
                    (template_type name: (type_identifier) @name @reference.type)])])] @_type
 (#not-match? @name "^([A-Z]|size_t|ssize_t|bool|u?int(8|16|32|64)_t|uintptr_t|intptr_t|FILE|string|string_view|vector|map|unordered_map|set|unordered_set|optional|pair|tuple|shared_ptr|unique_ptr|weak_ptr|function|array|span)$")
 (#has-parent? @_type parameter_declaration.type optional_parameter_declaration.type
   declaration.type field_declaration.type function_definition.type type_definition.type
   type_descriptor.type))

([(struct_specifier !body name: (type_identifier) @name @reference.type)
  (union_specifier !body name: (type_identifier) @name @reference.type)
  (enum_specifier !body name: (type_identifier) @name @reference.type)]
 (#not-match? @name "^([A-Z]|size_t|ssize_t|bool|u?int(8|16|32|64)_t|uintptr_t|intptr_t|FILE|string|string_view|vector|map|unordered_map|set|unordered_set|optional|pair|tuple|shared_ptr|unique_ptr|weak_ptr|function|array|span)$"))

(field_initializer (field_identifier) @deep.field)

(raw_string_literal (raw_string_content) @deep.literal)
