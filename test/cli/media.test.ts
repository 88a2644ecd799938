/**
 * `splice read` of an image: the summary line for a person, the base64 in
 * --json, and iTerm2's inline-image sequence only on a terminal that draws it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inlineImages, showsInlineImages } from "../../src/cli/inline-image.js";
import { identify } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

describe("splice read of an image", () => {
  it("prints the summary line, and --json carries the base64", async () => {
    const p = new Project();
    const png = await sharp({ create: { width: 50, height: 40, channels: 3, background: "#00f" } })
      .png()
      .toBuffer();
    p.write("shot.png", png);
    const run = (args: string[]) =>
      spawnSync(BIN, ["read", "shot.png", ...args, "--root", p.root], {
        encoding: "utf8",
        env: { ...process.env, TERM_PROGRAM: "iTerm.app" },
      });
    const human = run([]);
    const { tag } = identify(png);
    expect(human.status).toBe(0);
    // Not a terminal: no escape sequence, even where TERM_PROGRAM names one that draws images.
    expect(human.stdout).toBe(`¶shot.png#${tag} image/png 50×40, ${png.length} bytes\n`);
    const json = JSON.parse(run(["--json"]).stdout);
    expect(json.results[0].images).toEqual([
      { type: "image", mime_type: "image/png", data: png.toString("base64") },
    ]);
  });

  it("draws images inline only on iTerm2 and WezTerm terminals", () => {
    expect(showsInlineImages({ isTTY: true }, { TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(showsInlineImages({ isTTY: true }, { TERM_PROGRAM: "Apple_Terminal" })).toBe(false);
    expect(showsInlineImages({ isTTY: false }, { TERM_PROGRAM: "WezTerm" })).toBe(false);
    const image = { type: "image" as const, mime_type: "image/png" as const, data: "AAAA" };
    expect(inlineImages([{ path: "a.png", content: "", warnings: [], images: [image] }])).toEqual([
      "\u001b]1337;File=inline=1;size=3;preserveAspectRatio=1:AAAA\u0007",
    ]);
  });
});
