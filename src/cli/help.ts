export const MAIN_HELP = `splice — file tools for AI coding agents

Usage: splice <command> [options]

Commands:
  read PATH...          show files with line numbers and a version tag; --symbol NAME, --line N
  outline PATH          the definitions of a file or folder, with their line ranges
  ast PATTERN --rewrite OUT PATHS...   rewrite code by syntax (preview; --apply writes)
  rename OLD NEW PATHS...              rename an identifier by syntax (preview; --apply writes)
  write PATH            replace or create a file with text from --text, --file or stdin
  edit PATH             apply line ops (from --ops, --ops-file or stdin) against a tag
  patch FILE            apply a unified diff or Codex patch to its files (preview; --apply writes)
  plan PLAN.json        run a plan of steps as one transaction (preview; --apply writes)
  rollback PATH [TAG]   restore an earlier version (default: the one before the current)
  history PATH          list the versions splice knows of a file
  undo [ID]             undo the newest change (or backup session ID); --list shows them
  call TOOL [JSON]      run any tool with JSON arguments (or JSON on stdin) and print JSON
  serve                 run the MCP server (stdio, or Streamable HTTP with --http PORT)
  lsp-health            the language servers that validate edits; --start, --restart
  agent [PROMPT]        a terminal coding agent on any Anthropic-compatible model

Options for every command:
  --root DIR   the project root (default: the current folder)
  --json       print the tool's JSON result instead of the human view
  --help       help for a command: splice edit --help

Examples:
  splice read src/main.ts src/util.ts:10..40
  splice edit src/main.ts --hash 1A2B --ops $'replace 3:\\n+const answer = 42;'
  splice rollback src/main.ts
  splice call read '{"targets":[{"path":"src/main.ts"}]}'
`;

