/**
 * A fake Gemini API (POST /v1beta/models/M:generateContent,
 * :streamGenerateContent?alt=sse, :countTokens) that plays a ScriptedModel.
 * Gemini CLI talks to it through GOOGLE_GEMINI_BASE_URL. What the model
 * "sees" of a tool result is the functionResponse: see responseText.
 */
import { type FakeServer, sendEvents, sendJson, startFakeServer } from "./http.js";
import { answeredCount, type ScriptedModel, type Turn } from "./script.js";

type Part = Record<string, unknown>;
interface GenerateRequest {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
}
interface FunctionResponse {
  id?: string;
  name?: string;
  response?: unknown;
  parts?: Part[];
}

/**
 * The text of a functionResponse as the model reads it: a response that is
 * one string field (`{"output": "..."}`) is that string; anything else is
 * its JSON, so no shape can hide characters. Parts (text or inline data) add
 * their text or JSON.
 */
export function responseText(fr: FunctionResponse): string {
  const response = fr.response;
  let text: string;
  if (response && typeof response === "object" && !Array.isArray(response)) {
    const values = Object.values(response);
    text =
      values.length === 1 && typeof values[0] === "string" ? values[0] : JSON.stringify(response);
  } else text = response === undefined ? "" : JSON.stringify(response);
  for (const part of fr.parts ?? [])
    text += typeof part.text === "string" ? part.text : JSON.stringify(part);
  return text;
}

function candidate(turn: Turn): Part {
  const part =
    turn.kind === "call"
      ? { functionCall: { id: turn.id, name: turn.name, args: turn.args } }
      : { text: turn.text };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: "gemini-fake",
  };
}

export function startFakeGemini(model: ScriptedModel): Promise<FakeServer> {
  return startFakeServer((request, _url, res) => {
    const method = request.path.slice(request.path.lastIndexOf(":") + 1);
    if (request.method !== "POST" || !request.path.includes("/models/")) {
      return sendJson(res, 404, { error: { code: 404, message: `no ${request.path} here` } });
    }
    if (method === "countTokens") return sendJson(res, 200, { totalTokens: 100 });
    const body = (request.body ?? {}) as GenerateRequest;
    // Calls are matched to their results by order: a client may drop the id we gave the call.
    const calls: string[] = [];
    const results: FunctionResponse[] = [];
    for (const content of body.contents ?? []) {
      for (const part of content.parts ?? []) {
        const call = part.functionCall as { id?: string } | undefined;
        if (call) calls.push(call.id ?? "");
        const result = part.functionResponse as FunctionResponse | undefined;
        if (result) results.push(result);
      }
    }
    results.forEach((result, i) => {
      const id = result.id ?? calls[i] ?? "";
      model.record(id, responseText(result), result);
    });
    const ids = results.map((result, i) => result.id ?? calls[i] ?? "");
    const offered = (body.tools ?? []).flatMap((tool) =>
      (tool.functionDeclarations ?? []).flatMap((f) => (f.name ? [f.name] : [])),
    );
    const turn = model.next(answeredCount(ids), offered);
    if (method === "streamGenerateContent") sendEvents(res, [{ data: candidate(turn) }]);
    else if (method === "generateContent") sendJson(res, 200, candidate(turn));
    else sendJson(res, 404, { error: { code: 404, message: `no method ${method}` } });
  });
}
