/**
 * Every command, in the order `splice --help` lists them. The only module
 * that imports them all; nothing a command imports may import this.
 */
import type { CommandDefinition } from "../define.js";
import type { Program } from "../usage.js";
import { agent } from "./agent.js";
import { ast } from "./ast.js";
import { call } from "./call.js";
import { checkpoint } from "./checkpoint.js";
import { doc } from "./doc.js";
import { edit } from "./edit.js";
import { engine } from "./engine.js";
import { gc } from "./gc.js";
import { history } from "./history.js";
import { lang } from "./lang.js";
import { list } from "./list.js";
import { lspHealth } from "./lsp-health.js";
import { md } from "./md.js";
import { mv } from "./mv.js";
import { outline } from "./outline.js";
import { patch } from "./patch.js";
import { plan } from "./plan.js";
import { read } from "./read.js";
import { rename } from "./rename.js";
import { review } from "./review.js";
import { rm } from "./rm.js";
import { rollback } from "./rollback.js";
import { run } from "./run.js";
import { search } from "./search.js";
import { serve } from "./serve.js";
import { tidy } from "./tidy.js";
import { undo } from "./undo.js";
import { write } from "./write.js";

export const commands: readonly CommandDefinition[] = [
  read,
  search,
  list,
  outline,
  ast,
  rename,
  write,
  edit,
  doc,
  md,
  tidy,
  mv,
  rm,
  patch,
  run,
  plan,
  rollback,
  history,
  undo,
  checkpoint,
  review,
  gc,
  call,
  serve,
  lspHealth,
  lang,
  agent,
  engine,
];

export const program: Program = {
  commands,
  examples: [
    "splice read src/main.ts src/util.ts:10..40",
    "splice edit src/main.ts --hash 1A2B --ops $'replace 3:\\n+const answer = 42;'",
    "splice search parseConfig src -C 2",
    "splice edit src/main.ts --old 'retries = 3' --new 'retries = 5'",
    "splice rollback src/main.ts",
    `splice call read '{"targets":[{"path":"src/main.ts"}]}'`,
  ],
};
