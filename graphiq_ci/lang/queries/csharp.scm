; C#: types, members, namespaces, calls, `using`, base lists, deep-graph tokens.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration_list (enum_member_declaration name: (identifier) @name) @definition.constant)
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.namespace
(file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) @definition.namespace

(method_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
; A `const` field is a constant. This class-anchored pattern starts at an outer node, so tree-sitter
; reports it before the plain field pattern below and extract.py keeps the first kind it sees.
((declaration_list
   (field_declaration
     (modifier) @_const
     (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant)
 (#eq? @_const "const"))
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field

; Base lists don't say which base is a class: by .NET convention `IName` is an interface. An
; interface's bases are interfaces it extends; a struct's are interfaces it implements.
((class_declaration (base_list [(identifier) @name
       (generic_name (identifier) @name)
       (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])] @reference.implements))
 (#match? @name "^I[A-Z]"))
((class_declaration (base_list [(identifier) @name
       (generic_name (identifier) @name)
       (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])] @reference.extends))
 (#not-match? @name "^I[A-Z]"))
((record_declaration (base_list [(identifier) @name
       (generic_name (identifier) @name)
       (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])] @reference.implements))
 (#match? @name "^I[A-Z]"))
; `record R(…) : Base(…)` calls the base's primary constructor.
((record_declaration
   (base_list
     [(identifier) @name
      (generic_name (identifier) @name)
      (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])
      (primary_constructor_base_type
        type: [(identifier) @name
               (generic_name (identifier) @name)
               (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])])] @reference.extends))
 (#not-match? @name "^I[A-Z]"))
(interface_declaration (base_list [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])] @reference.extends))
(struct_declaration (base_list [(identifier) @name
     (generic_name (identifier) @name)
     (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])] @reference.implements))

; Calls: `F()`, `a.b.F()`, `F<T>()`, `a?.F()` → F; `new T(…)` → T.
(invocation_expression
  function: [(identifier) @name
             (generic_name (identifier) @name)
             (member_access_expression name: [(identifier) @name (generic_name (identifier) @name)])
             (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)])]) @reference.call
(object_creation_expression type: [(identifier) @name
       (generic_name (identifier) @name)
       (qualified_name name: [(identifier) @name (generic_name (identifier) @name)])]) @reference.call

; Type references: a type name (plain, generic or qualified) where a type is used; identifiers
; are everywhere in C#, hence the parents. Type parameters (`T`, `TKey`) are skipped. A generic
; or qualified name checks its parent in extract.py (#has-parent?): its chain repeated under
; 17 parents was 85 ms of the query's compile.
([(parameter type: (identifier) @name @reference.type)
  (variable_declaration type: (identifier) @name @reference.type)
  (method_declaration returns: (identifier) @name @reference.type)
  (local_function_statement type: (identifier) @name @reference.type)
  (property_declaration type: (identifier) @name @reference.type)
  (delegate_declaration type: (identifier) @name @reference.type)
  (type_argument_list (identifier) @name @reference.type)
  (nullable_type type: (identifier) @name @reference.type)
  (array_type type: (identifier) @name @reference.type)
  (cast_expression type: (identifier) @name @reference.type)
  (typeof_expression type: (identifier) @name @reference.type)
  (declaration_pattern type: (identifier) @name @reference.type)
  (catch_declaration type: (identifier) @name @reference.type)
  (type_parameter_constraint type: (identifier) @name @reference.type)
  (as_expression right: (identifier) @name @reference.type)
  (is_expression right: (identifier) @name @reference.type)
  (ref_type type: (identifier) @name @reference.type)]
 (#not-match? @name "^(T|T[A-Z][a-z]\\w*|[A-Z])$"))

([(generic_name (identifier) @name @reference.type)
  (qualified_name name: [(identifier) @name @reference.type
                         (generic_name (identifier) @name @reference.type)])] @_type
 (#not-match? @name "^(T|T[A-Z][a-z]\\w*|[A-Z])$")
 (#has-parent? @_type parameter.type variable_declaration.type method_declaration.returns
   local_function_statement.type property_declaration.type delegate_declaration.type
   type_argument_list nullable_type.type array_type.type cast_expression.type typeof_expression.type
   declaration_pattern.type catch_declaration.type type_parameter_constraint.type
   as_expression.right is_expression.right ref_type.type))

; `using A.B;`, `using static A.B;`, `using X = A.B.C;` (alias X).
(using_directive . [(identifier) (qualified_name)] @name .) @reference.import
(using_directive name: (identifier) @alias [(identifier) (qualified_name)] @name .) @reference.import

; Deep-graph tokens.
(member_access_expression name: (identifier) @deep.field)
(member_binding_expression name: (identifier) @deep.field)
(integer_literal) @deep.literal
(real_literal) @deep.literal
(string_literal (string_literal_content) @deep.literal)
(comment) @comment

; Attributes name their type where they are applied: `[Serializable]`, `[N.Route("x")]` (as
; written: `[Route]` finds a class named Route, not RouteAttribute).
(attribute name: [(identifier) @name (qualified_name name: (identifier) @name)]) @reference.type
