import type { z } from "zod";
import { createToolkit, type Toolkit, type ToolkitOptions } from "./toolkit/toolkit.js";
import type { astEditTool } from "./tools/ast-edit/index.js";
import type { astRenameTool } from "./tools/ast-rename/index.js";
import type { Tool } from "./tools/define.js";
import type { docTool } from "./tools/doc/index.js";
import type { editTool } from "./tools/edit/index.js";
import type { fileTool } from "./tools/file/index.js";
import type { historyTool } from "./tools/history/index.js";
import type { listTool } from "./tools/list/index.js";
import type { lspHealthTool } from "./tools/lsp-health/index.js";
import type { mdTool } from "./tools/md/index.js";
import type { outlineTool } from "./tools/outline/index.js";
import type { patchTool } from "./tools/patch/index.js";
import type { planTool } from "./tools/plan/index.js";
import type { readTool } from "./tools/read/index.js";
import type { rollbackTool } from "./tools/rollback/index.js";
import type { runTool } from "./tools/run/index.js";
import type { searchTool } from "./tools/search/index.js";
import type { tidyTool } from "./tools/tidy/index.js";
import type { undoTool } from "./tools/undo/index.js";
import type { writeTool } from "./tools/write/index.js";

export type SpliceOptions = Omit<ToolkitOptions, "tools">;

/** A tool's arguments as a caller writes them, and its result. */
export type ToolArgs<T> = T extends Tool<infer I, unknown> ? z.input<I> : never;
export type ToolResult<T> = T extends Tool<z.ZodType, infer O> ? O : never;

type Method<T> = (args: ToolArgs<T>) => Promise<ToolResult<T>>;

/** The toolkit with a typed method per tool (camelCase for the snake_case tool names). */
export interface Splice extends Toolkit {
  read: Method<typeof readTool>;
  list: Method<typeof listTool>;
  search: Method<typeof searchTool>;
  outline: Method<typeof outlineTool>;
  write: Method<typeof writeTool>;
  edit: Method<typeof editTool>;
  patch: Method<typeof patchTool>;
  file: Method<typeof fileTool>;
  doc: Method<typeof docTool>;
  md: Method<typeof mdTool>;
  astEdit: Method<typeof astEditTool>;
  astRename: Method<typeof astRenameTool>;
  run: Method<typeof runTool>;
  tidy: Method<typeof tidyTool>;
  plan: Method<typeof planTool>;
  rollback: Method<typeof rollbackTool>;
  history: Method<typeof historyTool>;
  undo: Method<typeof undoTool>;
  lspHealth: Method<typeof lspHealthTool>;
}

export function createSplice(options: SpliceOptions): Splice {
  const toolkit = createToolkit({ ...options, tools: "full" });
  const typed =
    <T extends Tool<z.ZodType, unknown>>(name: T["name"]): Method<T> =>
    (args) =>
      toolkit.call(name, args) as Promise<ToolResult<T>>;
  return {
    ...toolkit,
    read: typed<typeof readTool>("read"),
    list: typed<typeof listTool>("list"),
    search: typed<typeof searchTool>("search"),
    outline: typed<typeof outlineTool>("outline"),
    write: typed<typeof writeTool>("write"),
    edit: typed<typeof editTool>("edit"),
    patch: typed<typeof patchTool>("patch"),
    file: typed<typeof fileTool>("file"),
    doc: typed<typeof docTool>("doc"),
    md: typed<typeof mdTool>("md"),
    astEdit: typed<typeof astEditTool>("ast_edit"),
    astRename: typed<typeof astRenameTool>("ast_rename"),
    run: typed<typeof runTool>("run"),
    tidy: typed<typeof tidyTool>("tidy"),
    plan: typed<typeof planTool>("plan"),
    rollback: typed<typeof rollbackTool>("rollback"),
    history: typed<typeof historyTool>("history"),
    undo: typed<typeof undoTool>("undo"),
    lspHealth: typed<typeof lspHealthTool>("lsp_health"),
  };
}
