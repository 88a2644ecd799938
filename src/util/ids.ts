/**
 * Random hex for ids and temp names. Drawn from randomUUID, which node serves
 * from a cached pool of secure random bytes: about ten times cheaper than a
 * randomBytes call, and an edit makes several.
 */
import { randomUUID } from "node:crypto";

/** The 30 random hex digits of a v4 UUID (its version and variant digits dropped). */
function uuidHex(): string {
  const u = randomUUID();
  return u.slice(0, 8) + u.slice(9, 13) + u.slice(15, 18) + u.slice(20, 23) + u.slice(24);
}

/** `bytes` random bytes as hex (2 digits each). */
export function randomId(bytes = 8): string {
  let hex = uuidHex();
  while (hex.length < bytes * 2) hex += uuidHex();
  return hex.slice(0, bytes * 2);
}

/** A backup session id: sortable by time, unique across processes. */
export function newBackupId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomId(3)}`;
}

/** A batch's id in the journal (history/batches.ts). */
export function newBatchId(): string {
  return randomId(8);
}
