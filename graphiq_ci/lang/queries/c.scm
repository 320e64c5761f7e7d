; C on top of c_family.scm: prototypes, structs/unions/enums, typedefs, macros, globals.

; Functions: the name sits under a function_declarator, itself under up to two pointer_declarators
; (`char **f(void)`). Prototypes (`int f(int);`, the API of a header) are functions too.
(function_definition
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function

; `struct s {…};` (and unions, enums) at file level or inside #if blocks (header guards). A
; `typedef struct {…} s_t;` is defined by the whole typedef, named by the typedef name, so its
; doc comment attaches and a tagged typedef is one symbol, not two.
([(translation_unit [(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
                     (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
                     (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum])
  (preproc_ifdef [(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
                  (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
                  (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum])
  (preproc_if [(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
               (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
               (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum])
  (preproc_else [(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
                 (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
                 (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum])
  (declaration type: [(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
                      (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
                      (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum])])

(field_declaration_list
  (field_declaration
    declarator: [(field_identifier) @name
                 (pointer_declarator declarator: (field_identifier) @name)
                 (array_declarator declarator: (field_identifier) @name)]) @definition.field)

; File-level variables (also inside #if blocks, e.g. `extern` declarations in a header). The
; parents are checked in extract.py (`#has-parent?`), as in cpp.scm, instead of repeating the
; pattern under each of them.
((declaration
   declarator: [(identifier) @name
                (pointer_declarator declarator: (identifier) @name)
                (array_declarator declarator: (identifier) @name)
                (init_declarator
                  declarator: [(identifier) @name
                               (pointer_declarator declarator: (identifier) @name)
                               (array_declarator declarator: (identifier) @name)])]) @definition.variable
 (#has-parent? @definition.variable translation_unit preproc_ifdef))

; Type references where a type is used (type_identifier also names typedefs and tags).
([(parameter_declaration type: (type_identifier) @name @reference.type)
  (declaration type: (type_identifier) @name @reference.type)
  (field_declaration type: (type_identifier) @name @reference.type)
  (function_definition type: (type_identifier) @name @reference.type)
  (type_definition type: (type_identifier) @name @reference.type)
  (type_descriptor type: (type_identifier) @name @reference.type)
  (struct_specifier !body name: (type_identifier) @name @reference.type)
  (union_specifier !body name: (type_identifier) @name @reference.type)
  (enum_specifier !body name: (type_identifier) @name @reference.type)]
 (#not-match? @name "^(size_t|ssize_t|bool|u?int(8|16|32|64)_t|uintptr_t|intptr_t|FILE)$"))
