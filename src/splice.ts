/**
 * The library's typed surface: the toolkit with one method per tool, named
 * in camelCase (`astEdit` for `ast_edit`). Methods and their types come from
 * the registry's one list of tools.
 */
import type { z } from "zod";
import { createToolkit, type Toolkit, type ToolkitOptions } from "./toolkit/index.js";
import { FULL_TOOLS } from "./toolkit/registry.js";
import type { Tool } from "./tools/define.js";

export type SpliceOptions = Omit<ToolkitOptions, "tools">;

/** A tool's arguments as a caller writes them, and its result. */
export type ToolArgs<T> = T extends Tool<infer I, unknown> ? z.input<I> : never;
export type ToolResult<T> = T extends Tool<z.ZodType, infer O> ? O : never;

type Method<T> = (args: ToolArgs<T>) => Promise<ToolResult<T>>;

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

type SpliceTool = (typeof FULL_TOOLS)[number];

/** The toolkit with a typed method per tool. */
export type Splice = Toolkit & {
  [T in SpliceTool as CamelCase<T["name"]>]: Method<T>;
};

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function createSplice(options: SpliceOptions): Splice {
  const toolkit = createToolkit({ ...options, tools: "full" });
  const methods: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const tool of FULL_TOOLS) {
    methods[camelCase(tool.name)] = (args) => toolkit.call(tool.name, args);
  }
  return { ...toolkit, ...methods } as Splice;
}
