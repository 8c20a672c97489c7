import { checkSkills } from "../../install/installer.js";
import type { CliArgs } from "../args.js";
import { installerDeps } from "../install-deps.js";
import type { CliIo } from "../io.js";

/** `skillwright check [NAME]... [--scope project|user] [--frozen]`: see `checkSkills`. */
export async function checkCommand(io: CliIo, args: CliArgs): Promise<number> {
  return checkSkills(installerDeps(io), args.positionals, { scope: args.scope, frozen: args.frozen });
}
