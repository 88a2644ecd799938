/** The history store: blobs, journal, seen versions per session, bounding. */
export { isSha, sha256Hex } from "./blobs.js";
export { History } from "./history.js";
export * from "./types.js";
