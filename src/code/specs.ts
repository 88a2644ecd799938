/**
 * What counts as a definition in each language: the syntax node kinds, what
 * each one defines, and where its name is. Data only; symbols.ts runs it.
 * Kinds come from the tree-sitter grammars the @ast-grep packages ship.
 */
import type { SgNode } from "@ast-grep/napi";

export type DefKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "interface"
  | "type"
  | "enum"
  | "variable"
  | "constant"
  | "field"
  | "property"
  | "struct"
  | "union"
  | "trait"
  | "impl"
  | "module"
  | "namespace"
  | "macro"
  | "object"
  | "record"
  | "extension"
  | "signature"
  | "instance"
  | "key"
  | "table"
  | "selector"
  | "element";

/** Where a definition's name is: fields first, then direct children of these kinds, then one level down. */
export interface NameRule {
  fields?: readonly string[];
  kinds?: readonly string[];
  /** Child kinds to look inside when nothing above matched. */
  descend?: readonly string[];
}

export interface DefSpec {
  kind: DefKind | ((node: SgNode, header: string) => DefKind | undefined);
  name?: NameRule;
  /** The name node must be one of these kinds (skips destructuring, attributes, …). */
  nameKinds?: readonly string[];
  /** Only when the parent node is one of these kinds. */
  under?: readonly string[];
  /** Not when the parent node is one of these kinds. */
  notUnder?: readonly string[];
  /** Without this field the node is a use, not a definition (`struct P x;`). */
  needs?: string;
  /** The definition goes on over the next sibling of this kind (Dart bodies). */
  bodySibling?: string;
  /** The name is a key: quotes are removed, dots are not scopes. */
  key?: boolean;
  /** A declarator or assignment: inside a function it is a local, not a definition. */
  variable?: boolean;
}

export interface LanguageSpec {
  defs: Record<string, DefSpec>;
  /** Parents that belong to their one definition: export, decorators, declaration lists. */
  wrappers?: readonly string[];
  /** Nodes that open a local scope (besides functions and methods): no variables inside them count. */
  scopes?: readonly string[];
  /** How qualified names are written: "Class.method" or "Type::method". */
  separator?: "." | "::";
  /** Definitions a kind alone cannot find (Elixir's `def` calls, HTML ids). */
  custom?: CustomDef;
}

export interface CustomDef {
  rule: Record<string, unknown>;
  /** The kind and name of a node the rule found, or undefined when it is not a definition. */
  read(node: SgNode): { kind: DefKind; name: string } | undefined;
}

const byKeyword =
  (table: Record<string, DefKind>, fallback: DefKind) =>
  (_node: SgNode, header: string): DefKind => {
    for (const word of header.split(/[^\w@]+/)) {
      const kind = table[word];
      if (kind) return kind;
    }
    return fallback;
  };

function variableKind(node: SgNode): DefKind {
  const value = node.field("value")?.kind() as string;
  if (value === "arrow_function" || value === "function_expression" || value === "function") {
    return "function";
  }
  if (value === "class") return "class";
  return node.parent()?.child(0)?.text() === "const" ? "constant" : "variable";
}

const ECMA: LanguageSpec = {
  defs: {
    function_declaration: { kind: "function" },
    generator_function_declaration: { kind: "function" },
    function_signature: { kind: "function" },
    class_declaration: { kind: "class" },
    abstract_class_declaration: { kind: "class" },
    method_definition: {
      kind: (node) => (node.field("name")?.text() === "constructor" ? "constructor" : "method"),
    },
    method_signature: { kind: "method" },
    abstract_method_signature: { kind: "method" },
    public_field_definition: { kind: "field" },
    field_definition: { kind: "field", name: { fields: ["property", "name"] } },
    property_signature: { kind: "property" },
    interface_declaration: { kind: "interface" },
    type_alias_declaration: { kind: "type" },
    enum_declaration: { kind: "enum" },
    internal_module: { kind: "namespace" },
    module: { kind: "module" },
    variable_declarator: { kind: variableKind, nameKinds: ["identifier"], variable: true },
  },
  wrappers: [
    "export_statement",
    "ambient_declaration",
    "lexical_declaration",
    "variable_declaration",
    "expression_statement",
  ],
  scopes: ["arrow_function", "function_expression", "function", "generator_function"],
};

