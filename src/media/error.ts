/** A file of a known type that its library could not read; the read tool turns it into a ToolError. */
export class MediaError extends Error {
  constructor(
    /** Why, in words for the model: "the image data is damaged (VipsJpeg: Premature end of JPEG file)". */
    readonly reason: string,
    /** "corrupt" for damaged bytes; "needs_addon" when the library is not installed. */
    readonly kind: "corrupt" | "needs_addon" = "corrupt",
  ) {
    super(reason);
    this.name = "MediaError";
  }
}

/** The first line of a library's error, for a reason sentence. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0]!.trim();
}
