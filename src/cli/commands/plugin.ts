import { isatty } from "node:tty";
import {
  addMarketplace,
  listMarketplaces,
  removeMarketplace,
  updateMarketplaces,
} from "../../install/marketplaces.js";
import {
  installPlugin,
  type PluginInstallerDeps,
  uninstallPlugins,
  updatePlugins,
} from "../../install/plugin-installer.js";
import type { CliArgs } from "../args.js";
import { installerDeps } from "../install-deps.js";
import type { CliIo } from "../io.js";
import { usageLines } from "../usage.js";

/** A yes/no question on the terminal; undefined when stdin is not one (install and update never prompt then). */
function terminalConfirm(io: CliIo): PluginInstallerDeps["confirm"] {
  if (!isatty(0)) return undefined;
  return async (question) => {
    const { createInterface } = await import("node:readline/promises");
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await rl.question(`${question} [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
      io.stderr("");
    }
  };
}

/**
 * `skillwright plugin marketplace add|list|update|remove`, `plugin install|update|uninstall`, `plugin configure`
 * (Claude Code's command names). `plugin validate` is run by the engine's dispatch.
 */
export async function pluginCommand(io: CliIo, args: CliArgs): Promise<number> {
  const [sub, ...rest] = args.positionals;
  const confirm = terminalConfirm(io);
  const deps: PluginInstallerDeps = { ...installerDeps(io), ...(confirm === undefined ? {} : { confirm }) };
  const options = {
    frozen: args.frozen,
    yes: args.yes,
    ...(args.pluginVersion === undefined ? {} : { range: args.pluginVersion }),
  };
  switch (sub) {
    case "marketplace": {
      const [verb, ...names] = rest;
      if (verb === "add" && names.length === 1 && names[0] !== undefined)
        return addMarketplace(deps, names[0]);
      if (verb === "list" && names.length === 0) return listMarketplaces(deps, args.json);
      if (verb === "update") return updateMarketplaces(deps, names);
      if (verb === "remove" && names.length === 1 && names[0] !== undefined)
        return removeMarketplace(deps, names[0]);
      break;
    }
    case "install": {
      const [id, ...more] = rest;
      if (id !== undefined && more.length === 0) return installPlugin(deps, id, options);
      break;
    }
    case "update":
      return updatePlugins(deps, rest, options);
    case "uninstall":
      return uninstallPlugins(deps, rest);
    case "configure": {
      const [name, ...pairs] = rest;
      if (name === undefined) break;
      const { configurePlugin } = await import("../plugin-configure.js");
      return configurePlugin(io, deps, name, pairs);
    }
  }
  io.stderr(usageLines("plugin"));
  return 2;
}
