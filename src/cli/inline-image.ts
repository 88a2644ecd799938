/**
 * Images shown in the terminal itself, where that takes one escape sequence:
 * the inline-image protocol of iTerm2, which WezTerm speaks too. Any other
 * terminal, or output that is not a terminal, gets the summary line alone.
 */
import type { ReadResult } from "../index.js";
import { io } from "./io.js";

const INLINE = new Set(["iTerm.app", "WezTerm"]);

export function showsInlineImages(
  stream: { isTTY?: boolean } = io().stdout,
  env: NodeJS.ProcessEnv = io().env,
): boolean {
  return stream.isTTY === true && INLINE.has(env.TERM_PROGRAM ?? "");
}

/** The escape sequences that draw each image of the results, one per line. */
export function inlineImages(results: readonly ReadResult[]): string[] {
  return results.flatMap((r) =>
    (r.images ?? []).map((image) => {
      const size = Math.floor((image.data.length * 3) / 4);
      return `\u001b]1337;File=inline=1;size=${size};preserveAspectRatio=1:${image.data}\u0007`;
    }),
  );
}
