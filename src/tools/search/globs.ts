/**
 * The search tool's `glob`, which only ever narrows. ripgrep's own `--glob` is
 * an override: a file it matches is searched even when .gitignore excludes it.
 * So the positive globs are checked here, on each file rg reports; rg gets
 * only what narrows its walk: the `!` globs, and the positive ones as a file
 * type when they all name file names (rg applies types after ignore files).
 */
import picomatch from "picomatch";
import { ToolError } from "../../errors.js";

export interface SearchGlobs {
  /** Arguments for rg that prune its walk; they never widen it. */
  rgArgs: string[];
  /** Whether a root-relative "/" path passes the globs. */
  matches(rel: string): boolean;
}

const TYPE_NAME = "splicesearch";

type Matcher = (rel: string) => boolean;

/** rg's glob syntax (gitignore's): no "/" matches a name at any depth, a leading "/" anchors. */
function matcher(glob: string): Matcher {
  if (glob.includes("\0")) {
    // No file name holds a NUL, and a process argument cannot carry one to rg.
    throw new ToolError(
      "invalid_input",
      `A glob is not valid: ${JSON.stringify(glob)} has a NUL character (U+0000), which no file name can hold. Remove it (for example "*.ts" or "src/**/*.py").`,
      { glob },
    );
  }
  const body = glob.replace(/^\//, "");
  try {
    picomatch.makeRe(body, { strictBrackets: true });
  } catch (error) {
    throw new ToolError(
      "invalid_input",
      `A glob is not valid: ${JSON.stringify(glob)}: ${(error as Error).message}. Fix the glob (for example "*.ts" or "src/**/*.py").`,
      { glob },
    );
  }
  return picomatch(body, { dot: true, basename: !body.includes("/") });
}

/** The glob as a file-name glob rg's types accept, or undefined when it names a path. */
function fileNameGlob(glob: string): string | undefined {
  const name = glob.replace(/^(\*\*\/)+/, "");
  return name.includes("/") ? undefined : name;
}

/** A file passes when it matches one of the positive globs (if any) and none of the `!` ones. */
export function searchGlobs(globs: readonly string[]): SearchGlobs {
  const include: Matcher[] = [];
  const exclude: Matcher[] = [];
  const rgArgs: string[] = [];
  const names: string[] = [];
  for (const glob of globs) {
    if (glob.startsWith("!")) {
      exclude.push(matcher(glob.slice(1)));
      rgArgs.push(`--glob=${glob}`);
    } else {
      include.push(matcher(glob));
      const name = fileNameGlob(glob);
      if (name !== undefined) names.push(name);
    }
  }
  if (include.length > 0 && names.length === include.length) {
    for (const name of names) rgArgs.push(`--type-add=${TYPE_NAME}:${name}`);
    rgArgs.push(`--type=${TYPE_NAME}`);
  }
  return {
    rgArgs,
    matches: (rel) =>
      (include.length === 0 || include.some((m) => m(rel))) && !exclude.some((m) => m(rel)),
  };
}
