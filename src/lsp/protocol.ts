/**
 * The fixed parts of speaking LSP as splice: what it tells a server it can
 * do, how it answers the server's own requests, the errors a wait can end
 * with, and one spelling of a file's URI.
 */
import { basename } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Registration, Unregistration } from "vscode-languageserver-protocol";

export const SERVER_CANCELLED = -32802;
export const CONTENT_MODIFIED = -32801;
export const METHOD_NOT_FOUND = -32601;

/** The server did not answer before the deadline. */
export class LspTimeout extends Error {
  constructor(what: string) {
    super(`${what} timed out`);
    this.name = "LspTimeout";
  }
}

/** The server process is gone. */
export class LspExited extends Error {
  constructor(detail: string) {
    super(`the language server exited${detail ? ` (${detail})` : ""}`);
    this.name = "LspExited";
  }
}

export const fileUri = (path: string) => pathToFileURL(path).href;

/** One spelling per file, whatever escaping the server chose. */
export function normalizeUri(uri: string): string {
  try {
    return fileUri(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

/** Pull and push diagnostics, dynamic registration (pyright registers pull late) and progress. */
export function initializeParams(root: string, initializationOptions: unknown) {
  const uri = fileUri(root);
  return {
    processId: process.pid,
    clientInfo: { name: "splice" },
    rootUri: uri,
    rootPath: root,
    workspaceFolders: [{ uri, name: basename(root) }],
    capabilities: {
      general: { positionEncodings: ["utf-16"] },
      window: { workDoneProgress: true },
      workspace: {
        configuration: true,
        workspaceFolders: true,
        didChangeConfiguration: { dynamicRegistration: true },
      },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        publishDiagnostics: { versionSupport: true },
        diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
      },
    },
    initializationOptions: initializationOptions ?? null,
  };
}

export interface AnswerContext {
  root: string;
  /** Answers to `workspace/configuration`, by dotted section. */
  settings?: Record<string, unknown>;
  /** Pull registrations: id -> identifier. */
  pullRegistrations: Map<string, string | undefined>;
}

function setting(settings: Record<string, unknown> | undefined, section?: string): unknown {
  if (!settings || !section) return null;
  let value: unknown = settings;
  for (const part of section.split(".")) {
    if (typeof value !== "object" || value === null) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}

/** The answer to a request the server sends, so it never waits on splice. */
export function answerServer(method: string, params: unknown, context: AnswerContext): unknown {
  switch (method) {
    case "workspace/configuration": {
      const items = (params as { items?: { section?: string }[] }).items ?? [];
      return items.map((item) => setting(context.settings, item.section));
    }
    case "client/registerCapability":
      for (const r of (params as { registrations: Registration[] }).registrations) {
        if (r.method === "textDocument/diagnostic") {
          const options = r.registerOptions as { identifier?: string } | undefined;
          context.pullRegistrations.set(r.id, options?.identifier);
        }
      }
      return null;
    case "client/unregisterCapability": {
      // The protocol spells the field "unregisterations".
      const list = (params as { unregisterations?: Unregistration[] }).unregisterations ?? [];
      for (const u of list) context.pullRegistrations.delete(u.id);
      return null;
    }
    case "workspace/workspaceFolders":
      return [{ uri: fileUri(context.root), name: basename(context.root) }];
    case "workspace/applyEdit":
      return { applied: false, failureReason: "splice does not apply server edits" };
    default:
      // window/workDoneProgress/create, */refresh, showMessageRequest: nothing to do.
      return null;
  }
}
