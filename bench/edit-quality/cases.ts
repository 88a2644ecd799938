/**
 * Edit cases as models get them wrong. Each case takes a span of a real file
 * and a realistic change (the correct edit), then quotes old_text/new_text
 * with one class of mistake, and knows its correct outcome: the exact bytes
 * of the edited file, or a refusal. Seeded: the same cases on every run.
 */
import { Rng } from "../lib.js";
import type { CorpusFile } from "./corpus.js";
import {
  DELTA_APPLY_CLASSES,
  DELTA_REFUSE_CLASSES,
  deltaFirst,
  deltaLast,
  deltaMiddle,
  deltaRunnerUp,
  nearDuplicate,
  typoInChanged,
} from "./delta-cases.js";
import {
  applyCase,
  certainEdit,
  changeLines,
  type Draft,
  distinctIndexes,
  feasibleShifts,
  refuseCase,
  shiftBy,
} from "./drafts.js";
import {
  anchorCount,
  applyChange,
  contextIndexes,
  countExact,
  type FileInfo,
  fileInfo,
  identTokens,
  isBlank,
  joinText,
  leading,
  looseKey,
  makeChange,
  misremember,
  numberTokens,
  pickSpan,
  renamed,
  spanText,
  withSpan,
} from "./spans.js";
import { WHITESPACE_CLASSES, wsAlready, wsMisquoted, wsReindent } from "./whitespace-cases.js";

/** Classes whose correct outcome is the edited file: the target is certain. */
export const APPLY_CLASSES = [
  "exact",
  "crlf",
  "trailing_ws",
  "indent_shift",
  "tabs_spaces",
  "unicode",
  "over_escaped",
  "misremembered_context",
  "blank_line",
] as const;

/** Classes whose correct outcome is a refusal: the target is not certain. */
export const REFUSE_CLASSES = ["ambiguous", "ambiguous_fuzzy", "hallucinated", "stale"] as const;

/** The classes the original benchmark had; the delta ones (delta-cases.ts) are reported beside them. */
export const BASE_CLASSES = [...APPLY_CLASSES, ...REFUSE_CLASSES] as const;
export const DELTA_CLASSES = [...DELTA_APPLY_CLASSES, ...DELTA_REFUSE_CLASSES] as const;
export const CLASSES = [...BASE_CLASSES, ...DELTA_CLASSES, ...WHITESPACE_CLASSES] as const;
export type CaseClass = (typeof CLASSES)[number];

/**
 * Each class's Rng is seeded by its place here: a class added later goes at
 * the end, so adding one leaves every other class's cases as they were.
 */
const SEED_ORDER: readonly CaseClass[] = [
  ...BASE_CLASSES,
  "delta_first",
  "delta_last",
  "delta_middle",
  ...DELTA_REFUSE_CLASSES,
  ...WHITESPACE_CLASSES,
  "delta_runner_up",
];

export type { Expected } from "./drafts.js";

export interface Case extends Draft {
  /** e.g. "indent_shift-07". */
  id: string;
  cls: CaseClass;
  /** The corpus file, as a path under node_modules. */
  file: string;
}

export const SEED = 0x0ed1_7a11;
export const PER_CLASS = 50;

// ---------------------------------------------------------------- apply classes

type Maker = (info: FileInfo, rng: Rng, cache: Cache) => Draft | undefined;

const exact: Maker = (info, rng) => {
  const e = certainEdit(info, rng);
  if (!e) return undefined;
  const next = applyChange(e.span, e.change);
  return applyCase(info, e, e.span, next, "quoted exactly", { perturbed: false });
};

const crlf: Maker = (info, rng) => {
  const e = certainEdit(info, rng);
  if (!e) return undefined;
  const next = applyChange(e.span, e.change);
  return applyCase(info, e, e.span, next, "old_text and new_text with CRLF", { eol: "\r\n" });
};

const trailingWs: Maker = (info, rng) => {
  const e = certainEdit(info, rng);
  if (!e) return undefined;
  const context = contextIndexes(e.span.length, e.change);
  const picked = distinctIndexes(rng, context, rng.int(1, Math.min(3, context.length)));
  const old = [...e.span];
  const notes: string[] = [];
  for (const i of picked) {
    const line = old[i]!;
    const trimmed = line.replace(/[ \t]+$/, "");
    if (trimmed !== line) {
      old[i] = trimmed;
      notes.push(`-${i + 1}`);
    } else {
      old[i] = line + " ".repeat(rng.int(1, 4));
      notes.push(`+${i + 1}`);
    }
  }
  const what = `trailing spaces changed on span lines ${notes.join(",")}`;
  return applyCase(info, e, old, applyChange(old, e.change), what);
};

