/** Definitions in data and markup files: keys of YAML, JSON and TOML, CSS selectors, HTML elements with ids. */
import type { LanguageSpec } from "./def-spec.js";

export const DATA_SPECS: Record<string, LanguageSpec> = {
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
