import type { CliArgs } from "../args.js";
import type { CliIo } from "../io.js";
import { startScriptedModel } from "../scripted-model.js";
import { usageLines } from "../usage.js";

/**
 * `skillwright dev model-server --script turns.json [--port N]`: serves the scripted Messages API until the
 * process is stopped, printing the URL to point `ANTHROPIC_BASE_URL` at. Exit 2 on bad usage or script.
 */
export async function devCommand(io: CliIo, args: CliArgs): Promise<number> {
  const [sub] = args.positionals;
  if (sub !== "model-server" || args.script === undefined) {
    io.stderr(usageLines("dev"));
    return 2;
  }
  const server = await startScriptedModel(io, args.script, args.port);
  if (server === undefined) return 2;
  io.stdout(
    `model server listening on ${server.url}\nexport ANTHROPIC_BASE_URL=${server.url} ANTHROPIC_API_KEY=test\n`,
  );
  await (io.waitForStop?.() ?? new Promise<void>(() => {}));
  await server.close();
  io.stdout(`served ${server.requests.length} request(s)\n`);
  return 0;
}
