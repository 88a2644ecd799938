import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { History } from "../../src/history/history.js";
import type { HistoryOptions } from "../../src/history/types.js";

const dirs: string[] = [];

/** A fresh temp directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "splice-history-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function openHistory(options: Partial<HistoryOptions> = {}): History {
  return History.open({ dir: join(tempDir(), ".splice"), session: "s1", ...options });
}

const encoder = new TextEncoder();
export const bytes = (text: string): Uint8Array => encoder.encode(text);

export function journalLines(dir: string): string[] {
  return readFileSync(join(dir, "journal.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

/** Every loose blob file as `sha -> path` (packs are not listed). */
export function blobFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const root = join(dir, "blobs");
  for (const fanout of readdirSync(root)) {
    if (fanout === "packs") continue;
    for (const rest of readdirSync(join(root, fanout))) {
      out.set(fanout + rest, join(root, fanout, rest));
    }
  }
  return out;
}

/** The pack files under blobs/packs/. */
export function packFiles(dir: string): string[] {
  const packs = join(dir, "blobs", "packs");
  if (!existsSync(packs)) return [];
  return readdirSync(packs)
    .filter((n) => n.endsWith(".pack"))
    .map((n) => join(packs, n));
}

/** Backdate every blob and pack so collection may treat it as old. */
export function ageBlobs(dir: string, ageMs = 3_600_000): void {
  const past = new Date(Date.now() - ageMs);
  for (const path of [...blobFiles(dir).values(), ...packFiles(dir)]) utimesSync(path, past, past);
}
