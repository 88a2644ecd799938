/**
 * An image made ready for a model: decoded and checked by sharp (libvips,
 * prebuilt for Linux, macOS and Windows), cut down to what every provider
 * accepts, and encoded as base64. The limits are docs/media.md's:
 * Anthropic recommends a long edge of at most 1568 px (larger images are
 * scaled down on their side, costing time and nothing else) and refuses an
 * image whose base64 passes 5 MiB; OpenAI takes up to 20 MB and tiles
 * high-detail images at 2048/768 px, so 1568 px loses nothing there either.
 */
import type { Sharp } from "sharp";
import { firstLine, MediaError } from "./error.js";
import type { ImageMime } from "./kind.js";

/** The longest edge sent, in pixels. */
export const MAX_LONG_EDGE = 1568;
/** The most bytes sent per image: 5 MiB of base64 (Anthropic's limit) is 3.75 MiB of bytes. */
export const MAX_IMAGE_BYTES = (5 * 1024 * 1024 * 3) / 4;

/**
 * An image a tool result carries to the model, under the result's `images`:
 * each host sends it as its own image content (toolkit/render-result.ts).
 */
export interface ImageContent {
  type: "image";
  mime_type: ImageMime;
  /** The bytes, base64. */
  data: string;
}

export interface PreparedImage {
  /** The type of the bytes sent (an animated GIF's first frame is sent as PNG). */
  mime: ImageMime;
  /** The bytes sent, base64. */
  data: string;
  /** Bytes sent. */
  bytes: number;
  width: number;
  height: number;
  /** The file's own size, when it was cut down (downscaled, re-encoded, or a first frame). */
  original?: { width: number; height: number };
  /** Frames in the file, when it is animated (only the first is sent). */
  frames?: number;
}

export interface ImageInfo {
  width: number;
  height: number;
  frames?: number;
}

type SharpFactory = typeof import("sharp").default;

let loaded: Promise<SharpFactory> | undefined;
/** sharp loads its native library on first use, not when splice starts. */
const sharpOf = (): Promise<SharpFactory> => (loaded ??= import("sharp").then((m) => m.default));

const corrupt = (error: unknown): MediaError =>
  new MediaError(`the image data is damaged or incomplete (${firstLine(error)})`);

async function inspect(
  sharp: SharpFactory,
  bytes: Uint8Array,
): Promise<ImageInfo & { upright: boolean }> {
  try {
    const meta = await sharp(bytes).metadata();
    const orientation = meta.orientation ?? 1;
    const turned = orientation >= 5;
    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    const frames = (meta.pages ?? 1) > 1 ? meta.pages : undefined;
    return {
      width: turned ? height : width,
      height: turned ? width : height,
      upright: orientation === 1,
      ...(frames ? { frames } : {}),
    };
  } catch (error) {
    throw corrupt(error);
  }
}

/** Width and height (after EXIF rotation) from the header alone: what `list` shows. */
export async function imageInfo(bytes: Uint8Array): Promise<ImageInfo> {
  const { upright: _, ...info } = await inspect(await sharpOf(), bytes);
  return info;
}

const encoders: Record<ImageMime, (s: Sharp) => Sharp> = {
  "image/png": (s) => s.png(),
  "image/jpeg": (s) => s.jpeg({ quality: 85 }),
  "image/webp": (s) => s.webp({ quality: 85 }),
  // A GIF's first frame is sent as PNG: lossless, and a GIF encoder would re-quantize it.
  "image/gif": (s) => s.png(),
};

/** An image as encoded for sending, before its file's own facts are added. */
type Encoded = Omit<PreparedImage, "original" | "frames">;

/**
 * `source()` (a fresh pipeline each try) resized to MAX_LONG_EDGE and
 * encoded as `mime`; past MAX_IMAGE_BYTES, as JPEG, halving the edge until
 * it fits.
 */
async function fitted(source: () => Sharp, mime: ImageMime): Promise<Encoded> {
  let edge = MAX_LONG_EDGE;
  let outMime = mime;
  for (;;) {
    const pipeline = source().resize({
      width: edge,
      height: edge,
      fit: "inside",
      withoutEnlargement: true,
    });
    const out = await encoders[outMime](pipeline).toBuffer({ resolveWithObject: true });
    if (out.data.length <= MAX_IMAGE_BYTES || edge < 64) {
      return {
        mime: outMime,
        data: out.data.toString("base64"),
        bytes: out.data.length,
        width: out.info.width,
        height: out.info.height,
      };
    }
    if (outMime !== "image/jpeg") outMime = "image/jpeg";
    else edge = Math.floor(edge / 2);
  }
}

/**
 * The image as sent: the file's own bytes when they already fit (decoded
 * once to prove they are whole), else resized and re-encoded by `fitted`.
 */
export async function prepareImage(bytes: Uint8Array, mime: ImageMime): Promise<PreparedImage> {
  const sharp = await sharpOf();
  const info = await inspect(sharp, bytes);
  const fits =
    Math.max(info.width, info.height) <= MAX_LONG_EDGE && bytes.length <= MAX_IMAGE_BYTES;
  try {
    if (fits && info.upright && !info.frames) {
      await sharp(bytes).raw().toBuffer();
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return {
        mime,
        data: data.toString("base64"),
        bytes: bytes.length,
        width: info.width,
        height: info.height,
      };
    }
    const outMime: ImageMime = mime === "image/gif" ? "image/png" : mime;
    const image = await fitted(() => sharp(bytes).rotate(), outMime);
    return {
      ...image,
      original: { width: info.width, height: info.height },
      ...(info.frames ? { frames: info.frames } : {}),
    };
  } catch (error) {
    throw corrupt(error);
  }
}

/**
 * Rendered RGBA pixels (a PDF page) as sent, through the same limits as an
 * image file: flattened onto white and encoded as JPEG, since a scanned page
 * is a photograph and a read of several pages as PNG could pass a request's
 * size limit.
 */
export async function preparePixels(
  pixels: Uint8Array,
  width: number,
  height: number,
): Promise<PreparedImage> {
  const sharp = await sharpOf();
  const raw = { width, height, channels: 4 } as const;
  return fitted(() => sharp(pixels, { raw }).flatten({ background: "#ffffff" }), "image/jpeg");
}
