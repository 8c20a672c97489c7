import { removeSkills } from "../../install/installer.js";
import type { CliArgs } from "../args.js";
import { installerDeps } from "../install-deps.js";
import type { CliIo } from "../io.js";

/** `skillwright remove NAME... [--scope project|user]`: see `removeSkills`. */
export async function removeCommand(io: CliIo, args: CliArgs): Promise<number> {
  return removeSkills(installerDeps(io), args.positionals, { scope: args.scope });
}
