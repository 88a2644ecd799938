/**
 * Where commands take their input from: an inline flag, a file named by a
 * flag, or stdin; and the checks of flag values that parsing cannot make.
 * A bad value is refused like a tool's bad argument (exit 1), with the fix.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ToolError } from "../errors.js";
import { invalid } from "./define.js";
import { io } from "./io.js";

type ReadStdin = (howToPass: string) => Promise<string>;

/**
 * Everything piped in, read as a stream. A synchronous read of fd 0 fails
 * with EAGAIN when the pipe's other holder (a node parent, a shell tool)
 * made it non-blocking and the writer is slower than the reader; the
 * stream waits for each piece instead, and decodes the bytes only when whole.
 */
export async function readAllStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** An input file's text, named as the flag or argument that named it. */
function readNamed(file: string, named: string): string {
  try {
    return readFileSync(resolve(io().cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "there is no such file"
        : code === "EISDIR"
          ? "it is a folder"
          : (error as Error).message;
    throw new ToolError(
      "not_found",
      `Cannot read ${named} ${file}: ${why}. It is relative to where you stand (${io().cwd}); check the name, or use "-" for stdin.`,
      { path: file },
    );
  }
}

/** The inline text if given (`--ops`), else the named file's (`--ops-file`), else stdin. */
export async function textFrom(
  inline: { flag: string; value: string | undefined },
  file: { flag: string; value: string | undefined },
  readStdin: ReadStdin,
): Promise<string> {
  if (inline.value !== undefined) return inline.value;
  if (file.value !== undefined && file.value !== "-")
    return readNamed(file.value, `--${file.flag}`);
  return readStdin(`pass --${inline.flag} TEXT or --${file.flag} FILE`);
}

/** A file argument's text; "-" reads stdin. */
export async function readInputFile(
  file: string,
  readStdin: ReadStdin,
  what: string,
): Promise<string> {
  if (file === "-") return readStdin(`name the ${what} file instead of "-"`);
  return readNamed(file, what);
}

export function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    invalid(`--${name} needs a whole number of at least 1, not "${raw}".`);
  }
  return n;
}

/** A value typed on the command line: JSON when it parses (`3`, `true`, `["a"]`), else the text. */
export function typedValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A value typed on the command line to replace `existing`, of the same kind
 * when it reads as that kind: any text reads as a string, so `2` over `"1"`
 * is `"2"`; a number stays a number and `true` a boolean, as JSON reads them.
 * Text that does not read as the kind (`abc` over a number), or that replaces
 * null, a list, an object or nothing yet, is read as `typedValue` reads it.
 */
export function valueLike(existing: unknown, raw: string): unknown {
  return typeof existing === "string" ? raw : typedValue(raw);
}

/** A value typed on the command line as JSON, exactly; a UsageError-worthy message when it is not. */
export function jsonValue(raw: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(raw) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * `-g '*.ts,!*.d.ts' -g src/**` as the globs it names: each value split at its
 * commas, but not at the ones inside braces (`*.{ts,tsx}` is one glob).
 */
export function globList(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const globs: string[] = [];
  for (const value of values) {
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= value.length; i++) {
      const c = value[i];
      if (c === "{") depth++;
      else if (c === "}") depth = Math.max(0, depth - 1);
      else if ((c === "," && depth === 0) || c === undefined) {
        const glob = value.slice(start, i).trim();
        if (glob) globs.push(glob);
        start = i + 1;
      }
    }
  }
  if (globs.length === 0) invalid("--glob needs a glob, such as '*.ts' or '!*.test.ts'.");
  return globs;
}
