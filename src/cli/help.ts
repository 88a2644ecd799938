export const MAIN_HELP = `splice — file tools for AI coding agents

Usage: splice <command> [options]

Commands:
  read PATH...          show files with line numbers and a version tag
  write PATH            replace or create a file with text from --text, --file or stdin
  edit PATH             apply line ops (from --ops, --ops-file or stdin) against a tag
  rollback PATH [TAG]   restore an earlier version (default: the one before the current)
  history PATH          list the versions splice knows of a file
  undo [ID]             undo the newest change (or backup session ID); --list shows them
  call TOOL [JSON]      run any tool with JSON arguments (or JSON on stdin) and print JSON
  serve                 run the MCP server (stdio, or Streamable HTTP with --http PORT)

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
  read: `Usage: splice read PATH[:RANGE]... [--json]

Shows each file as "¶path#TAG" then "N| text" lines. The TAG names this version;
pass it to edit. A range after a colon shows only those lines.

  splice read src/main.ts
  splice read src/main.ts:40..80 README.md
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
  call: `Usage: splice call TOOL [JSON]

Runs any tool by name with JSON arguments (from the argument, or from stdin
when it is omitted or "-") and prints the JSON result. Exit 0 on success; on a
tool error prints {"error": {"code", "message"}} and exits 1.

  splice call read '{"targets":[{"path":"src/main.ts"}]}'
  splice call edit '{"targets":[{"path":"a.txt","file_hash":"1A2B","ops":"delete 3"}]}'
  echo '{"path":"a.txt","hash":""}' | splice call rollback
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
