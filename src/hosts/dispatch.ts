/**
 * The step every model-SDK adapter shares: validate a call, run it, and turn
 * the outcome into the text the model reads. A bad call (unknown tool,
 * missing field, wrong type) is answered with a sentence, never thrown, so
 * one malformed call cannot end an agent's turn.
 */
import { isToolError, type ToolError } from "../errors.js";
import {
  type ImageContent,
  type ParsedCall,
  renderError,
  renderResult,
  resultImages,
  type Toolkit,
} from "../toolkit/index.js";

export interface ModelCall {
  name: string;
  /** The arguments as the model sent them, not yet validated. */
  args: unknown;
  /** Set when the host could not even read the arguments (e.g. invalid JSON), or they failed validation. */
  failure?: ToolError;
  /** The call validated (parsedCall): the steps after take it as it is. */
  checked?: ParsedCall;
}

/** The call with its arguments validated once, or with the reason they are not valid as its failure. */
export function parsedCall(toolkit: Toolkit, call: ModelCall): ModelCall {
  if (call.failure || call.checked) return call;
  try {
    return { ...call, checked: toolkit.parse(call.name, call.args) };
  } catch (error) {
    if (!isToolError(error)) throw error;
    return { ...call, failure: error };
  }
}

export interface ModelReply {
  /** What the model reads. */
  text: string;
  /** What the model sees beside the text (a read of an image); each host sends its own image content. */
  images: ImageContent[];
  isError: boolean;
  /** The result (when it succeeded) for code that wants more than the text. */
  result?: unknown;
  /** What was thrown (when it failed): a ToolError for bad calls and tool failures. */
  error?: unknown;
}

export async function dispatch(toolkit: Toolkit, call: ModelCall): Promise<ModelReply> {
  try {
    if (call.failure) throw call.failure;
    const result = await (call.checked
      ? toolkit.run(call.checked)
      : toolkit.call(call.name, call.args));
    const images = resultImages(result);
    return { text: renderResult(call.name, result), images, isError: false, result };
  } catch (error) {
    return { text: renderError(call.name, error), images: [], isError: true, error };
  }
}

/**
 * Runs the calls of one model reply: calls whose footprints do not overlap
 * run side by side, the rest in the order the model gave them. Replies come
 * back in that order too.
 */
export async function dispatchAll(toolkit: Toolkit, given: ModelCall[]): Promise<ModelReply[]> {
  const calls = given.map((call) => parsedCall(toolkit, call));
  const replies: ModelReply[] = new Array(calls.length);
  for (const wave of toolkit.schedule(calls.map((call) => call.checked ?? call))) {
    await Promise.all(
      wave.map(async (i) => {
        replies[i] = await dispatch(toolkit, calls[i]!);
      }),
    );
  }
  return replies;
}
