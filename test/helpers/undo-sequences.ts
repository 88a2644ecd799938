/**
 * The random sequences both undo property tests run (the revert engine in
 * memory, the toolkit on real folders): sessions that edit, remove and move
 * three tiny files, outside writes, and undos or redos of a picked session;
 * files are lines of unique tokens, so what a change wrote can be told apart.
 */
import fc from "fast-check";

export type Change = { kind: "replace" | "insert" | "delete"; at: number };
export type Op =
  | { k: "edit"; file: number; change: Change }
  | { k: "rm"; file: number }
  | { k: "move"; file: number; to: number }
  | { k: "outside"; file: number; change: Change }
  | { k: "undo"; pick: number | null; redo: boolean };

/** One step of a sequence over `files` files; an undo picks one of the newest `picks + 1` sessions. */
export function opArbitrary(files: number, picks: number): fc.Arbitrary<Op> {
  const change = fc.record({
    kind: fc.constantFrom("replace" as const, "insert" as const, "delete" as const),
    at: fc.nat(5),
  });
  const file = fc.nat(files - 1);
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ k: fc.constant("edit" as const), file, change }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant("rm" as const), file }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant("move" as const), file, to: file }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constant("outside" as const), file, change }) },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant("undo" as const),
        pick: fc.option(fc.nat(picks), { nil: null }),
        redo: fc.boolean(),
      }),
    },
  );
}

export const linesOf = (text: string) => (text === "" ? [] : text.slice(0, -1).split("\n"));
export const textOf = (lines: string[]) => lines.map((l) => `${l}\n`).join("");
/** A text's lines as a set (none for no file). */
export const lineSet = (text?: string) => new Set(text === undefined ? [] : linesOf(text));

/** `lines` with one change made, its new line from `fresh`. */
export function applyChange(lines: string[], c: Change, fresh: () => string): string[] {
  const out = [...lines];
  const at = lines.length === 0 ? 0 : c.at % lines.length;
  if (c.kind === "insert" || out.length === 0) out.splice(at, 0, fresh());
  else if (c.kind === "replace") out[at] = fresh();
  else out.splice(at, 1);
  return out;
}
