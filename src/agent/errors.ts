/**
 * Provider failures as one line a person can act on, and whether (and when)
 * to try again. splice does its own retrying instead of the SDK's so that
 * every wait is announced, honours `retry-after`, and stops on Ctrl-C.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "@anthropic-ai/sdk";

/** Retries of one request before the error is shown. */
export const MAX_RETRIES = 4;
/** A provider asking for a longer wait than this gets no automatic retry. */
export const MAX_RETRY_WAIT_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
]);
const BACKOFF_CAP_MS = 16_000;

export interface ProblemContext {
  baseURL: string;
  model: string;
  /** Where the key lives, e.g. `$ANTHROPIC_API_KEY`. */
  keyHome: string;
}

export interface ProviderProblem {
  /** Short name for retry notices, e.g. "rate limited (429)". */
  label: string;
  /** The whole story in one line: what happened and what to do. */
  line: string;
  /** Whether the same request may succeed later. */
  retryable: boolean;
  /** The wait the provider asked for, if it named one. */
  retryAfterMs?: number;
}

export const isAbort = (error: unknown): boolean =>
  error instanceof APIUserAbortError ||
  (error instanceof Error && (error.name === "AbortError" || error.name === "APIUserAbortError"));

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000))} s`;

/** The provider's own message, on one short line. */
function detail(error: APIError): string {
  const message = (error.apiMessage ?? error.message ?? "").replace(/\s+/g, " ").trim();
  return message.length > 160 ? `${message.slice(0, 160)}…` : message;
}

function statusPart(error: APIError, fallback: number): string {
  const status = error.status ?? fallback;
  return error.type ? `${status} ${error.type}` : String(status);
}

type Kind =
  | "auth"
  | "billing"
  | "permission"
  | "not_found"
  | "too_large"
  | "rate_limit"
  | "overloaded"
  | "server"
  | "bad_request"
  | "other";

function kindOf(error: APIError): Kind {
  switch (error.type) {
    case "authentication_error":
      return "auth";
    case "billing_error":
      return "billing";
    case "permission_error":
      return "permission";
    case "not_found_error":
      return "not_found";
    case "rate_limit_error":
      return "rate_limit";
    case "overloaded_error":
      return "overloaded";
    case "api_error":
    case "timeout_error":
      return "server";
  }
  const s = error.status;
  if (s === 401) return "auth";
  if (s === 402) return "billing";
  if (s === 403) return "permission";
  if (s === 404) return "not_found";
  if (s === 413) return "too_large";
  if (s === 429) return "rate_limit";
  if (s === 529) return "overloaded";
  if (s === 408 || (s !== undefined && s >= 500)) return "server";
  if (s === 400 || s === 422) return "bad_request";
  return "other";
}

/** The system's error code (ECONNREFUSED, …), else the innermost message. */
function networkCause(error: Error): string {
  let message = error.message;
  let cause: unknown = error.cause;
  for (let i = 0; i < 5 && cause instanceof Error; i++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return code;
    message = cause.message || message;
    cause = cause.cause;
  }
  return message.replace(/\s+/g, " ").trim() || "no answer";
}

/** What went wrong with a request, for a person; never contains the key. */
export function describeProviderError(error: unknown, ctx: ProblemContext): ProviderProblem {
  if (error instanceof APIConnectionTimeoutError) {
    return {
      label: "timed out",
      line: `${ctx.baseURL} did not answer in time. Check your network, then send your message again.`,
      retryable: true,
    };
  }
  if (error instanceof APIConnectionError || (error instanceof TypeError && !isAbort(error))) {
    const cause = networkCause(error as Error);
    return {
      label: `network error (${cause})`,
      line: `cannot reach ${ctx.baseURL} (${cause}). Check your network connection and the base URL (--base-url), then send your message again.`,
      // No route, no name, nobody listening: waiting will not help, the person must act.
      retryable: !UNREACHABLE.has(cause),
    };
  }
  if (!(error instanceof APIError)) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      label: "error",
      line: `the request failed: ${message.split("\n", 1)[0]}`,
      retryable: false,
    };
  }
  return describeApiError(error, ctx);
}

/** An error the provider answered with: what it says, and whether waiting helps. */
function describeApiError(error: APIError, ctx: ProblemContext): ProviderProblem {
  const kind = kindOf(error);
  const shouldRetry = error.headers?.get("x-should-retry");
  const after = retryAfter(error.headers);
  const retryable =
    shouldRetry === "true" ||
    (shouldRetry !== "false" &&
      (kind === "rate_limit" || kind === "overloaded" || kind === "server"));
  const base = { retryable, ...(after === undefined ? {} : { retryAfterMs: after }) };
  return { ...base, ...explainApiError(error, kind, ctx, after) };
}

/** The label and the sentence for each kind of provider error. */
function explainApiError(
  error: APIError,
  kind: Kind,
  ctx: ProblemContext,
  after: number | undefined,
): Pick<ProviderProblem, "label" | "line"> {
  const says = detail(error);
  const why = says ? `: ${says}` : "";
  switch (kind) {
    case "auth":
      return {
        label: "bad key (401)",
        line: `the provider refused the API key (${statusPart(error, 401)}${why}). Check ${ctx.keyHome}; it is read again on every request, so fix it and send your message again.`,
      };
    case "billing":
      return {
        label: "billing (402)",
        line: `the provider refused for billing reasons (${statusPart(error, 402)}${why}). Check the account's credit or plan, then send your message again.`,
      };
    case "permission":
      return {
        label: "not allowed (403)",
        line: `the key may not do this (${statusPart(error, 403)}${why}). Check that the key may use model "${ctx.model}".`,
      };
    case "not_found":
      return {
        label: "not found (404)",
        line: `the provider does not know this model or address (${statusPart(error, 404)}${why}). Check --model (now "${ctx.model}") and --base-url (now ${ctx.baseURL}).`,
      };
    case "too_large":
      return {
        label: "too large (413)",
        line: `the conversation is too large for the provider (${statusPart(error, 413)}${why}). Start a new conversation (without --continue).`,
      };
    case "rate_limit":
      return {
        label: "rate limited (429)",
        line: `rate limited by the provider (${statusPart(error, 429)}${why})${after === undefined ? "" : `; it asks to wait ${seconds(after)}`}. Wait, then send your message again.`,
      };
    case "overloaded":
      return {
        label: "overloaded (529)",
        line: `the provider is overloaded (${statusPart(error, 529)}${why}). Wait a minute and send your message again, or choose another --model.`,
      };
    case "server":
      return {
        label: `provider error (${error.status ?? "stream"})`,
        line: `the provider failed (${statusPart(error, 500)}${why}). Send your message again; if it keeps failing, check the provider's status page.`,
      };
    case "bad_request":
      return {
        label: `rejected (${error.status ?? 400})`,
        line: /context|too long|too many tokens/i.test(says)
          ? `the conversation no longer fits the model (${statusPart(error, 400)}${why}). Start a new conversation (without --continue).`
          : `the provider rejected the request (${statusPart(error, 400)}${why}). If the provider is not Anthropic, check that it supports tool use; otherwise start a new conversation.`,
      };
    default:
      return {
        label: `error (${error.status ?? "stream"})`,
        line: `the provider returned an error (${statusPart(error, 0)}${why}).`,
      };
  }
}

/**
 * How long to wait before retry number `attempt` (0-based), or undefined when
 * not to retry: the error is final, retries are used up, or the provider asks
 * for a longer wait than a person should sit through.
 */
export function retryDelay(problem: ProviderProblem, attempt: number): number | undefined {
  if (!problem.retryable || attempt >= MAX_RETRIES) return undefined;
  if (problem.retryAfterMs !== undefined && problem.retryAfterMs > 0) {
    return problem.retryAfterMs <= MAX_RETRY_WAIT_MS ? problem.retryAfterMs : undefined;
  }
  const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(backoff * (0.75 + Math.random() * 0.25));
}
