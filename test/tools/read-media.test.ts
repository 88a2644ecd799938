/**
 * `read` of images, on real files sharp makes here: each type is shown as
 * image content with its one-line summary; a large one is downscaled to the
 * stated long edge; an animated GIF shows its first frame; a damaged image
 * and an unknown binary get coded errors.
 */
import { randomBytes } from "node:crypto";
import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, MAX_LONG_EDGE } from "../../src/media/image.js";
import { identify } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#c0392b" } });

/** Noise compresses badly: a real test of the byte cap. */
function noise(width: number, height: number) {
  const pixels = randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

async function readOne(p: Project, path: string) {
  const { results } = await p.splice().read({ targets: [{ path }] });
  return results[0]!;
}

describe("read of an image", () => {
  it.each([
    ["shot.png", "image/png", (s: Sharp) => s.png()],
    ["photo.jpg", "image/jpeg", (s: Sharp) => s.jpeg()],
    ["pic.webp", "image/webp", (s: Sharp) => s.webp()],
    ["still.gif", "image/gif", (s: Sharp) => s.gif()],
  ])("shows %s as %s image content with a summary line", async (name, mime, encode) => {
    const p = new Project();
    const bytes = await encode(solid(320, 200)).toBuffer();
    p.write(name, bytes);
    const r = await readOne(p, name);
    const { tag } = identify(bytes);
    expect(r.error).toBeUndefined();
    expect(r.file_hash).toBe(tag);
    expect(r.content).toBe(
      `¶${name}#${tag} ${mime} 320×200, ${bytes.length < 1024 ? `${bytes.length} bytes` : `${(bytes.length / 1024).toFixed(1)} KiB`}`,
    );
    // Small enough already: the file's own bytes are sent.
    expect(r.images).toEqual([{ type: "image", mime_type: mime, data: bytes.toString("base64") }]);
    expect(r.media).toEqual({ type: mime, width: 320, height: 200, bytes: bytes.length });
  });

  it("downscales a large image to the long-edge limit and reports the original size", async () => {
    const p = new Project();
    const bytes = await solid(4000, 3000).jpeg().toBuffer();
    p.write("big.jpg", bytes);
    const r = await readOne(p, "big.jpg");
    expect(r.content).toMatch(
      /^¶big\.jpg#[0-9A-F]{4} image\/jpeg 4000×3000, [\d.]+ KiB; shown downscaled to 1568×1176 \(image\/jpeg, [\d.]+ KiB\)$/,
    );
    const sent = Buffer.from(r.images![0]!.data, "base64");
    const meta = await sharp(sent).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", MAX_LONG_EDGE, 1176]);
  });

  it("re-encodes an image over the byte cap until it fits", async () => {
    const p = new Project();
    // 1500×1500 noise as PNG is about 6.4 MiB: inside the long edge, over the byte cap.
    const bytes = await noise(1500, 1500).png({ compressionLevel: 0 }).toBuffer();
    expect(bytes.length).toBeGreaterThan(MAX_IMAGE_BYTES);
    p.write("noise.png", bytes);
    const r = await readOne(p, "noise.png");
    const image = r.images![0]!;
    expect(image.mime_type).toBe("image/jpeg");
    expect(Buffer.from(image.data, "base64").length).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(r.content).toContain("image/png 1500×1500");
    expect(r.content).toContain("; shown re-encoded (image/jpeg,");
  });

  it("shows an animated GIF's first frame and says so", async () => {
    const p = new Project();
    const frames = await Promise.all(
      ["#ff0000", "#00ff00", "#0000ff"].map((background) =>
        sharp({ create: { width: 40, height: 30, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    p.write("anim.gif", gif);
    const r = await readOne(p, "anim.gif");
    expect(r.content).toMatch(
      /^¶anim\.gif#[0-9A-F]{4} image\/gif 40×30, [\d.]+ (bytes|KiB); animated \(3 frames\): the first frame is shown$/,
    );
    const first = Buffer.from(r.images![0]!.data, "base64");
    expect(r.images![0]!.mime_type).toBe("image/png");
    const { data } = await sharp(first).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });

  it("refuses a damaged image with a coded error and reads the other targets", async () => {
    const p = new Project();
    const bytes = await noise(200, 200).png().toBuffer();
    p.write("cut.png", bytes.subarray(0, Math.floor(bytes.length / 2)));
    p.write("a.txt", "fine\n");
    const { results } = await p
      .splice()
      .read({ targets: [{ path: "cut.png" }, { path: "a.txt" }] });
    expect(results[0]!.error?.code).toBe("corrupt");
    expect(results[0]!.error?.message).toMatch(
      /^cut\.png cannot be read: the image data is damaged or incomplete \(.+\)\. Check that the image is complete \(re-export or re-download it\); splice changed nothing\.$/,
    );
    expect(results[1]!.content).toContain("1| fine");
  });

  it("names the type of a binary file it does not show, and keeps the refusal for unknown bytes", async () => {
    const p = new Project();
    p.write("a.zip", Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));
    p.write("blob.bin", Buffer.from([1, 2, 0, 3]));
    const { results } = await p
      .splice()
      .read({ targets: [{ path: "a.zip" }, { path: "blob.bin" }] });
    expect(results[0]!.error).toEqual({
      code: "binary",
      message:
        "a.zip is a ZIP archive (application/zip), not a text file; splice shows images (PNG, JPEG, GIF, WebP), PDFs, notebooks and UTF-8 text.",
    });
    expect(results[1]!.error).toEqual({
      code: "binary",
      message:
        "blob.bin is not a text file (it contains a NUL byte at offset 2); splice reads and edits UTF-8 text only.",
    });
  });

  it("reads an SVG as text", async () => {
    const p = new Project();
    p.write("icon.svg", '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    const r = await readOne(p, "icon.svg");
    expect(r.content).toContain('1| <svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(r.images).toBeUndefined();
  });
});

describe("list and search around media files", () => {
  it("lists images with their type and size, PDFs and notebooks with their type", async () => {
    const p = new Project();
    p.write("img/shot.png", await solid(1280, 800).png().toBuffer());
    p.write("img/cut.jpg", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]));
    p.write("spec.pdf", "%PDF-1.7\n%binary\n");
    p.write("nb.ipynb", '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n');
    p.write("notes.txt", "plain\n");
    const s = p.splice();
    const flat = await s.list({ path: "img" });
    expect(flat.content).toBe("cut.jpg (image/jpeg, damaged)\nshot.png (image/png 1280×800)");
    expect(flat.entries.find((e) => e.path === "img/shot.png")).toMatchObject({
      type: "image/png",
      width: 1280,
      height: 800,
    });
    const tree = await s.list({ path: ".", depth: 2 });
    const png = p.bytes("img/shot.png").length;
    expect(tree.content).toBe(
      [
        "img/",
        "  cut.jpg (6 bytes, image/jpeg, damaged)",
        `  shot.png (${(png / 1024).toFixed(1)} KiB, image/png 1280×800)`,
        "nb.ipynb (66 bytes, notebook)",
        "notes.txt (6 bytes)",
        "spec.pdf (17 bytes, application/pdf)",
      ].join("\n"),
    );
  });

  it("search still skips images", async () => {
    const p = new Project();
    p.write("shot.png", await solid(64, 64).png().toBuffer());
    p.write("a.txt", "IHDR in text\n");
    const found = await p.splice().search({ pattern: "IHDR" });
    expect(found.content).toBe("a.txt:1: IHDR in text");
  });
});
