/**
 * The tools' own sentences (refusals, warnings, read notices) name tool
 * arguments: `old_text`, `"force": true`, `call undo with {...}`. The text
 * engines may import nothing of the project, so they cannot take a Voice;
 * the CLI says them again here, with the flags of the command that ran.
 * Only what the CLI prints passes through this; --json keeps the model's text.
 */
import { CLI_VOICE, commandFor } from "./advice.js";

/** A tool argument whose flag is not its dashed name. */
const FLAG_OF: Record<string, string> = {
  old_text: "old",
  new_text: "new",
  replace_all: "all",
  file_hash: "hash",
};

/**
 * A word that can name a tool. The registry is not loaded for this (the CLI
 * starts without it); the sentences come from the tools, which name real ones.
 */
const TOOL = /^[a-z]+(?:_[a-z]+)?$/;
const isTool = (name: string) => TOOL.test(name);

/** Says a tool's sentence with `command`'s flags; `path` is the file it is about, when known. */
export type Say = (text: string, path?: string) => string;

function capital(word: string, like: string): string {
  return /^[A-Z]/.test(like) ? word[0]!.toUpperCase() + word.slice(1) : word;
}

/** `1 files`, `2 file(s)` → `1 file`, `2 files`: the tools count for a model, a person reads words. */
function plural(text: string): string {
  return text
    .replace(/\b(\d[\d,]*) (\w+?)\(s\)/g, (_, n: string, noun: string) =>
      n === "1" ? `1 ${noun}` : `${n} ${noun}s`,
    )
    .replace(
      /\b1 (match|file|line|hit|version|session|error|change|occurrence)(?:es|s)\b/g,
      "1 $1",
    );
}

function jsonArgs(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function spaced(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** Calls and tool names said as commands: `call undo with {…}` → `run splice undo X`. */
function sayCalls(text: string, path?: string): string {
  let out = text
    // `call undo with {"backup_session": "X"}` → `run splice undo X`.
    .replace(/\b([Cc])all (\w+) with (\{[^{}\n]*\})/g, (all, c: string, tool: string, json) => {
      const args = isTool(tool) ? jsonArgs(json) : undefined;
      return args ? `${capital("run", c)} ${commandFor(tool, args)}` : all;
    })
    // `call lsp_health with action "restart"` → `run splice lsp-health --restart`.
    .replace(/\b(?:([Cc])all )?(\w+) with action "(\w+)"/g, (all, c, tool: string, action) => {
      if (!isTool(tool)) return all;
      const run = commandFor(tool, { action });
      return c ? `${capital("run", c)} ${run}` : run;
    })
    // `Call lsp_health to see` → `Run splice lsp-health to see`.
    .replace(/\b([Cc])all (\w+)\b(?! with)/g, (all, c: string, tool: string) =>
      isTool(tool) ? `${capital("run", c)} ${commandFor(tool, {})}` : all,
    )
    // `the undo tool (backup_session "X")` → `splice undo X`.
    .replace(/\bthe (\w+) tool \((\w+) "([^"]*)"\)/g, (all, tool: string, arg: string, value) =>
      isTool(tool) ? commandFor(tool, { [arg]: value }) : all,
    )
    .replace(/\bthe (\w+) tool\b/g, (all, tool: string) =>
      isTool(tool) ? CLI_VOICE.tool(tool) : all,
    )
    // A read notice's range: the read command takes it after the path.
    .replace(
      /\bline_range "([^"]*)"/g,
      (_, range: string) => `splice read ${spaced(path ?? "FILE")}:${range}`,
    )
    // `Read lines 4..9 again`: a person needs the command that reads them.
    .replace(/\b([Rr])ead (lines? (\d+(?:\.\.\d+)?)) again\b/g, (all, r: string, what, range) =>
      path ? `${r}ead ${what} again (splice read ${spaced(path)}:${range})` : all,
    );
  // `diff it with {"action": "diff", "name": "X"}` (a checkpoint) → `splice checkpoint diff X`.
  out = out.replace(
    /\b(\w+) it with (\{[^{}\n]*"action"[^{}\n]*\})/g,
    (all, verb, json: string) => {
      const args = jsonArgs(json);
      return args && /checkpoint/i.test(out)
        ? `${verb} it with ${commandFor("checkpoint", args)}`
        : all;
    },
  );
  return out;
}

