/**
 * The agent sends what a read shows as images to its model: an image file,
 * a PDF page with no text layer and a notebook's image output reach the
 * provider's request as Messages API image blocks after the tool_result's
 * text, and the terminal shows each file's summary line. The real built
 * `splice agent` against the fake provider.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { formatBytes } from "../../src/util/format.js";
import { identify } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";
import { scannedPdf } from "../helpers/scanned-pdf.js";
import { runAgent } from "./agent-process.js";
import { fakeProviders, resultText, textReply, toolResults } from "./fake-anthropic.js";

const fake = fakeProviders();

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe("splice agent sends images to its model", { timeout: 60_000 }, () => {
  it("sends a read's images as image blocks and shows each file's summary line", async () => {
    const p = new Project();
    const shot = await png(64, 40, "#3366cc");
    p.write("shot.png", shot);
    p.write("scan.pdf", await scannedPdf(["#cc3333"]));
    const figure = await png(30, 20, "#22aa44");
    const nb = {
      cells: [
        {
          cell_type: "code",
          execution_count: 1,
          id: "plot",
          metadata: {},
          outputs: [
            {
              data: { "image/png": figure.toString("base64"), "text/plain": ["<Figure>"] },
              metadata: {},
              output_type: "display_data",
            },
          ],
          source: ["plot()"],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    p.write("plot.ipynb", `${JSON.stringify(nb, null, 1)}\n`);
    const targets = ["shot.png", "scan.pdf", "plot.ipynb"].map((path) => ({ path }));
    const server = await fake([
      { kind: "reply", blocks: [{ tool: "read", input: { targets } }] },
      textReply("Seen."),
    ]);
    const { code, stdout } = await runAgent({ root: p.root, baseURL: server.url, args: ["look"] });
    expect(code).toBe(0);

    const [result] = toolResults(server.requests[1]!);
    const content = result!.content as Record<string, unknown>[];
    expect(content.map((b) => b.type)).toEqual(["text", "image", "image", "image"]);
    expect(resultText(result!)).toContain("[no text layer: drawn as image 1 of this read");
    const sources = content.slice(1).map((b) => b.source as Record<string, string>);
    expect(sources.map((s) => [s.type, s.media_type])).toEqual([
      ["base64", "image/png"],
      ["base64", "image/jpeg"],
      ["base64", "image/png"],
    ]);
    // A small image and a notebook's output are sent as their own bytes; the page as drawn.
    expect(sources[0]!.data).toBe(shot.toString("base64"));
    expect(sources[2]!.data).toBe(figure.toString("base64"));
    const page = await sharp(Buffer.from(sources[1]!.data!, "base64")).metadata();
    expect([page.format, page.width, page.height]).toEqual(["jpeg", 1212, 1568]);

    const tag = (name: string) => identify(p.bytes(name)).tag;
    expect(stdout).toContain(
      [
        "[ok] read shot.png, scan.pdf, plot.ipynb",
        `  ¶shot.png#${tag("shot.png")} image/png 64×40, ${shot.length} bytes [1 image sent to the model]`,
        `  ¶scan.pdf#${tag("scan.pdf")} application/pdf, 1 page(s), ${formatBytes(p.bytes("scan.pdf").length)} [1 image sent to the model]`,
        `  ¶plot.ipynb#${tag("plot.ipynb")} notebook, 1 cell [1 image sent to the model]`,
      ].join("\n"),
    );
    expect(stdout).not.toContain(shot.toString("base64").slice(0, 40));
  });
});
