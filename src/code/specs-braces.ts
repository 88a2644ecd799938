/** Definitions in the languages whose blocks are braces: the ECMAScript family, the C family, the JVM, Go, Rust, PHP, Swift, Dart. */
import type { SgNode } from "@ast-grep/napi";
import type { DefKind, DefSpec, LanguageSpec, NameRule } from "./def-spec.js";

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

export const BRACE_SPECS: Record<string, LanguageSpec> = {
  typescript: ECMA,
  tsx: ECMA,
  javascript: ECMA,
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
};
