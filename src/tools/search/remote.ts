/**
 * Search on a remote root's machine: rg there when it is installed, else
 * grep, walked by find, whose lines are turned into rg's messages here, so
 * the search tool sees one shape either way (paths, line numbers, then the
 * confirming reads that give the tags).
 */
import type { LineDecoder, RgMessage, RgStarter } from "../../proc/ripgrep.js";
import { shQuote } from "../../workspace/remote/transport.js";
import type { WorkspaceShell } from "../../workspace/workspace.js";

/** The first line grep's fallback prints: what follows is grep's, `null` when names end in NUL. */
const MARKER = "splice-grep ";

/**
 * rg's arguments as the search tool builds them, read back for grep: the
 * pattern and the target after `--`, and the flags grep has. Globs are
 * matched here again (the tool's accept), so only the skip-these names
 * (`!node_modules`) go there, to keep find out of them.
 */
interface GrepQuery {
  pattern: string;
  target: string;
  fixed: boolean;
  ignoreCase: boolean;
  context: number;
  skipped: string[];
}

function grepQuery(args: readonly string[]): GrepQuery {
  const dashes = args.indexOf("--");
  const flags = args.slice(0, dashes);
  const skipped: string[] = [];
  for (const flag of flags) {
    const glob = /^--i?glob=!([^/*?[\]{}]+)$/.exec(flag)?.[1];
    if (glob) skipped.push(glob);
  }
  const context = flags.find((f) => f.startsWith("--context="));
  return {
    pattern: args[dashes + 1] ?? "",
    target: args[dashes + 2] ?? ".",
    fixed: flags.includes("--fixed-strings"),
    ignoreCase: flags.includes("--ignore-case"),
    context: context ? Number(context.slice("--context=".length)) : 0,
    skipped,
  };
}

/**
 * The line run there: rg when present; else grep with the flags this grep
 * has (-I skips binary files, -P reads rg's regex syntax best, else -E):
 * with --null (GNU, BSD), one grep per batch of files find hands it
 * (/dev/null among them, so every line is named); without (busybox), one
 * per file, its lines after an `F name` line, so no name is ever guessed. A pattern grep refuses is
 * said first, as rg says it; grep's other messages make the status 2, as
 * rg's would; its "no match" status is not an error.
 */
function searchLine(host: string, args: readonly string[]): string {
  const q = grepQuery(args);
  const supported = (flag: string) => `grep ${flag} -q x /dev/null 2>/dev/null; [ $? -eq 1 ]`;
  const prune = q.skipped.map((name) => `-name ${shQuote(name)}`).join(" -o ");
  const walk = prune ? `\\( ${prune} \\) -prune -o -type f` : "-type f";
  const options = [
    q.fixed ? "-F" : "$X",
    q.ignoreCase ? "-i" : "",
    q.context > 0 ? `-C ${q.context}` : "",
  ].filter(Boolean);
  const grep = `${options.join(" ")} -e ${shQuote(q.pattern)}`;
  return `command -v rg >/dev/null 2>&1 && exec rg ${args.map(shQuote).join(" ")}
command -v grep >/dev/null 2>&1 || { echo 'neither rg (ripgrep) nor grep is installed on ${host}; install one there to search' >&2; exit 2; }
O=-n; N=each; X=-E
if ${supported("-I")}; then O="$O -I"; fi
if ${supported("--null")}; then O="$O --null"; N=null; fi
if ${supported("-P")}; then X=-P; fi
V=$(grep ${grep} -- /dev/null 2>&1)
[ $? -eq 2 ] && { printf 'regex parse error: %s\n' "$V" >&2; exit 2; }
echo "${MARKER}$N"
exec 3>&1
E=$( { if [ $N = null ]; then
  find ${shQuote(q.target)} ${walk} -exec grep $O ${grep} -- /dev/null {} +
else
  find ${shQuote(q.target)} ${walk} -print | while IFS= read -r f; do
    L=$(grep $O ${grep} -- "$f") && printf 'F%s\n%s\n' "$f" "$L"
  done
fi 2>&1 1>&3; } )
exec 3>&-
[ -z "$E" ] && exit 0
printf '%s\\n' "$E" >&2
exit 2`;
}

/**
 * rg on a remote root's machine (grep where rg is missing), run in its root
 * there; it is stopped there when the search stops.
 */
export function remoteSearch(shell: WorkspaceShell, root: string): RgStarter {
  return async (args) => ({
    child: await shell.spawn(root, searchLine(shell.host, args)),
    decoder: searchDecoder(grepQuery(args)),
  });
}

/**
 * Reads rg's JSON lines as they are, or, after grep's marker line, grep's
 * `name\0line:text` (`line-text` for context) — or, one file at a time,
 * `Fname` then its `line:text` lines — as rg's begin/match/context/end.
 */
export function searchDecoder(
  query: Pick<GrepQuery, "pattern" | "fixed" | "ignoreCase">,
): LineDecoder {
  let mode: "unknown" | "json" | "null" | "each" = "unknown";
  let current: string | undefined;
  /** The file whose lines come next, one file at a time. */
  let named: string | undefined;
  const needle = query.ignoreCase ? query.pattern.toLowerCase() : query.pattern;
  const data = (text: string) => ({ text });
  const line = (type: "match" | "context", number: number, text: string): RgMessage => {
    const at = query.fixed ? (query.ignoreCase ? text.toLowerCase() : text).indexOf(needle) : -1;
    const start = at < 0 ? [] : [Buffer.byteLength(text.slice(0, at))];
    return {
      type,
      data: {
        path: data(current!),
        lines: data(`${text}\n`),
        line_number: number,
        submatches: start.map((s) => ({ start: s, end: s + Buffer.byteLength(needle) })),
      },
    };
  };
  const end = (): RgMessage[] =>
    current === undefined
      ? []
      : [{ type: "end", data: { path: data(current), binary_offset: null } }];
  return {
    line(text) {
      if (mode === "unknown") {
        if (!text.startsWith(MARKER)) mode = "json";
        else {
          mode = text.slice(MARKER.length) === "null" ? "null" : "each";
          return [];
        }
      }
      if (mode === "json") return text.length > 0 ? [JSON.parse(text) as RgMessage] : [];
      if (text === "--" || text === "") return [];
      if (mode === "each" && text.startsWith("F")) {
        named = text.slice(1);
        return [];
      }
      const parsed = mode === "null" ? splitNull(text) : named && numbered(named, text);
      if (!parsed) return [];
      const out: RgMessage[] = [];
      if (parsed.name !== current) {
        out.push(...end());
        current = parsed.name;
        out.push({ type: "begin", data: { path: data(current) } });
      }
      out.push(line(parsed.match ? "match" : "context", parsed.number, parsed.text));
      return out;
    },
    end() {
      const out = end();
      current = undefined;
      return out;
    },
  };
}

interface GrepLine {
  name: string;
  number: number;
  match: boolean;
  text: string;
}

const NUMBERED = /^(\d+)([:-])/;

function numbered(name: string, rest: string): GrepLine | undefined {
  const m = NUMBERED.exec(rest);
  if (!m) return undefined;
  return { name, number: Number(m[1]), match: m[2] === ":", text: rest.slice(m[0].length) };
}

function splitNull(text: string): GrepLine | undefined {
  const nul = text.indexOf("\0");
  return nul < 0 ? undefined : numbered(text.slice(0, nul), text.slice(nul + 1));
}
