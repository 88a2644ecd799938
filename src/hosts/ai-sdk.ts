/**
 * Vercel AI SDK (`ai`) tools. `execute` returns the text the model reads.
 * A failed call throws an Error whose message is that sentence: the SDK
 * turns a throw into a `tool-error` part and sends its message to the model
 * as an error result, so the model sees the same words every host shows,
 * and code still finds the ToolError as the error's `cause`.
 *
 * Validation is splice's, not the SDK's: the schema is published without a
 * validator, so a bad call reaches `execute` and is answered by parseArgs'
 * sentence with a valid example. (Unknown tools and unparsable JSON never
 * reach a tool; the SDK answers those itself.)
 */
import { type JSONSchema7, jsonSchema, type Tool as SdkTool, tool } from "ai";
import type { ImageContent, Tool, Toolkit } from "../toolkit/index.js";
import { dispatch } from "./dispatch.js";
import { toolJsonSchema } from "./json-schema.js";

export interface AiSdkToolOptions {
  /**
   * Pass each tool's `needsApproval` to the SDK, which then stops before
   * edits, writes, rollbacks and runs and asks for an approval (default false:
   * the host approves, as with the other adapters).
   */
  approvals?: boolean;
}

/** What `execute` returns for a result with images: the text, and the images for toModelOutput. */
export interface AiSdkMediaOutput {
  text: string;
  images: ImageContent[];
}

/** `execute` returns the text the model reads, or the text and its images. */
export type AiSdkTool = SdkTool<unknown, string | AiSdkMediaOutput>;

type ToolResultOutput = Awaited<ReturnType<NonNullable<AiSdkTool["toModelOutput"]>>>;

/** The text as a text output; text and images as content parts (`image-data`). */
function modelOutput(output: string | AiSdkMediaOutput): ToolResultOutput {
  if (typeof output === "string") return { type: "text", value: output };
  return {
    type: "content",
    value: [
      { type: "text", text: output.text },
      ...output.images.map((image) => ({
        type: "image-data" as const,
        data: image.data,
        mediaType: image.mime_type,
      })),
    ],
  };
}

function aiSdkTool(toolkit: Toolkit, spliceTool: Tool, options: AiSdkToolOptions): AiSdkTool {
  return tool<unknown, string | AiSdkMediaOutput>({
    description: spliceTool.description,
    inputSchema: jsonSchema<unknown>(toolJsonSchema(spliceTool) as JSONSchema7),
    ...(options.approvals ? { needsApproval: spliceTool.needsApproval } : {}),
    execute: async (input) => {
      const reply = await dispatch(toolkit, { name: spliceTool.name, args: input });
      if (reply.isError) throw new Error(reply.text, { cause: reply.error });
      return reply.images.length > 0 ? { text: reply.text, images: reply.images } : reply.text;
    },
    toModelOutput: ({ output }) => modelOutput(output),
  });
}

/** Every tool of the toolkit, keyed by name: the `tools` of `generateText` / `streamText`. */
export function aiSdkTools(
  toolkit: Toolkit,
  options: AiSdkToolOptions = {},
): Record<string, AiSdkTool> {
  return Object.fromEntries(toolkit.tools.map((t) => [t.name, aiSdkTool(toolkit, t, options)]));
}