const indentShift: Maker = (info, rng) => {
  const e = certainEdit(info, rng);
  if (!e) return undefined;
  const shifts = feasibleShifts([...e.span, ...changeLines(e.change)], [2, 4, -2, -4]);
  if (shifts.length === 0) return undefined;
  const by = rng.pick(shifts);
  const f = shiftBy(by);
  const what = `block re-indented by ${by > 0 ? "+" : ""}${by}`;
  return applyCase(info, e, e.span.map(f), applyChange(e.span, e.change).map(f), what);
};

const tabsSpaces: Maker = (info, rng) => {
  const e = certainEdit(info, rng, {
    need: (lines) => lines.some((l) => !isBlank(l) && leading(l) !== ""),
  });
  if (!e) return undefined;
  const all = [...e.span, ...changeLines(e.change)];
  const tabs = all.some((l) => leading(l).includes("\t"));
  let f: (line: string) => string;
  let what: string;
  if (tabs) {
    const unit = rng.pick([2, 4]);
    f = (line) => {
      const ws = leading(line);
      return ws.replace(/\t/g, " ".repeat(unit)) + line.slice(ws.length);
    };
    what = `tabs quoted as ${unit} spaces`;
  } else {
    const unit = info.spaceUnit;
    f = (line) => {
      if (isBlank(line)) return line;
      const n = leading(line).length;
      return "\t".repeat(Math.floor(n / unit)) + " ".repeat(n % unit) + line.slice(n);
    };
    what = `${unit}-space indentation quoted as tabs`;
  }
  return applyCase(info, e, e.span.map(f), applyChange(e.span, e.change).map(f), what);
};

