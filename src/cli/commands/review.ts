import { defineCommand } from "../define.js";

export const review = defineCommand({
  name: "review",
  summary: "a local web page of every agent's changes, with diffs and one-click undo",
  usage: "[--open] [--port PORT] [--host HOST]",
  description: `Serves the review page for the project: every backup session (who, when,
which tool, which files, lines added and removed), its diffs side by side or
inline, each file's versions, and undo, rollback and redo, each previewed
before it runs. New changes appear while agents work. Prints the page's
address, which carries a token made for this start: the page and its API
refuse requests without it, changes from other origins and other Host names.
Runs until Ctrl-C.`,
  flags: {
    open: {
      type: "boolean",
      description: "open the page in the browser ($BROWSER, else the system's opener)",
    },
    port: {
      type: "string",
      valueName: "PORT",
      description: "the port to listen on (default 0: a free one)",
    },
    host: {
      type: "string",
      valueName: "HOST",
      description: "the address to bind (default 127.0.0.1: this machine only)",
    },
  },
  json: false,
  // The page's open event streams must not keep a stopped server alive.
  exitGraceMs: 2_000,
  examples: ["splice review --open", "splice review --port 4100"],
  async run({ root, flags }) {
    const { reviewCommand } = await import("../review.js");
    return reviewCommand(root, flags);
  },
});