/** A tool's arguments said as the command's flags, where the command takes them. */
function sayArgs(
  text: string,
  flagOf: (arg: string) => string | undefined,
  option: (flag: string, value: unknown) => string,
): string {
  let out = text;
  // `a larger timeout_ms (at most 3600000)` → `a larger --timeout (at most 3600 s)`: the flag counts seconds.
  out = out.replace(/\b([a-z]+)_ms \(at most (\d+)\)/g, (all, arg: string, ms: string) => {
    const flag = flagOf(arg);
    return flag ? `--${flag} (at most ${Number(ms) / 1000} s)` : all;
  });
  // `call again with "apply": true` → `run it again with --apply`.
  out = out.replace(/\b([Cc])all again with "(\w+)": true\b/g, (all, c: string, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `${capital("run", c)} it again with --${flag}` : all;
  });
  // `pass regex: false` → `leave out --regex`.
  out = out.replace(/\bpass (\w+): false\b/g, (all, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `leave out --${flag}` : all;
  });
  // `"force": true`, `"line": 12` → `--force`, `--line 12`.
  out = out.replace(/"(\w+)": (true|-?\d+|"[^"\n]*")/g, (all, arg: string, value: string) => {
    const flag = flagOf(arg);
    return flag ? option(flag, JSON.parse(value)) : all;
  });
  // `ignore_case: true`, `regex: true` → `--ignore-case`, `--regex`.
  out = out.replace(/\b([a-z]+(?:_[a-z]+)*): true\b/g, (all, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `--${flag}` : all;
  });
  // `set replace_all` → `pass --all`; `"line"`, `old_text` → `--line`, `--old`.
  out = out.replace(/\bset (\w+_\w+)\b/g, (all, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `pass --${flag}` : all;
  });
  // `file_hash "1A2B"` → `--hash 1A2B`.
  out = out.replace(/\b([a-z]+_[a-z_]+) "([^"\n]*)"/g, (all, arg: string, value: string) => {
    const flag = flagOf(arg);
    return flag ? option(flag, value) : all;
  });
  // A quoted name only after a verb that passes it: `No definition of "line"` is a symbol.
  out = out.replace(/\b(pass|set|use|add its|as) "(\w+)"/g, (all, verb: string, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `${verb === "set" ? "pass" : verb} --${flag}` : all;
  });
  // `The "delete_where" action` → `The --delete-where action`.
  out = out.replace(/"([a-z]+_[a-z_]+)"(?!:)/g, (all, arg: string) => {
    const flag = flagOf(arg);
    return flag ? `--${flag}` : all;
  });
  out = out.replace(/\b[a-z]+_[a-z_]+\b/g, (arg) => {
    const flag = flagOf(arg);
    return flag ? `--${flag}` : arg;
  });
  return out;
}

/**
 * The translation for one command, given its flags' names (none: only what
 * any command can say, the calls and tool names). An argument becomes a flag only where the command
 * takes that flag; the others stay as the tool named them.
 */
export function flagVoice(commandFlags: Iterable<string> = []): Say {
  const flags = new Set(commandFlags);
  const flagOf = (arg: string): string | undefined => {
    const flag = FLAG_OF[arg] ?? arg.replaceAll("_", "-");
    return flags.has(flag) ? flag : undefined;
  };
  const option = (flag: string, value: unknown) =>
    value === true ? `--${flag}` : `--${flag} ${spaced(String(value))}`;

  const sayLine = (text: string, path?: string) =>
    plural(sayArgs(sayCalls(text, path), flagOf, option));
  // A refusal quotes file lines as `N| text`: those are the file's, never said again.
  return (text, path) =>
    text
      .split("\n")
      .map((line) => (/^\d+\| /.test(line) ? line : sayLine(line, path)))
      .join("\n");
}
