/**
 * Outside writers racing edits, shared by the test and
 * `npm run bench -- reliability-confine`: a child process writes the file in
 * place (as an editor or `echo >` does) at a random moment while the toolkit
 * edits it. Afterwards the outside version must be on disk, or kept in
 * history with the edit's result naming its tag.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { identify } from "../../src/util/hash.js";
import type { Workspace } from "../../src/workspace/workspace.js";
import { Project } from "../helpers/project.js";

const WRITER = `
process.on("message", ({ path, text, delayUs }) => {
  const until = process.hrtime.bigint() + BigInt(delayUs) * 1000n;
  while (process.hrtime.bigint() < until) {}
  require("node:fs").writeFileSync(path, text);
  process.send("done");
});
`;

export interface OutsideTally {
  rounds: number;
  /** The outside version is what the file holds now (the edit was refused, or landed before it). */
  survived: number;
  /** The edit replaced the outside version, kept it in history and named it. */
  recovered: number;
  /**
   * The outside program wrote into the replaced file just after the edit's
   * last look, when its result had gone: kept in history and told as an
   * outside change all the same.
   */
  recoveredLate: number;
  /** Edits refused as stale because the outside write came first. */
  refused: number;
  /** Edits that landed before the outside write. */
  landedFirst: number;
  lost: string[];
}

/** Whether `path` exists within `ms` (the late look after a write runs in the background). */
async function appears(path: string, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (existsSync(path)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return existsSync(path);
}

export async function raceOutsideWriter({
  rounds,
  maxDelayUs,
  workspace,
}: {
  rounds: number;
  maxDelayUs: number;
  /** The disk to edit through (a baseline's); default: the toolkit's own LocalWorkspace. */
  workspace?: (root: string) => Workspace;
}): Promise<OutsideTally> {
  const p = new Project();
  const path = join(p.root, "a.txt");
  const splice = p.splice({ lsp: false, ...(workspace ? { workspace: workspace(p.root) } : {}) });
  const child = spawn(process.execPath, ["-e", WRITER], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const tally: OutsideTally = {
    rounds,
    survived: 0,
    recovered: 0,
    recoveredLate: 0,
    refused: 0,
    landedFirst: 0,
    lost: [],
  };
  try {
    for (let i = 0; i < rounds; i++) {
      writeFileSync(path, "keep me\nbase\n");
      const outside = `keep me\noutside ${i}\n`;
      const wrote = new Promise<void>((resolve) => child.once("message", () => resolve()));
      child.send({ path, text: outside, delayUs: Math.floor(Math.random() * maxDelayUs) });
      const edit = splice
        .call("edit", {
          targets: [{ path: "a.txt", edits: [{ old_text: "keep me", new_text: `kept ${i}` }] }],
        })
        .then(
          (result) => ({ result, error: undefined }),
          (error: unknown) => ({ result: undefined, error }),
        );
      const [{ result, error }] = await Promise.all([edit, wrote]);
      const now = readFileSync(path, "utf8");
      const { tag, sha } = identify(Buffer.from(outside));
      const blob = join(p.root, ".splice", "blobs", sha.slice(0, 2), sha.slice(2));
      if (now === outside || now === `kept ${i}\noutside ${i}\n`) {
        // On disk as it was written, or merged into the edit's result.
        tally.survived++;
        if (error) tally.refused++;
        else if (now === outside) tally.landedFirst++;
      } else if (result && JSON.stringify(result).includes(`tag ${tag}`) && existsSync(blob)) {
        tally.recovered++;
      } else if (result && (await appears(blob, 1000))) {
        tally.recoveredLate++;
      } else {
        tally.lost.push(
          `round ${i}: disk ${JSON.stringify(now)}, ${error ? String(error) : JSON.stringify(result)}`,
        );
      }
    }
  } finally {
    child.kill();
  }
  return tally;
}