const C_DECLARATOR: NameRule = { fields: ["declarator"] };

const C_FAMILY_DEFS: Record<string, DefSpec> = {
  function_definition: { kind: "function", name: C_DECLARATOR },
  declaration: { kind: "variable", name: C_DECLARATOR },
  field_declaration: { kind: "field", name: C_DECLARATOR },
  type_definition: { kind: "type", name: C_DECLARATOR },
  struct_specifier: { kind: "struct", needs: "body" },
  union_specifier: { kind: "union", needs: "body" },
  enum_specifier: { kind: "enum", needs: "body" },
  preproc_def: { kind: "macro" },
  preproc_function_def: { kind: "macro" },
};

const KOTLIN_NAME: NameRule = {
  kinds: ["type_identifier", "simple_identifier"],
  descend: ["variable_declaration"],
};

export const SPECS: Record<string, LanguageSpec> = {
  typescript: ECMA,
  tsx: ECMA,
  javascript: ECMA,
  python: {
    defs: {
      function_definition: { kind: "function" },
      class_definition: { kind: "class" },
      assignment: {
        kind: (node) =>
          /^[A-Z][A-Z0-9_]*$/.test(node.field("left")?.text() ?? "") ? "constant" : "variable",
        name: { fields: ["left"] },
        nameKinds: ["identifier"],
        variable: true,
      },
    },
    wrappers: ["decorated_definition", "expression_statement"],
    scopes: ["lambda"],
  },
  rust: {
    defs: {
      function_item: { kind: "function" },
      function_signature_item: { kind: "function" },
      struct_item: { kind: "struct" },
      enum_item: { kind: "enum" },
      union_item: { kind: "union" },
      trait_item: { kind: "trait" },
      impl_item: { kind: "impl", name: { fields: ["type"] } },
      mod_item: { kind: "module" },
      const_item: { kind: "constant" },
      static_item: { kind: "variable" },
      type_item: { kind: "type" },
      macro_definition: { kind: "macro" },
    },
    scopes: ["closure_expression"],
    separator: "::",
  },
  go: {
    defs: {
      function_declaration: { kind: "function" },
      method_declaration: { kind: "method" },
      type_spec: {
        kind: (node) => {
          const type = node.field("type")?.kind() as string;
          return type === "struct_type"
            ? "struct"
            : type === "interface_type"
              ? "interface"
              : "type";
        },
      },
      type_alias: { kind: "type" },
      const_spec: { kind: "constant" },
      var_spec: { kind: "variable" },
      method_elem: { kind: "method" },
    },
    wrappers: ["type_declaration", "const_declaration", "var_declaration"],
    scopes: ["func_literal"],
  },
  java: {
    defs: {
      class_declaration: { kind: "class" },
      interface_declaration: { kind: "interface" },
      enum_declaration: { kind: "enum" },
      record_declaration: { kind: "record" },
      annotation_type_declaration: { kind: "interface" },
      method_declaration: { kind: "method" },
      constructor_declaration: { kind: "constructor" },
      variable_declarator: { kind: "field", under: ["field_declaration", "constant_declaration"] },
    },
    wrappers: ["field_declaration", "constant_declaration"],
    scopes: ["lambda_expression"],
  },
  c: { defs: C_FAMILY_DEFS, scopes: [] },
  cpp: {
    defs: {
      ...C_FAMILY_DEFS,
      class_specifier: { kind: "class", needs: "body" },
      namespace_definition: { kind: "namespace" },
      alias_declaration: { kind: "type" },
      concept_definition: { kind: "type" },
    },
    wrappers: ["template_declaration"],
    scopes: ["lambda_expression"],
    separator: "::",
  },
  csharp: {
    defs: {
      namespace_declaration: { kind: "namespace" },
      file_scoped_namespace_declaration: { kind: "namespace" },
      class_declaration: { kind: "class" },
      struct_declaration: { kind: "struct" },
      interface_declaration: { kind: "interface" },
      enum_declaration: { kind: "enum" },
      record_declaration: { kind: "record" },
      record_struct_declaration: { kind: "record" },
      method_declaration: { kind: "method" },
      constructor_declaration: { kind: "constructor" },
      destructor_declaration: { kind: "method" },
      property_declaration: { kind: "property" },
      event_declaration: { kind: "field" },
      delegate_declaration: { kind: "type" },
      variable_declarator: { kind: "field" },
    },
    wrappers: ["variable_declaration", "field_declaration", "event_field_declaration"],
    scopes: ["lambda_expression", "local_function_statement"],
  },
  ruby: {
    defs: {
      method: { kind: "method" },
      singleton_method: { kind: "method" },
      class: { kind: "class" },
      module: { kind: "module" },
      assignment: { kind: "constant", name: { fields: ["left"] }, nameKinds: ["constant"] },
    },
    scopes: ["lambda", "block", "do_block"],
    separator: "::",
  },
  php: {
    defs: {
      function_definition: { kind: "function" },
      class_declaration: { kind: "class" },
      interface_declaration: { kind: "interface" },
      trait_declaration: { kind: "trait" },
      enum_declaration: { kind: "enum" },
      method_declaration: { kind: "method" },
      namespace_definition: { kind: "namespace" },
      const_element: { kind: "constant", name: { kinds: ["name"] } },
      property_element: { kind: "property" },
      enum_case: { kind: "constant" },
    },
    wrappers: ["const_declaration", "property_declaration"],
    scopes: ["anonymous_function", "arrow_function"],
    separator: "::",
  },
  kotlin: {
    defs: {
      class_declaration: {
        kind: byKeyword({ interface: "interface", enum: "enum" }, "class"),
        name: KOTLIN_NAME,
      },
      object_declaration: { kind: "object", name: KOTLIN_NAME },
      companion_object: { kind: "object", name: KOTLIN_NAME },
      function_declaration: { kind: "function", name: KOTLIN_NAME },
      property_declaration: { kind: "property", name: KOTLIN_NAME },
      type_alias: { kind: "type", name: KOTLIN_NAME },
      secondary_constructor: { kind: "constructor", name: { kinds: ["constructor"] } },
    },
    scopes: ["lambda_literal", "anonymous_function"],
  },
  swift: {
    defs: {
      class_declaration: {
        kind: byKeyword(
          {
            class: "class",
            struct: "struct",
            enum: "enum",
            extension: "extension",
            actor: "class",
          },
          "class",
        ),
      },
      protocol_declaration: { kind: "interface" },
      function_declaration: { kind: "function" },
      protocol_function_declaration: { kind: "method" },
      init_declaration: { kind: "constructor" },
      property_declaration: { kind: "property" },
      typealias_declaration: { kind: "type" },
    },
    scopes: ["lambda_literal"],
  },
  scala: {
    defs: {
      class_definition: { kind: "class" },
      object_definition: { kind: "object" },
      trait_definition: { kind: "trait" },
      enum_definition: { kind: "enum" },
      function_definition: { kind: "function" },
      function_declaration: { kind: "function" },
      val_definition: {
        kind: "constant",
        name: { fields: ["pattern"] },
        nameKinds: ["identifier"],
      },
      var_definition: {
        kind: "variable",
        name: { fields: ["pattern"] },
        nameKinds: ["identifier"],
      },
      type_definition: { kind: "type" },
      given_definition: { kind: "instance" },
    },
    scopes: ["lambda_expression"],
  },
  bash: {
    defs: {
      function_definition: { kind: "function" },
      variable_assignment: { kind: "variable" },
    },
    scopes: ["command"],
  },
  lua: {
    defs: {
      function_declaration: { kind: "function" },
      assignment_statement: {
        kind: "variable",
        name: { fields: ["name"], kinds: ["variable_list"] },
        nameKinds: ["identifier", "variable_list"],
      },
    },
    wrappers: ["variable_declaration"],
    scopes: ["function_definition"],
  },
  elixir: {
    defs: {},
    custom: {
      rule: {
        kind: "call",
        has: {
          field: "target",
          regex:
            "^def(module|p|macro|macrop|protocol|impl|guard|guardp|delegate|struct|exception)?$",
        },
      },
      read(node) {
        const keyword = node.field("target")?.text() ?? "";
        const args = node.namedChildren().find((c) => (c.kind() as string) === "arguments");
        const first = args?.namedChildren()[0];
        if (!first) {
          return keyword === "defstruct" ? { kind: "struct", name: "__struct__" } : undefined;
        }
        let head = first;
        if ((head.kind() as string) === "binary_operator") head = head.field("left") ?? head;
        const name =
          (head.kind() as string) === "call"
            ? (head.field("target")?.text() ?? head.text())
            : head.text();
        const kind: DefKind =
          keyword === "defmodule"
            ? "module"
            : keyword === "defprotocol"
              ? "interface"
              : keyword === "defimpl"
                ? "impl"
                : keyword.startsWith("defmacro")
                  ? "macro"
                  : keyword === "defstruct"
                    ? "struct"
                    : "function";
        return { kind, name };
      },
    },
  },
  haskell: {
    defs: {
      function: {
        kind: "function",
        name: { fields: ["name"], kinds: ["variable"] },
        under: ["declarations", "class_declarations", "instance_declarations"],
      },
      bind: {
        kind: "variable",
        name: { fields: ["name"], kinds: ["variable"] },
        under: ["declarations", "class_declarations", "instance_declarations"],
      },
      signature: { kind: "signature", name: { fields: ["name"], kinds: ["variable"] } },
      data_type: { kind: "type" },
      newtype: { kind: "type" },
      type_synomym: { kind: "type" },
      type_family: { kind: "type" },
      class: { kind: "class" },
      instance: { kind: "instance" },
    },
    scopes: ["lambda"],
  },
  dart: {
    defs: {
      class_definition: { kind: "class" },
      mixin_declaration: { kind: "class", name: { kinds: ["identifier"] } },
      extension_declaration: { kind: "extension" },
      enum_declaration: { kind: "enum" },
      type_alias: { kind: "type", name: { kinds: ["type_identifier"] } },
      function_signature: {
        kind: "function",
        notUnder: ["method_signature", "declaration"],
        bodySibling: "function_body",
      },
      method_signature: {
        kind: "method",
        name: {
          kinds: ["identifier"],
          descend: [
            "function_signature",
            "getter_signature",
            "setter_signature",
            "constructor_signature",
            "factory_constructor_signature",
            "operator_signature",
          ],
        },
        bodySibling: "function_body",
      },
      initialized_identifier: { kind: "variable", name: { kinds: ["identifier"] } },
    },
    scopes: ["function_expression", "function_body"],
  },
  yaml: {
    defs: {
      block_mapping_pair: { kind: "key", name: { fields: ["key"] }, key: true },
      flow_pair: { kind: "key", name: { fields: ["key"] }, key: true },
    },
  },
  json: { defs: { pair: { kind: "key", name: { fields: ["key"] }, key: true } } },
  toml: {
    defs: {
      table: { kind: "table", name: { kinds: ["bare_key", "dotted_key", "quoted_key"] } },
      table_array_element: {
        kind: "table",
        name: { kinds: ["bare_key", "dotted_key", "quoted_key"] },
      },
      pair: { kind: "key", name: { kinds: ["bare_key", "quoted_key", "dotted_key"] }, key: true },
    },
  },
  css: {
    defs: {
      rule_set: { kind: "selector", name: { kinds: ["selectors"] }, key: true },
      keyframes_statement: { kind: "selector", name: { kinds: ["keyframes_name"] }, key: true },
    },
  },
  html: {
    defs: {},
    custom: {
      rule: {
        kind: "element",
        has: {
          kind: "start_tag",
          has: { kind: "attribute", has: { kind: "attribute_name", regex: "^id$" } },
        },
      },
      read(node) {
        const tag = node.child(0)?.text() ?? "";
        const id = /\bid\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
        return id ? { kind: "element", name: id } : undefined;
      },
    },
  },
};
