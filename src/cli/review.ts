/**
 * `splice review`: the review page on its own server until Ctrl-C. `--open` hands the address to $BROWSER or the system's opener.
 */
import { spawn } from "node:child_process";
import { serveReview } from "../review/server.js";

interface Flags {
  open?: boolean;
  port?: string;
  host?: string;
}

const say = (line: string) => process.stderr.write(`splice review: ${line}\n`);

/** The command that opens a URL here: $BROWSER first, as other tools read it. */
function opener(): string[] {
  const browser = process.env.BROWSER?.trim();
  if (browser) return [browser];
  if (process.platform === "darwin") return ["open"];
  if (process.platform === "win32") return ["cmd", "/c", "start", ""];
  return ["xdg-open"];
}

/** Starts the opener and leaves it be; failing to open is a notice, the page still runs. */
function open(url: string): void {
  const [command, ...args] = opener() as [string, ...string[]];
  const child = spawn(command, [...args, url], { stdio: "ignore", detached: true });
  child.once("error", (error) => {
    say(`could not start ${command} (${error.message}); open the address above yourself.`);
  });
  child.unref();
}

export async function reviewCommand(root: string, flags: Flags): Promise<number> {
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    say("--port needs a port number, e.g. --port 4100 (0 picks a free one).");
    return 2;
  }
  let server: Awaited<ReturnType<typeof serveReview>>;
  try {
    server = await serveReview({ root, port, host: flags.host ?? "127.0.0.1" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    say(
      `cannot listen on ${flags.host ?? "127.0.0.1"}:${port} (${code}); pick another --port or --host.`,
    );
    return 1;
  }
  process.stdout.write(`${server.url}\n`);
  say("serving the review page; Ctrl-C stops it.");
  if (flags.open) open(server.url);
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  say(`${signal}: stopping`);
  await server.close();
  return 0;
}
