import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createSplice, type Splice, type SpliceOptions } from "../../src/splice.js";

/** A real temporary project folder with helpers to plant and inspect files. */
export class Project {
  readonly root = mkdtempSync(join(tmpdir(), "splice-test-"));

  splice(options: Partial<SpliceOptions> = {}): Splice {
    // SPLICE_TEST_REMOTE=1: the same project as a remote root, reached through `sh -c`.
    if (process.env.SPLICE_TEST_REMOTE && !options.workspace) {
      return createSplice({
        root: `local:${this.root}`,
        remotes: { local: ["sh", "-c"] },
        ...options,
        history: {
          session: "test",
          dir: join(this.root, ".splice"),
          ...options.history,
        },
      });
    }
    return createSplice({ root: this.root, history: { session: "test" }, ...options });
  }

  write(rel: string, content: string | Uint8Array, mode?: number): string {
    const path = join(this.root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    if (mode !== undefined) chmodSync(path, mode);
    return path;
  }

  text(rel: string): string {
    return readFileSync(join(this.root, rel), "utf8");
  }

  bytes(rel: string): Buffer {
    return readFileSync(join(this.root, rel));
  }

  mode(rel: string): number {
    return statSync(join(this.root, rel)).mode & 0o777;
  }
}

/** The `error` a promise rejected with, failing the test when it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<{
  code: string;
  message: string;
  details: Record<string, unknown>;
}> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error("expected the call to fail, but it succeeded");
}

export const numbered = (n: number, prefix = "line") =>
  `${Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n")}\n`;
