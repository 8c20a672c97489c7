import { addSkills } from "../../install/installer.js";
import type { CliArgs } from "../args.js";
import { installerDeps } from "../install-deps.js";
import type { CliIo } from "../io.js";
import { usageLines } from "../usage.js";

/** `skillwright add <source> [--skill NAME]... [--scope project|user] [--frozen]`: see `addSkills`. */
export async function addCommand(io: CliIo, args: CliArgs): Promise<number> {
  const [source, ...rest] = args.positionals;
  if (source === undefined || rest.length > 0) {
    io.stderr(usageLines("add"));
    return 2;
  }
  return addSkills(installerDeps(io), source, { scope: args.scope, frozen: args.frozen, skills: args.skill });
}