const hasQuote = (lines: string[]) => lines.some((l) => /["']/.test(l));

/** A chat window's typography: curly quotes, an en dash, a non-breaking space. */
function smarten(line: string, rng: Rng): string {
  let double = 0;
  let single = 0;
  let out = line.replace(/["']/g, (q) =>
    q === '"' ? (double++ % 2 ? "\u201D" : "\u201C") : single++ % 2 ? "\u2019" : "\u2018",
  );
  if (out.includes(" - ") && rng.chance(0.5)) out = out.replace(" - ", " \u2013 ");
  if (rng.chance(0.25)) {
    const spaces = [...out.matchAll(/(?<=\S) (?=\S)/g)].map((m) => m.index);
    if (spaces.length > 0) {
      const at = rng.pick(spaces);
      out = `${out.slice(0, at)}\u00A0${out.slice(at + 1)}`;
    }
  }
  return out;
}

const unicode: Maker = (info, rng) => {
  const e = certainEdit(info, rng, { need: hasQuote });
  if (!e) return undefined;
  const old = e.span.map((l) => smarten(l, rng));
  const what = "old_text with curly quotes (and maybe an en dash or nbsp)";
  return applyCase(info, e, old, applyChange(e.span, e.change), what);
};

const overEscaped: Maker = (info, rng) => {
  const e = certainEdit(info, rng, {
    need: (lines) => lines.some((l) => l.includes('"')) && !lines.some((l) => l.includes("\\")),
  });
  if (!e || changeLines(e.change).some((l) => l.includes("\\"))) return undefined;
  const f = (line: string) => line.replaceAll('"', '\\"');
  const what = '" quoted as \\" in old_text and new_text';
  return applyCase(info, e, e.span.map(f), applyChange(e.span, e.change).map(f), what);
};

const misremembered: Maker = (info, rng) => {
  const e = certainEdit(info, rng, { min: 3 });
  if (!e) return undefined;
  if (anchorCount(info, e.from, e.to) !== 1) return undefined;
  const touched = e.change.kind === "insert" ? -1 : e.change.at;
  const middle = [...Array(e.span.length - 2).keys()]
    .map((i) => i + 1)
    .filter((i) => i !== touched && e.span[i]!.replace(/\s/g, "").length >= 12);
  if (middle.length === 0) return undefined;
  const j = rng.pick(middle);
  const altered = misremember(e.span[j]!, rng);
  if (altered === undefined) return undefined;
  const old = [...e.span];
  old[j] = altered;
  const what = `context line ${j + 1} misremembered in both: ${JSON.stringify(altered.trim())}`;
  return applyCase(info, e, old, applyChange(old, e.change), what);
};

const blankLine: Maker = (info, rng) => {
  const e = certainEdit(info, rng, { min: 3 });
  if (!e) return undefined;
  const { span, change } = e;
  const n = span.length;
  const insertAt = change.kind === "insert" ? change.at : -1;
  const deleteAt = change.kind === "delete" ? change.at : -1;
  const correct = applyChange(span, change);
  const blanks = [...Array(n - 2).keys()]
    .map((i) => i + 1)
    .filter((b) => isBlank(span[b]!) && insertAt !== b && insertAt !== b + 1);
  if (blanks.length > 0 && rng.chance(0.5)) {
    const b = rng.pick(blanks);
    const shifted =
      b + (insertAt !== -1 && insertAt <= b ? 1 : 0) - (deleteAt !== -1 && deleteAt < b ? 1 : 0);
    if (!isBlank(correct[shifted]!)) return undefined;
    const old = span.filter((_, i) => i !== b);
    const next = correct.filter((_, i) => i !== shifted);
    return applyCase(
      info,
      e,
      old,
      next,
      `blank span line ${b + 1} missing from old_text and new_text`,
    );
  }
  const gaps = [...Array(n - 1).keys()]
    .map((i) => i + 1)
    .filter(
      (p) =>
        !isBlank(span[p - 1]!) &&
        !isBlank(span[p]!) &&
        insertAt !== p &&
        deleteAt !== p &&
        deleteAt !== p - 1,
    );
  if (gaps.length === 0) return undefined;
  const p = rng.pick(gaps);
  const shifted =
    p + (insertAt !== -1 && insertAt < p ? 1 : 0) - (deleteAt !== -1 && deleteAt < p ? 1 : 0);
  const old = [...span.slice(0, p), "", ...span.slice(p)];
  const next = [...correct.slice(0, shifted), "", ...correct.slice(shifted)];
  return applyCase(
    info,
    e,
    old,
    next,
    `extra blank line before span line ${p + 1} in old_text and new_text`,
  );
};

// ---------------------------------------------------------------- refusal classes

/** Per-file facts that are costly to compute and shared by a class's attempts. */
interface Cache {
  duplicates: Map<string, number[][]>;
  keySets: Map<string, Set<string>>;
}

/** Groups of start lines of whole-line windows (2..6 lines) that occur more than once. */
function duplicateWindows(info: FileInfo): number[][] {
  const groups: number[][] = [];
  for (let k = 2; k <= 6; k++) {
    const seen = new Map<string, number[]>();
    for (let i = 0; i + k <= info.usable; i++) {
      const lines = info.lines.slice(i, i + k);
      if (isBlank(lines[0]!) || isBlank(lines.at(-1)!)) continue;
      if (lines.some((l) => l.length > 240)) continue;
      if (!lines.some((l) => l.trim().length >= 3)) continue;
      const key = spanText(info, i, i + k);
      const at = seen.get(key);
      if (at) at.push(i);
      else seen.set(key, [i]);
    }
    for (const at of seen.values()) if (at.length > 1) groups.push([k, ...at]);
  }
  return groups;
}

const ambiguous: Maker = (info, rng, cache) => {
  let groups = cache.duplicates.get(info.path);
  if (!groups) {
    groups = duplicateWindows(info);
    cache.duplicates.set(info.path, groups);
  }
  if (groups.length === 0) return undefined;
  const [k, ...starts] = rng.pick(groups);
  const from = rng.pick(starts);
  const span = info.lines.slice(from, from + k!);
  const nl = rng.chance(0.5);
  const oldText = joinText(span, nl);
  const count = countExact(info.text, oldText, 100);
  if (count < 2) return undefined;
  const change = makeChange(span, info.idents, rng);
  if (!change) return undefined;
  const newText = joinText(applyChange(span, change), nl);
  const lines = starts.map((s) => s + 1).join(", ");
  const what = `${change.what}; old_text occurs ${count} times (whole-line copies at lines ${lines})`;
  return refuseCase(info.text, info.text, [from + 1, from + k!], oldText, newText, what);
};

const ambiguousFuzzy: Maker = (info, rng) => {
  const e = certainEdit(info, rng, { max: 8 });
  if (!e) return undefined;
  const all = [...e.span, ...changeLines(e.change)];
  const copyShifts = feasibleShifts(all, [2, 4, -2, -4]);
  if (copyShifts.length === 0) return undefined;
  const copyShift = rng.pick(copyShifts);
  const quoteShifts = feasibleShifts(all, [2, 4, 6, -2, -4]).filter((d) => d !== copyShift);
  if (quoteShifts.length === 0) return undefined;
  const quoteShift = rng.pick(quoteShifts);
  const n = e.span.length;
  let q = -1;
  for (let attempt = 0; attempt < 10 && q === -1; attempt++) {
    const at = rng.int(0, info.usable);
    if (at < e.from - 10 || at > e.to + 10) q = at;
  }
  if (q === -1) return undefined;
  const copy = e.span.map(shiftBy(copyShift));
  const offset = info.offsets[q]!;
  const file = `${info.text.slice(0, offset)}${copy.map((l) => `${l}\n`).join("")}${info.text.slice(offset)}`;
  let old = e.span.map(shiftBy(quoteShift));
  let next = applyChange(e.span, e.change).map(shiftBy(quoteShift));
  let extra = "";
  if (rng.chance(0.3)) {
    const pad = (lines: string[]) => lines.map((l, i) => (i === 0 ? `${l}  ` : l));
    old = pad(old);
    next = pad(next);
    extra = " and trailing spaces on its first line";
  }
  const oldText = joinText(old, e.nl);
  if (countExact(file, oldText, 1) > 0) return undefined;
  const line = e.from + 1 + (q <= e.from ? n : 0);
  const what = `${e.change.what}; a copy of the span indented ${copyShift > 0 ? "+" : ""}${copyShift} inserted at line ${q + 1}, old_text indented ${quoteShift > 0 ? "+" : ""}${quoteShift}${extra}`;
  return refuseCase(file, file, [line, line + n - 1], oldText, joinText(next, e.nl), what);
};

function keySet(info: FileInfo, cache: Cache): Set<string> {
  let set = cache.keySets.get(info.path);
  if (!set) {
    set = new Set(info.keys);
    cache.keySets.set(info.path, set);
  }
  return set;
}

/** Plausible code from the file's own identifiers: a block in the file's style that is not there. */
function templateBlock(info: FileInfo, rng: Rng): { lines: string[]; line: number } | undefined {
  if (info.idents.length < 4) return undefined;
  const from = rng.int(0, info.usable - 1);
  const indent = leading(info.lines[from]!);
  const [a, b, c, d] = [0, 1, 2, 3].map(() => rng.pick(info.idents)) as [
    string,
    string,
    string,
    string,
  ];
  const shapes: string[][] = [
    [`const ${a} = ${b}(${c});`, `if (!${a}) {`, `  throw new Error("missing ${c}");`, "}"],
    [`for (const ${a} of ${b}.${c}) {`, `  ${d}.push(${a});`, "}"],
    [`export function ${a}(${b}, ${c}) {`, `  return ${b}.${d}(${c});`, "}"],
    [`${a}.${b} = ${c};`, `${a}.${d} = ${c}.${d} ?? null;`],
    [`if (${a} === undefined) {`, `  ${a} = ${b}.${c};`, "}", `return ${d}(${a});`],
  ];
  return { lines: rng.pick(shapes).map((l) => indent + l), line: from + 1 };
}

/** A real span with every identifier swapped for another of the file's and numbers changed. */
function rewrittenBlock(info: FileInfo, rng: Rng): { lines: string[]; line: number } | undefined {
  const s = pickSpan(info, rng, { min: 2, max: 6 });
  if (!s || info.idents.length < 4) return undefined;
  const names = new Map<string, string>();
  const lines = info.lines.slice(s.from, s.to).map((line) => {
    let out = "";
    let pos = 0;
    const tokens = [...identTokens(line), ...numberTokens(line)].sort((x, y) => x.at - y.at);
    for (const t of tokens) {
      if (t.at < pos) continue;
      let next: string;
      if (/^\d/.test(t.text)) next = String(Number(t.text) + rng.int(1, 9));
      else {
        next = names.get(t.text) ?? rng.pick(info.idents);
        if (next === t.text) next = renamed(t.text, rng);
        names.set(t.text, next);
      }
      out += line.slice(pos, t.at) + next;
      pos = t.at + t.text.length;
    }
    return out + line.slice(pos);
  });
  return { lines, line: s.from + 1 };
}

const hallucinated: Maker = (info, rng, cache) => {
  const made = rng.chance(0.5) ? templateBlock(info, rng) : rewrittenBlock(info, rng);
  if (!made) return undefined;
  const keys = keySet(info, cache);
  const substantial = made.lines.filter((l) => l.replace(/\s/g, "").length >= 6);
  if (substantial.length === 0 || substantial.some((l) => keys.has(looseKey(l)))) return undefined;
  const change = makeChange(made.lines, info.idents, rng, {
    kinds: ["rename", "literal", "insert"],
  });
  if (!change) return undefined;
  const nl = rng.chance(0.5);
  const oldText = joinText(made.lines, nl);
  if (countExact(info.text, oldText, 1) > 0) return undefined;
  const newText = joinText(applyChange(made.lines, change), nl);
  const what = `${change.what}; old_text is not in the file (every line of 6+ characters is new)`;
  const lines: [number, number] = [made.line, made.line + made.lines.length - 1];
  return refuseCase(info.text, info.text, lines, oldText, newText, what);
};

/**
 * The model changes or deletes a line, and after its read someone else
 * changed that same line: applying the edit would overwrite their change, and
 * no merge can keep both. (Inserts are left out: an insert next to an outside
 * change merges cleanly, so refusing it would not be the only right answer.)
 */
const stale: Maker = (info, rng) => {
  const e = certainEdit(info, rng, {}, () => ({ kinds: ["rename", "literal", "delete"] }));
  if (!e || e.change.kind === "insert") return undefined;
  const { span, change } = e;
  const target = change.at;
  const theirs = [...span];
  let what: string;
  if (change.kind === "replace" && span.length >= 3 && rng.chance(0.3)) {
    theirs.splice(target, 1);
    what = `span line ${target + 1} deleted`;
  } else {
    const other = makeChange(span, info.idents, rng, {
      kinds: ["rename", "literal"],
      avoid: (i) => i !== target,
    });
    if (other?.kind !== "replace") return undefined;
    if (change.kind === "replace" && other.line === change.line) return undefined;
    theirs[target] = other.line;
    what = other.what;
  }
  const file = withSpan(info, e.from, e.to, theirs);
  const oldText = joinText(span, e.nl);
  if (countExact(file, oldText, 1) > 0) return undefined;
  const newText = joinText(applyChange(span, change), e.nl);
  const note = `${change.what}; after the read, an outside change on span line ${target + 1}: ${what}`;
  return refuseCase(info.text, file, [e.from + 1, e.to], oldText, newText, note);
};

const MAKERS: Record<CaseClass, Maker> = {
  exact,
  crlf,
  trailing_ws: trailingWs,
  indent_shift: indentShift,
  tabs_spaces: tabsSpaces,
  unicode,
  over_escaped: overEscaped,
  misremembered_context: misremembered,
  blank_line: blankLine,
  ambiguous,
  ambiguous_fuzzy: ambiguousFuzzy,
  hallucinated,
  stale,
  delta_first: deltaFirst,
  delta_last: deltaLast,
  delta_middle: deltaMiddle,
  delta_runner_up: deltaRunnerUp,
  near_duplicate: nearDuplicate,
  typo_in_changed: typoInChanged,
  ws_reindent: wsReindent,
  ws_already: wsAlready,
  ws_misquoted: wsMisquoted,
};

export interface GenerateOptions {
  seed?: number;
  perClass?: number;
  classes?: readonly CaseClass[];
}

/** Up to `perClass` cases per class; each class has its own Rng, so classes do not shift each other. */
export function generateCases(files: readonly CorpusFile[], options: GenerateOptions = {}): Case[] {
  const seed = options.seed ?? SEED;
  const perClass = options.perClass ?? PER_CLASS;
  const infos = files.map(fileInfo);
  if (infos.length === 0) return [];
  const cache: Cache = { duplicates: new Map(), keySets: new Map() };
  const cases: Case[] = [];
  for (const cls of options.classes ?? CLASSES) {
    const rng = new Rng(seed + 7919 * (SEED_ORDER.indexOf(cls) + 1));
    const seen = new Set<string>();
    let made = 0;
    for (let attempt = 0; attempt < perClass * 500 && made < perClass; attempt++) {
      const info = rng.pick(infos);
      const draft = MAKERS[cls](info, rng, cache);
      if (!draft) continue;
      const key = `${info.path}\u0000${draft.line}\u0000${draft.oldText}`;
      if (seen.has(key)) continue;
      seen.add(key);
      cases.push({
        id: `${cls}-${String(++made).padStart(2, "0")}`,
        cls,
        file: info.path,
        ...draft,
      });
    }
  }
  return cases;
}

/** What a class's cases want, as the tables say it. */
export function wanted(cls: CaseClass): "apply" | "refuse" | "no change" {
  if (cls === "ws_already") return "no change";
  const refusing: readonly string[] = [...REFUSE_CLASSES, ...DELTA_REFUSE_CLASSES, "ws_misquoted"];
  return refusing.includes(cls) ? "refuse" : "apply";
}
