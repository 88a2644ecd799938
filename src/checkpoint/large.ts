/**
 * Where the before version of a file over the copy limit can come from
 * without copying it: git's object store, for a file tracked and unchanged
 * against the index (its blob is there already), read back with
 * `git cat-file blob`. Copy-on-write clones are probed once per folder and
 * said to be missing where the file system refuses them (ext4, tmpfs).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { constants, copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomId } from "../util/ids.js";

/** Git's id of a blob holding `bytes` (SHA-1 of "blob <size>\0" and the bytes). */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** git in `cwd`, never taking the index lock (a command may be using the repository). */
function git(cwd: string, args: string[], maxBuffer = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { cwd, encoding: "buffer", maxBuffer, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

const records = (out: Buffer) => out.toString("utf8").split("\0").filter(Boolean);

/**
 * Of `rels` (relative to `root`), those git tracks with the working file
 * unchanged against the index, each with its blob id. Empty when `root` is
 * not in a git work tree or git is missing: those files stay uncaptured.
 */
export async function trackedUnchanged(
  root: string,
  rels: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rels.length === 0) return out;
  const paths = ["--", ...rels.map((rel) => `:(literal)${rel}`)];
  try {
    const staged = records(await git(root, ["ls-files", "-s", "-z", ...paths]));
    for (const line of staged) {
      // "<mode> <id> <stage>\t<path>"; a conflicted file (stage ≠ 0) is not unchanged.
      const match = /^\d+ ([0-9a-f]{40,64}) 0\t(.*)$/s.exec(line);
      if (match) out.set(match[2]!, match[1]!);
    }
    if (out.size === 0) return out;
    // diff-files compares by stat first and hashes only files whose stat changed.
    const dirty = records(await git(root, ["diff-files", "--name-only", "-z", ...paths]));
    for (const rel of dirty) out.delete(rel);
  } catch {
    out.clear();
  }
  return out;
}

/** The bytes of git blob `id`, or undefined when git no longer has it. */
export async function readGitBlob(root: string, id: string): Promise<Buffer | undefined> {
  try {
    return await git(root, ["cat-file", "blob", id], 4 * 1024 * 1024 * 1024);
  } catch {
    return undefined;
  }
}

const clones = new Map<string, boolean>();

/** Whether `dir`'s file system makes copy-on-write clones; probed once per folder. */
export function reflinksWork(dir: string): boolean {
  const known = clones.get(dir);
  if (known !== undefined) return known;
  const from = join(dir, `.tmp-clone-probe-${randomId(4)}`);
  let works = false;
  try {
    writeFileSync(from, "probe");
    copyFileSync(from, `${from}-copy`, constants.COPYFILE_FICLONE_FORCE);
    works = true;
  } catch {
    // EOPNOTSUPP / EXDEV / ENOSYS: no clones here.
  } finally {
    rmSync(from, { force: true });
    rmSync(`${from}-copy`, { force: true });
  }
  clones.set(dir, works);
  return works;
}
