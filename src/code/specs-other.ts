/** Definitions in the languages without brace blocks: Python, Ruby, Bash, Lua, Elixir, Haskell. */
import type { DefKind, LanguageSpec } from "./def-spec.js";

export const OTHER_SPECS: Record<string, LanguageSpec> = {
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
};
