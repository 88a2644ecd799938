/**
 * Tokens per turn, and their cost when the config names the model's price:
 * prices change and differ per provider, so splice keeps no table of its own
 * that could be silently wrong. Shown after each turn at a terminal, and
 * kept in the conversation's files either way.
 */
import { count } from "../util/format.js";
import type { Usage } from "./stream.js";

/** US dollars per million tokens, from the config file's "price". */
export interface Price {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export function addUsage(total: Usage, more: Usage | undefined): boolean {
  if (!more) return false;
  total.input += more.input;
  total.output += more.output;
  total.cacheRead += more.cacheRead;
  total.cacheWrite += more.cacheWrite;
  return true;
}

export function cost(u: Usage, price: Price): number {
  return (
    (u.input * price.input +
      u.output * price.output +
      u.cacheRead * (price.cache_read ?? price.input) +
      u.cacheWrite * (price.cache_write ?? price.input)) /
    1_000_000
  );
}

/** `tokens: 1,200 in · 300 out · 1,000 cached · $0.0081`; cost only with a price. */
export function usageLine(turn: Usage, price: Price | undefined): string {
  const parts = [`tokens: ${count(turn.input)} in`, `${count(turn.output)} out`];
  if (turn.cacheRead > 0) parts.push(`${count(turn.cacheRead)} cache read`);
  if (turn.cacheWrite > 0) parts.push(`${count(turn.cacheWrite)} cache write`);
  if (price) parts.push(`$${cost(turn, price).toFixed(4)}`);
  return parts.join(" · ");
}
