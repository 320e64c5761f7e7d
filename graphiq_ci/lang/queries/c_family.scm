; C and C++ alike: the patterns both grammars share (functions, structs, enums, typedefs,
; calls, includes, deep-graph tokens). c.scm and cpp.scm add their own (see lang/registry.py).

; Prototypes (`int f(int);`, the API of a header) are functions that only declare: @declaration
; lets index/pairs.py link each to its definition, so a call reaches the body.
(declaration
  declarator: [(function_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
               (pointer_declarator
                 declarator: (pointer_declarator
                   declarator: (function_declarator declarator: (identifier) @name)))]) @definition.function @declaration

(type_definition
  type: [(struct_specifier body: (_)) (union_specifier body: (_))]
  declarator: (type_identifier) @name) @definition.struct

(type_definition type: (enum_specifier body: (_)) declarator: (type_identifier) @name) @definition.enum

; Other typedefs: plain (`typedef unsigned long id_t;`), pointer, and function-pointer types.
(type_definition
  type: [(primitive_type) (type_identifier) (sized_type_specifier) (struct_specifier !body)
         (union_specifier !body) (enum_specifier !body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (function_declarator
                 declarator: (parenthesized_declarator
                   (pointer_declarator declarator: (type_identifier) @name)))]) @definition.type

(enumerator_list (enumerator name: (identifier) @name) @definition.constant)

; Macros: object-like ones with a value are constants (include guards have none).
(preproc_def name: (identifier) @name value: (_)) @definition.constant

(preproc_function_def name: (identifier) @name) @definition.function

; Calls: `f()`, `s->f()`/`s.f()` (function pointers) → f.
(call_expression function: (identifier) @name) @reference.call

(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call

; `#include "x.h"` → x.h (no quotes); `#include <x.h>` → <x.h> (imports.c_include strips <>).
(preproc_include path: (string_literal (string_content) @name)) @reference.import

(preproc_include path: (system_lib_string) @name) @reference.import

; Deep-graph tokens.
(field_expression field: (field_identifier) @deep.field)

(field_designator (field_identifier) @deep.field)

(number_literal) @deep.literal

(string_literal (string_content) @deep.literal)

(comment) @comment
