/** The one content hash: history names blobs by it and a compare-and-swap compares by it. */
import { createHash } from "node:crypto";

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}
