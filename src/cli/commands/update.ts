import { updateSkills } from "../../install/installer.js";
import type { CliArgs } from "../args.js";
import { installerDeps } from "../install-deps.js";
import type { CliIo } from "../io.js";

/** `skillwright update [NAME]... [--scope project|user] [--frozen]`: see `updateSkills`. */
export async function updateCommand(io: CliIo, args: CliArgs): Promise<number> {
  return updateSkills(installerDeps(io), args.positionals, { scope: args.scope, frozen: args.frozen });
}
