/**
 * The compact view of a unified diff a model reads after a change: per
 * change (a run of changed lines; a hunk may hold several) a git-style
 * `@@ -a,b +c,d @@` line (where it landed and how many lines went and came),
 * then the lines it added, numbered as a read numbers them, so
 * the next line op needs no re-read. Left out, as the model already has
 * them: the `---`/`+++` lines (the result's header names the file), context
 * lines and removed lines. Anything that is not a hunk (a rename's git
 * lines, a notice) is kept as is.
 */

/**
 * Added lines shown per result. From the first change that does not fit on,
 * changes show their `@@` line alone, after one notice.
 */
export const SHOWN_LINES = 40;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NO_EOL = "\\ No newline at end of file";

const span = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);

/** One stretch of changed lines inside a diff hunk (context between stretches is dropped). */
interface Stretch {
  /** 1-based first line of the stretch on each side. */
  oldStart: number;
  newStart: number;
  removed: number;
  /** Added lines with their new 1-based numbers. */
  added: { n: number; text: string }[];
  /** Whether exactly one side lacks its final newline here. */
  eolChanged: boolean;
}

/**
 * The stretches of the hunk whose header is `lines[i]`, and the index after
 * it. Counts, not prefixes, end a hunk: a removed line may itself read "-- a/x".
 */
function readHunk(lines: string[], i: number, m: RegExpExecArray): [Stretch[], number] {
  let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
  let newLeft = m[4] === undefined ? 1 : Number(m[4]);
  let o = Number(m[1]);
  let n = Number(m[3]);
  // An empty side's header names the line before it.
  if (oldLeft === 0) o++;
  if (newLeft === 0) n++;
  const out: Stretch[] = [];
  let open: Stretch | undefined;
  let lastTag = " ";
  let noEol = 0;
  let j = i + 1;
  const stretch = () => {
    open ??= { oldStart: o, newStart: n, removed: 0, added: [], eolChanged: false };
    return open;
  };
  const close = () => {
    if (open) open.eolChanged = noEol === 1;
    if (open) out.push(open);
    open = undefined;
    noEol = 0;
  };
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    if (line === NO_EOL) {
      if (lastTag !== " ") noEol++;
      continue;
    }
    if (oldLeft === 0 && newLeft === 0) break;
    const tag = line[0];
    if (tag === "+" && newLeft > 0) {
      stretch().added.push({ n: n++, text: line.slice(1) });
      newLeft--;
    } else if (tag === "-" && oldLeft > 0) {
      stretch().removed++;
      o++;
      oldLeft--;
    } else if (tag === " " && oldLeft > 0 && newLeft > 0) {
      close();
      o++;
      n++;
      oldLeft--;
      newLeft--;
    } else break;
    lastTag = tag;
  }
  close();
  return [out, j];
}

/** `@@ -a,b +c,d @@` of the changed lines alone; an empty side names the line before it, as in git. */
function stretchLine(s: Stretch): string {
  const oldAt = s.removed === 0 ? s.oldStart - 1 : s.oldStart;
  const newAt = s.added.length === 0 ? s.newStart - 1 : s.newStart;
  return `@@ -${span(oldAt, s.removed)} +${span(newAt, s.added.length)} @@`;
}

/** The compact view of `diff` (our unified diff text), or "" for an empty diff. */
export function changedLines(diff: string, shown = SHOWN_LINES): string {
  if (diff === "") return "";
  const lines = diff.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let budget = shown;
  let cut = false;
  let files = 0;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const m = HUNK.exec(line);
    if (m) {
      const [stretches, next] = readHunk(lines, i, m);
      for (const s of stretches) {
        out.push(stretchLine(s));
        if (!cut && s.added.length > budget) {
          // In order, so what is shown is every change above one line.
          cut = true;
          out.push(
            `[added lines from line ${s.added[0]!.n} on are not shown: read them to see them numbered]`,
          );
        }
        if (!cut) {
          for (const a of s.added) out.push(`${a.n}| ${a.text}`);
          budget -= s.added.length;
        }
        if (s.eolChanged) out.push("[the final newline changed]");
      }
      i = next;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      // The first file is the result's header; a later one (a move to another file) is named.
      if (files++ > 0) out.push(`[${lines[i + 1]!.slice(4).replace(/^b\//, "")}]`);
      i += 2;
      continue;
    }
    out.push(line);
    i++;
  }
  return out.join("\n");
}