export const COMMAND_HELP: Record<string, string> = {
  outline: `Usage: splice outline PATH [--lang L] [--max-files N] [--json]

Lists what a file or folder defines (functions, classes, methods, types, ...)
with line ranges, nested by indentation. A folder is walked like list
(.gitignore respected), at most --max-files files (default 1000).

  splice outline src/parser.ts
  splice outline src --lang typescript
`,
  ast: `Usage: splice ast PATTERN --rewrite OUT PATHS... [--apply] [--lang L] [--max-files N] [--json]

Rewrites code by syntax with an ast-grep pattern: $NAME matches one node,
$$$NAME zero or more; OUT puts back what they captured. PATHS are files,
folders or globs (.gitignore respected, at most --max-files, default 1000).
Shows each file's diff and writes nothing unless --apply; with --apply every
changed file is written, all or none, in one backup session (splice undo
reverts it). A progress bar shows on a terminal when many files are covered.

  splice ast 'console.log($$$A)' --rewrite 'logger.info($$$A)' src
  splice ast 'assertEquals($A, $B)' --rewrite 'assertEqual($A, $B)' tests --apply
`,
  rename: `Usage: splice rename OLD NEW PATHS... [--apply] [--lang L] [--max-files N] [--json]

Renames the identifier OLD to NEW wherever it is a name in code - never inside
strings or comments, never a longer name that contains it. It reads tokens,
not scopes. Previews unless --apply.

  splice rename parseConfig loadConfig src
  splice rename parseConfig loadConfig src --apply
`,
  "lsp-health": `Usage: splice lsp-health [LANGUAGE] [--language L] [--start | --restart] [--json]

Shows, per language (typescript, python, go, rust, cpp), the server that
validates edits: its status, how it reports diagnostics, and how to install it
when it is missing. --start starts the servers (of LANGUAGE, or of the
languages whose project files sit at the root) and waits until they answer;
--restart stops and starts them.

  splice lsp-health
  splice lsp-health typescript --start
`,
  read: `Usage: splice read PATH[:RANGE]... [--symbol NAME | --line N] [--json]

Shows each file as "¶path#TAG" then "N| text" lines. The TAG names this version;
pass it to edit. A range after a colon shows only those lines.

--symbol NAME shows the definition(s) of NAME (a function, method, class, type,
constant, ...); "Class.method" or "Type::method" narrows to a member, and a
folder PATH searches every supported file under it. --line N shows the
innermost function, method or class around line N. Blocks over 200 lines fold
their largest nested blocks into one notice each.

  splice read src/main.ts
  splice read src/main.ts:40..80 README.md
  splice read src --symbol Parser.parse
  splice read src/main.ts --line 120
`,
  write: `Usage: splice write PATH [--text TEXT | --file FILE] [--force] [--json]

Replaces PATH with the given text, or creates it (and its folders). Without
--text or --file the text is read from stdin. --force writes even a lockfile or
a file marked @generated / DO NOT EDIT.

  splice write notes.txt --text $'first line\\n'
  generate-config | splice write config.json
`,
  edit: `Usage: splice edit PATH --hash TAG [--ops OPS | --ops-file FILE] [--json]

Applies line ops to PATH. TAG is the 4-hex tag from the read you edit against;
the line numbers in OPS refer to that version. Without --ops or --ops-file the
ops are read from stdin. Ops:

  replace 5..7:      then + lines      delete 10..12
  insert before 3:   insert after 15:  insert head:   insert tail:

  splice edit src/main.ts --hash 1A2B --ops $'replace 3:\\n+const answer = 42;'
  splice edit src/main.ts --hash 1A2B < changes.ops
`,
  rollback: `Usage: splice rollback PATH [TAG] [--json]

Restores the version named by TAG from history, or, without TAG, the version
before the current one. A deleted file is recreated. The replaced content is
backed up too, so a rollback can be rolled back.

  splice rollback src/main.ts
  splice rollback src/main.ts 1A2B
`,
  history: `Usage: splice history PATH [--json]

Lists the versions of PATH that splice has seen or written, newest first.

  splice history src/main.ts
`,
  patch: `Usage: splice patch FILE [--apply | --check] [--allow-overwrite] [--json]

Applies a unified diff (git diff, diff -u) or a Codex patch (*** Begin Patch …
*** End Patch) to every file it names, or to none. FILE "-" reads stdin.
Without --apply it shows the diff and writes nothing; --check exits 1 when the
patch would change something. Hunks are found by their lines (tolerating
drifted context); an ambiguous or missing hunk fails with nothing written.
--allow-overwrite lets an added or renamed file replace an existing one.

  git diff > fix.diff; splice patch fix.diff
  splice patch fix.diff --apply
`,
  plan: `Usage: splice plan PLAN.json [--apply | --check] [--json]

Runs the steps of PLAN.json as one transaction: {"steps": [...], "policy":
"strict" | "best_effort"}. A step is {"tool": NAME, "args": {...}} (any tool
call) or {"validate": {"run": "npm test"}} / {"validate": {"syntax": true}}.
Without --apply the steps run on an in-memory copy and the combined diff is
shown (commands are not run). With --apply, a failing step under "strict"
restores every file the plan touched; the plan is one backup session, so
"splice undo" restores everything it changed, even after a crash mid-plan.
Exit 1 when a step fails (or, with --check, when the plan would change files).

  splice plan refactor.json
  splice plan refactor.json --apply
`,
  call: `Usage: splice call TOOL [JSON]

Runs any tool by name with JSON arguments (from the argument, or from stdin
when it is omitted or "-") and prints the JSON result. Exit 0 on success; on a
tool error prints {"error": {"code", "message"}} and exits 1.

  splice call read '{"targets":[{"path":"src/main.ts"}]}'
  splice call edit '{"targets":[{"path":"a.txt","file_hash":"1A2B","ops":"delete 3"}]}'
  echo '{"path":"a.txt","hash":""}' | splice call rollback
`,
  agent: `Usage: splice agent [PROMPT] [--model M] [--base-url URL] [--key-file FILE]
                    [--tools minimal|full] [--yes] [--continue] [--root DIR]

A line-oriented coding agent in this folder, on any model that speaks the
Anthropic Messages API. The model's text streams as it arrives. With PROMPT it
runs that turn first. It then reads further messages from stdin until stdin
ends (Ctrl-D), so "splice agent PROMPT < /dev/null" runs one turn and exits
(0, or 1 when the provider failed). A line ending in "\\" continues on the
next line; an empty line re-sends a message that failed; /exit leaves.

Calls that change files or run commands show their diff or command first and
ask: y (yes), n (no; anything after it, as in "n use tabs", is told to the
model as the reason), a (always allow that kind - file changes, or commands -
for the rest of the session). Calls that only read never ask. Piped
stdin answers the questions in order; at end of input a question is declined.

Ctrl-C stops the current turn (a running command and everything it started
are killed); a second Ctrl-C exits. AGENTS.md and CLAUDE.md in the folder are
sent as instructions. Each conversation is kept in .splice/agents/ (<id>.jsonl
to resume, <id>.txt to read); --continue resumes the newest one.

  --model M        model name (default claude-sonnet-5-5)
  --base-url URL   provider address (default https://api.anthropic.com)
  --key-file FILE  read the API key from FILE, afresh for every request
  --tools SET      "minimal" (default: read, list, search, edit, run) or "full"
  --yes            approve EVERY call without asking: the model may then change
                   any file in the folder and run any command as you; use it
                   only in a sandbox, a container, or a throwaway checkout
  --continue       resume this folder's newest conversation

Settings, first found wins:
  model      --model, $SPLICE_MODEL, config "model", $ANTHROPIC_MODEL
  base URL   --base-url, $SPLICE_BASE_URL, config "base_url", $ANTHROPIC_BASE_URL
  key        --key-file, $SPLICE_KEY_FILE, $SPLICE_API_KEY, config "key_env" or
             "key_file", $ANTHROPIC_API_KEY
The config file is $SPLICE_CONFIG or ~/.config/splice/agent.json (JSON with
base_url, model, max_tokens, tools, key_file, key_env; never the key itself).
The key is never printed, logged or written to the conversation files.

  export ANTHROPIC_API_KEY=...; splice agent "fix the failing test"
  splice agent --base-url https://llm.example.com --key-file ~/.config/splice/key --model M
  splice agent --continue
`,
  serve: `Usage: splice serve [--root DIR] [--tools full|minimal] [--http PORT [--host HOST] [--token T]]

Runs splice's tools as an MCP server. Over stdio by default (for a client that
starts it); with --http, over Streamable HTTP at http://HOST:PORT/mcp. Each
connection gets its own history session. When the client offers roots, its
roots replace --root. Logs go to stderr. Stops on SIGINT/SIGTERM, or on stdio
when the client closes stdin.

  --root DIR      where paths resolve (default: the current folder)
  --tools SET     "full" (default) or "minimal": the few tools small models handle best
  --http PORT     serve over HTTP on PORT (0 picks a free one) instead of stdio
  --host HOST     address to bind (default 127.0.0.1; requests must name this
                  host, localhost or 127.0.0.1 in Host, and a localhost Origin)
  --token T       require "Authorization: Bearer T" (or set SPLICE_TOKEN)

Writes are fsynced (with the history kept for undo) before a call returns;
SPLICE_DURABLE=0 in the environment skips that: still atomic, about twice as
fast for small edits, but a power loss may take the last writes.

  splice serve --root ~/src/app
  splice serve --http 3000 --token "$(openssl rand -hex 16)"
`,
  undo: `Usage: splice undo [BACKUP_SESSION] [--path PATH] [--list] [--json]

Every call that writes files opens a backup session holding the originals.
Without an id, undoes the newest change not yet undone (by anyone on this
root); with --path, restores only that file. Undo is itself a backup session,
so it can be undone. --list shows the sessions, their files and diffs.

  splice undo --list
  splice undo
  splice undo 20261130-091650-a1b2c3 --path src/main.ts
`,
};
