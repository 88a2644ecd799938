import { defineCommand, invalid } from "../define.js";
import { formatWarnings, readView } from "../format.js";
import { inlineImages, showsInlineImages } from "../inline-image.js";
import { withProgress } from "../progress.js";

/** `path:10..20` names a range; a colon followed by anything else is part of the name. */
function splitTarget(arg: string): { path: string; line_range?: string } {
  const m = /^(.*):(\d+(?:(?:\.\.|-|,)\d+)?)$/.exec(arg);
  return m ? { path: m[1]!, line_range: m[2]! } : { path: arg };
}

export const read = defineCommand({
  name: "read",
  summary: "show files with line numbers and a version tag; --symbol NAME, --line N",
  usage: "PATH[:RANGE]... [--symbol NAME | --line N | --pages RANGE]",
  description: `Shows each file as "¶path#TAG" then "N| text" lines. The TAG names this version;
pass it to edit. A range after a colon shows only those lines. An image shows
as one summary line (drawn inline in iTerm2 and WezTerm; --json has its
base64), a PDF as its text page by page (--pages 31..60 reads on), a notebook
as its cells.

--symbol NAME shows the definition(s) of NAME (a function, method, class, type,
constant, ...); "Class.method" or "Type::method" narrows to a member, and a
folder PATH searches every supported file under it. --line N shows the
innermost function, method or class around line N. Blocks over 200 lines fold
their largest nested blocks into one notice each.`,
  args: [
    {
      name: "PATH[:RANGE]",
      description: "a file, or a folder with --symbol; RANGE is 40..80, 40-80 or 40,80",
      path: true,
      variadic: true,
    },
  ],
  flags: {
    symbol: {
      type: "string",
      valueName: "NAME",
      description: 'show the definition(s) of NAME; "Class.method" narrows to a member',
    },
    line: {
      type: "string",
      valueName: "N",
      description: "show the innermost function, method or class around line N",
    },
    pages: {
      type: "string",
      valueName: "RANGE",
      description: "the pages of a PDF to show, e.g. 31..60 (at most 30 at a time)",
    },
  },
  examples: [
    "splice read src/main.ts",
    "splice read src/main.ts:40..80 README.md",
    "splice read src --symbol Parser.parse",
    "splice read src/main.ts --line 120",
  ],
  async run({ splice, positionals, flags, paint, say }) {
    const { symbol } = flags;
    let line: number | undefined;
    if (flags.line !== undefined) {
      line = Number(flags.line);
      if (!Number.isInteger(line) || line < 1) {
        invalid(`--line needs a line number, not "${flags.line}".`);
      }
    }
    const pages = flags.pages === undefined ? {} : { pages: flags.pages };
    const targets = positionals.map((p) => {
      if (symbol !== undefined) return { path: p, symbol };
      const t = { ...splitTarget(p), ...pages };
      return line !== undefined && t.line_range === undefined ? { ...t, line } : t;
    });
    const json = await withProgress(splice, () => splice.read({ targets }));
    // Call-wide warnings (no history can be kept, say) follow the files.
    const notes = (json as { warnings?: string[] }).warnings ?? [];
    const drawn = showsInlineImages() ? inlineImages(json.results) : [];
    const human = [
      readView(json.results, paint, say),
      ...drawn,
      ...formatWarnings(notes, paint, say),
    ].join("\n");
    return { json, human };
  },
});
