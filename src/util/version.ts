/**
 * splice's version, from its package.json. This module sits one folder below
 * dist/ both as built (dist/util/) and bundled (dist/cli-bundle/), so one
 * relative path finds the file from either.
 */
import { readFileSync } from "node:fs";

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;
