; Go: functions, methods, types, consts/vars, fields, calls, imports, embedding, deep-graph tokens.
; A method belongs to its receiver's type (@owner): `func (c *Client) Send()` is `Client.Send`.

(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @owner
           (pointer_type (type_identifier) @owner)
           (generic_type type: (type_identifier) @owner)
           (pointer_type (generic_type type: (type_identifier) @owner))]))
  name: (field_identifier) @name) @definition.method

; Types. A lone `type X …` is defined by the whole declaration so its doc comment attaches; in a
; `type ( … )` group each spec is its own definition (anchors: "has a named neighbour").
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_declaration
  . (type_spec
      name: (type_identifier) @name
      type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type)
             (slice_type) (map_type) (array_type) (channel_type)]) .) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type
(type_declaration
  [(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
   (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
   (type_spec
     name: (type_identifier) @name
     type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type)
            (slice_type) (map_type) (array_type) (channel_type)]) @definition.type
   (type_alias name: (type_identifier) @name) @definition.type]
  . (_))
(type_declaration
  (_)
  . [(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
     (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
     (type_spec
       name: (type_identifier) @name
       type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (function_type)
              (slice_type) (map_type) (array_type) (channel_type)]) @definition.type
     (type_alias name: (type_identifier) @name) @definition.type] .)

; Package-level consts and vars, same lone-vs-group rule.
(source_file (const_declaration . (const_spec name: (identifier) @name) .) @definition.constant)
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant . (_)))
(source_file (const_declaration (_) . (const_spec name: (identifier) @name) @definition.constant .))
; (A `var ( … )` group has its own var_spec_list node.)
(source_file (var_declaration (var_spec name: (identifier) @name)) @definition.variable)
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))

; Struct fields and interface methods.
(field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field)
(interface_type (method_elem name: (field_identifier) @name) @definition.method)

; Embedding is Go's inheritance: an anonymous struct field or an embedded interface.
(field_declaration
  !name
  type: [(type_identifier) @name
         (qualified_type name: (type_identifier) @name)
         (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])]) @reference.extends
(interface_type
  (type_elem [(type_identifier) @name (qualified_type name: (type_identifier) @name)]) @reference.extends)

; Calls: `f()`, `a.b.F()` → F; a composite literal `T{…}` constructs a T.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call
; A package's value or function read through it: `tea.Quit`, `tui.ColAltCursorEmpty` (kept only
; where the operand is an imported package: extract.py). Only an exported (capitalised) name can
; be read from another package: the predicate drops the rest before Python sees them.
((selector_expression operand: (identifier) @receiver field: (field_identifier) @name) @reference.through
 (#match? @name "^[A-Z]"))
(composite_literal
  type: [(type_identifier) @name
         (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name)
         (generic_type type: (type_identifier) @name)]) @reference.call

; Type references: a type name (plain, `pkg.T` or `T[…]`) where a type is used. Parents are listed so
; declared names, embedding (extends) and composite literals (calls) are not counted again.
; Builtin types and single-letter type parameters are skipped: they link everything.
([(parameter_declaration type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (variadic_parameter_declaration type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (field_declaration name: (_) type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (method_elem result: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (function_declaration result: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (method_declaration result: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (function_type result: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (func_literal result: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (pointer_type [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (slice_type element: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (array_type element: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (map_type key: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (map_type value: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (channel_type value: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (type_arguments (type_elem [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])]))
  (var_spec type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (const_spec type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (type_spec type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (type_alias type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (type_assertion_expression type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])
  (type_case type: [(type_identifier) @name @reference.type
      (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)
      (generic_type type: [(type_identifier) @name @reference.type
                           (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name @reference.type)])])]
 (#not-match? @name "^([A-Z]|bool|byte|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr|any|comparable)$"))

; Imports: @name is the path without quotes, @alias an explicit package name (`db "x/db"`, `.`, `_`),
; else the package is named by the path's last segment (@alias.path: `"x/tui"` binds `tui`).
(import_spec
  name: (_) @alias
  path: (interpreted_string_literal (interpreted_string_literal_content) @name)) @reference.import
(import_spec
  !name
  path: (interpreted_string_literal (interpreted_string_literal_content) @name @alias.path)) @reference.import

; Deep-graph tokens.
(selector_expression field: (field_identifier) @deep.field)
(keyed_element key: (literal_element (identifier) @deep.field))
(int_literal) @deep.literal
(float_literal) @deep.literal
(interpreted_string_literal_content) @deep.literal
(raw_string_literal_content) @deep.literal
(comment) @comment

; Receiver types (lang/receivers.py): receivers, parameters, `var x T`, struct fields, and what
; `x := T{}` / `x := &T{}` / `x := NewT()` construct.
(parameter_declaration name: (identifier) @name
  type: [(type_identifier) @type (pointer_type (type_identifier) @type)]) @binding
(var_spec name: (identifier) @name type: [(type_identifier) @type (pointer_type (type_identifier) @type)]) @binding
(field_declaration name: (field_identifier) @name
  type: [(type_identifier) @type (pointer_type (type_identifier) @type)]) @binding
(short_var_declaration left: (expression_list . (identifier) @name)
  right: (expression_list . [(composite_literal type: (type_identifier) @constructs)
                             (unary_expression operand: (composite_literal type: (type_identifier) @constructs))])) @binding
; Go's constructors are functions by convention: `p := NewProgram(m)` (or `p, err := …`,
; `newProgram`) makes a Program.
(short_var_declaration left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression function: (identifier) @constructs.new))
  (#match? @constructs.new "^[Nn]ew[A-Z]")) @binding
; `p := s.Pool()`: the method or package call it is @assigned from (its declared result)
(short_var_declaration left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression function: (selector_expression)) @assigned)) @binding
