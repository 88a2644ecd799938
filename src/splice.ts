import type { z } from "zod";
import type { Tool } from "./tools/define.js";
import type { editTool } from "./tools/edit.js";
import type { historyTool } from "./tools/history.js";
import type { readTool } from "./tools/read.js";
import type { rollbackTool } from "./tools/rollback.js";
import { createToolkit, type Toolkit, type ToolkitOptions } from "./tools/toolkit.js";
import type { undoTool } from "./tools/undo.js";
import type { writeTool } from "./tools/write.js";

export type SpliceOptions = Omit<ToolkitOptions, "tools">;

type Args<T> = T extends Tool<infer I, unknown> ? z.input<I> : never;
type Result<T> = T extends Tool<z.ZodType, infer O> ? O : never;

/** The toolkit with a typed method per tool, for library users. */
export interface Splice extends Toolkit {
  read(args: Args<typeof readTool>): Promise<Result<typeof readTool>>;
  write(args: Args<typeof writeTool>): Promise<Result<typeof writeTool>>;
  edit(args: Args<typeof editTool>): Promise<Result<typeof editTool>>;
  rollback(args: Args<typeof rollbackTool>): Promise<Result<typeof rollbackTool>>;
  history(args: Args<typeof historyTool>): Promise<Result<typeof historyTool>>;
  undo(args: Args<typeof undoTool>): Promise<Result<typeof undoTool>>;
}

export function createSplice(options: SpliceOptions): Splice {
  const toolkit = createToolkit({ ...options, tools: "full" });
  const typed =
    <T extends Tool<z.ZodType, unknown>>(name: T["name"]) =>
    (args: Args<T>) =>
      toolkit.call(name, args) as Promise<Result<T>>;
  return {
    ...toolkit,
    read: typed<typeof readTool>("read"),
    write: typed<typeof writeTool>("write"),
    edit: typed<typeof editTool>("edit"),
    rollback: typed<typeof rollbackTool>("rollback"),
    history: typed<typeof historyTool>("history"),
    undo: typed<typeof undoTool>("undo"),
  };
}
