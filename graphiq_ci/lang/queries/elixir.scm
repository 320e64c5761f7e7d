; Elixir: modules, protocols and their implementations, functions and macros, types, module
; attributes, calls, alias/import/require/use, behaviours, structs, deep tokens.
; The grammar has no declarations: `defmodule`, `def`, `alias`, `if` … are all `call` nodes whose
; `target` is an identifier, so the keyword is captured (@_kw) and told apart by predicates.

; `defmodule A.B` is a module named by its alias as written (`A.B`); a nested `defmodule C` is
; qualified through its parent (`A.B.C`, as Elixir names it). `@moduledoc "…"` is its doc.
((call target: (identifier) @_kw (arguments . (alias) @name)) @definition.module
 (#eq? @_kw "defmodule"))
((call
   target: (identifier) @_kw
   (arguments . (alias) @name)
   (_
     (unary_operator
       operand: (call
         target: (identifier) @_attr
         (arguments . [(string (quoted_content) @doc) (sigil (quoted_content) @doc)]))))) @definition.module
 (#eq? @_kw "defmodule")
 (#eq? @_attr "moduledoc"))

; `defprotocol P` is an interface (its `def`s become methods); `defimpl P, for: T` is a class
; named after the type it implements the protocol for (`T`, the first of a `for: [T, U]` list;
; the protocol's own name without `for:`, inside the module it implements it for), and it
; implements P. Its functions become methods of T.
((call target: (identifier) @_kw (arguments . (alias) @name)) @definition.interface
 (#eq? @_kw "defprotocol"))
((call
   target: (identifier) @_kw
   (arguments
     . (alias)
     (keywords (pair key: (keyword) @_for value: [(alias) @name (list . (alias) @name)])))) @definition.class
 (#eq? @_kw "defimpl")
 (#match? @_for "^for:"))
((call target: (identifier) @_kw (arguments . (alias) @name .)) @definition.class
 (#eq? @_kw "defimpl"))

; Functions and macros, public and private: `def f(x)`, `def f(x) when is_list(x)`,
; `def f, do: 1`, `defdelegate f(x), to: M`, `defguard g(x) when …`. Each clause of a
; multi-clause function is a definition of the same name. `def unquote(name)(…)` is skipped.
((call
   target: (identifier) @_kw
   (arguments
     . [(call target: (identifier) @name)
        (identifier) @name
        (binary_operator
          left: [(call target: (identifier) @name) (identifier) @name]
          operator: "when")])) @definition.function
 (#match? @_kw "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$"))

; `@doc "…"` right before a function, or with one attribute between them (`@spec`, `@impl`),
; is its doc; `@doc false` is none. The parent (a `do_block`) and the module's body above are
; left a wildcard: naming `do_block` tripled what compiling the pattern costs (61 -> 21 ms).
((_
   (unary_operator
     operand: (call
       target: (identifier) @_attr
       (arguments . [(string (quoted_content) @doc) (sigil (quoted_content) @doc)])))
   .
   (unary_operator)?
   .
   (call
     target: (identifier) @_kw
     (arguments
       . [(call target: (identifier) @name)
          (identifier) @name
          (binary_operator
            left: [(call target: (identifier) @name) (identifier) @name]
            operator: "when")])) @definition.function)
 (#eq? @_attr "doc")
 (#match? @_kw "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$"))

; A behaviour's `@callback f(a) :: r` (and `@macrocallback`) declares a function of it;
; `@type t :: …` (`@typep`, `@opaque`) defines a type.
((unary_operator
   operator: "@"
   operand: (call
     target: (identifier) @_attr
     (arguments . (binary_operator left: (call target: (identifier) @name) operator: "::")))) @definition.function
 (#match? @_attr "^(callback|macrocallback)$"))
((unary_operator
   operator: "@"
   operand: (call
     target: (identifier) @_attr
     (arguments
       . (binary_operator
           left: [(identifier) @name (call target: (identifier) @name)]
           operator: "::")))) @definition.type
 (#match? @_attr "^(type|typep|opaque)$"))

; Module attributes set to a value in a module's body (`@timeout 5_000`) are its constants
; (set inside a function or a `quote`, they are code generation); the attributes Elixir and its
; compiler reserve are not.
((call
   target: (identifier) @_kw
   (_
     (unary_operator
       operator: "@"
       operand: (call target: (identifier) @name (arguments))) @definition.constant))
 (#eq? @_kw "defmodule")
 (#not-match? @name "^(moduledoc|doc|typedoc|spec|type|typep|opaque|callback|macrocallback|optional_callbacks|impl|behaviour|behavior|derive|enforce_keys|deprecated|since|compile|dialyzer|external_resource|file|vsn|on_load|on_definition|before_compile|after_compile|after_verify|fallback_to_any|nifs)$"))

; `use M` mixes M's `__using__` code in (as Ruby's `include`), `@behaviour M` promises its
; callbacks, `defimpl P` implements protocol P: all are implemented supertypes.
((call target: (identifier) @_kw (arguments . (alias) @name)) @reference.implements
 (#match? @_kw "^(use|defimpl)$"))
((unary_operator
   operator: "@"
   operand: (call target: (identifier) @_attr (arguments . (alias) @name))) @reference.implements
 (#match? @_attr "^(behaviour|behavior)$"))

; Imports: @name is the module as written. `alias A.B` binds `B` (@alias is the whole alias; the
; index binds its last segment), `alias A.B, as: C` binds `C`, `alias A.{B, C}` is one import
; per member, named by the member alone, `alias __MODULE__.B` names `__MODULE__.B` (imports.py
; reads it relative to the file). `import`, `require` and `use` bind no name.
((call target: (identifier) @_kw (arguments . (alias) @name @alias .)) @reference.import
 (#eq? @_kw "alias"))
((call
   target: (identifier) @_kw
   (arguments
     . (alias) @name
     (keywords (pair key: (keyword) @_as value: (alias) @alias)))) @reference.import
 (#eq? @_kw "alias")
 (#match? @_as "^as:"))
((call
   target: (identifier) @_kw
   (arguments . (dot left: (alias) right: (tuple (alias) @name @alias)))) @reference.import
 (#eq? @_kw "alias"))
((call
   target: (identifier) @_kw
   (arguments . (dot left: (identifier) @_module right: (alias) @alias) @name .)) @reference.import
 (#eq? @_kw "alias")
 (#eq? @_module "__MODULE__"))
((call target: (identifier) @_kw (arguments . (alias) @name)) @reference.import
 (#match? @_kw "^(import|require|use)$"))

; Calls: local `f(x)`, remote `M.f(x)` and `M.f` (@receiver M; `@adapter.f(x)`, `:ets.new(…)`,
; `__MODULE__.f(x)` too), and pipes (`x |> f()`: the right side is a call). `x.f` on a variable
; reads a map field (deep tokens below); `mod.f(x)` through a variable names no module and is
; left out. Not calls: the keywords and special forms (def…, alias, if, case, quote, raise …),
; a definition's own head (a call in `def`'s arguments, the left of its `when`), module
; attributes (`@doc …`, a call under `@`) and typespecs (the left of `::`, and anywhere the
; built-in types: a local `integer()`, `map()`, any `t()`). One pattern per place a call may
; sit (its parent), the same call shapes in each. A call on an operator's right is checked by
; its parent (#has-parent?), not by a binary_operator pattern: matching the right child kept
; every enclosing operator's match open across its left operand, quadratic in a long
; `a + a + …` chain (150,000 terms: minutes); so a user type called on the right of `::` is a
; call reference too.
((call
   target: (_) @_outer
   (arguments
     (call target: [(identifier) @name (dot left: (_) @receiver right: (identifier) @name)] @_target) @reference.call))
 (#not-match? @_outer "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$")
 (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|quote|unquote|unquote_splicing|if|unless|case|cond|with|for|try|receive|raise|reraise|throw|super|t)$")
 (#not-match? @_target "^(term|any|atom|integer|non_neg_integer|pos_integer|neg_integer|float|number|binary|bitstring|boolean|byte|char|charlist|iodata|iolist|keyword|list|nonempty_list|maybe_improper_list|map|tuple|mfa|module|no_return|pid|port|reference|timeout|fun|arity|as_boolean|identifier|nil)$")
 (#match? @_target "^([A-Z:@]|__MODULE__\\.|[a-z_][A-Za-z0-9_?!]*$)"))
((binary_operator
   left: (call target: [(identifier) @name (dot left: (_) @receiver right: (identifier) @name)] @_target) @reference.call
   operator: _ @_op)
 (#not-match? @_op "^(::|when)$")
 (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|quote|unquote|unquote_splicing|if|unless|case|cond|with|for|try|receive|raise|reraise|throw|super|t)$")
 (#not-match? @_target "^(term|any|atom|integer|non_neg_integer|pos_integer|neg_integer|float|number|binary|bitstring|boolean|byte|char|charlist|iodata|iolist|keyword|list|nonempty_list|maybe_improper_list|map|tuple|mfa|module|no_return|pid|port|reference|timeout|fun|arity|as_boolean|identifier|nil)$")
 (#match? @_target "^([A-Z:@]|__MODULE__\\.|[a-z_][A-Za-z0-9_?!]*$)"))
((unary_operator
   operator: _ @_op
   operand: (call target: [(identifier) @name (dot left: (_) @receiver right: (identifier) @name)] @_target) @reference.call)
 (#not-eq? @_op "@")
 (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|quote|unquote|unquote_splicing|if|unless|case|cond|with|for|try|receive|raise|reraise|throw|super|t)$")
 (#not-match? @_target "^(term|any|atom|integer|non_neg_integer|pos_integer|neg_integer|float|number|binary|bitstring|boolean|byte|char|charlist|iodata|iolist|keyword|list|nonempty_list|maybe_improper_list|map|tuple|mfa|module|no_return|pid|port|reference|timeout|fun|arity|as_boolean|identifier|nil)$")
 (#match? @_target "^([A-Z:@]|__MODULE__\\.|[a-z_][A-Za-z0-9_?!]*$)"))
((call target: [(identifier) @name (dot left: (_) @receiver right: (identifier) @name)] @_target) @reference.call
 (#has-parent? @reference.call source do_block else_block after_block rescue_block catch_block
   body block pair list tuple map_content interpolation bitstring access_call dot.left
   binary_operator.right)
 (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|quote|unquote|unquote_splicing|if|unless|case|cond|with|for|try|receive|raise|reraise|throw|super|t)$")
 (#not-match? @_target "^(term|any|atom|integer|non_neg_integer|pos_integer|neg_integer|float|number|binary|bitstring|boolean|byte|char|charlist|iodata|iolist|keyword|list|nonempty_list|maybe_improper_list|map|tuple|mfa|module|no_return|pid|port|reference|timeout|fun|arity|as_boolean|identifier|nil)$")
 (#match? @_target "^([A-Z:@]|__MODULE__\\.|[a-z_][A-Za-z0-9_?!]*$)"))
; `&f/1` captures a local function: a use of it as a call would be.
(unary_operator
  operator: "&"
  operand: (binary_operator left: (identifier) @name operator: "/")) @reference.call

; Type references: struct literals and patterns (`%Order{}`), `Order.t()` in typespecs, the
; exception `raise` names. Elixir's own data modules are skipped.
([(struct (alias) @name)
  (call target: (dot left: (alias) @name right: (identifier) @_t) (#eq? @_t "t"))] @reference.type
 (#not-match? @name "^(String|Integer|Float|Atom|Keyword|Map|MapSet|List|Tuple|Range|Date|DateTime|NaiveDateTime|Time|URI|Regex|Version|Enumerable|Collectable|Access|IO|Module|Function|Exception|Macro|Macro\\.Env|Inspect\\.Opts|GenServer|Supervisor|Task|Agent|Process)$"))
((call target: (identifier) @_kw (arguments . (alias) @name)) @reference.type
 (#eq? @_kw "raise"))

; Deep-graph tokens: map and struct fields read with `x.field` (no parentheses, not on an
; alias), literals (`:atoms` keep their colon), comments.
(call
  .
  (dot
    left: [(identifier) (call) (unary_operator) (access_call)]
    right: (identifier) @deep.field)
  .)
(integer) @deep.literal
(float) @deep.literal
(string (quoted_content) @deep.literal)
(atom) @deep.literal
(comment) @comment
