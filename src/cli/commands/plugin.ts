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
import { askMissingSettings, configurePlugin } from "../plugin-configure.js";
import { askYesNo, nodeTerminalAsk, type TerminalAsk } from "../terminal-ask.js";
import { usageLines } from "../usage.js";

/**
 * `skillwright plugin marketplace add|list|update|remove`, `plugin install|update|uninstall`, `plugin configure`
 * (Claude Code's command names). `plugin validate` is run by the engine's dispatch. `ask` is the terminal
 * (absent when stdin is not one: then nothing is asked).
 */
export async function pluginCommand(
  io: CliIo,
  args: CliArgs,
  ask: TerminalAsk | undefined = nodeTerminalAsk(io),
): Promise<number> {
  const [sub, ...rest] = args.positionals;
  const deps: PluginInstallerDeps = {
    ...installerDeps(io),
    ...(ask === undefined ? {} : { confirm: (question: string) => askYesNo(ask, question) }),
  };
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
      if (id === undefined || more.length > 0) break;
      const code = await installPlugin(deps, id, options);
      return code === 0 && !options.frozen ? askMissingSettings(deps, ask) : code;
    }
    case "update": {
      const code = await updatePlugins(deps, rest, options);
      return code === 0 && !options.frozen ? askMissingSettings(deps, ask) : code;
    }
    case "uninstall":
      return uninstallPlugins(deps, rest);
    case "configure": {
      const [name, ...pairs] = rest;
      if (name === undefined) break;
      return configurePlugin(deps, name, pairs, ask);
    }
  }
  io.stderr(usageLines("plugin"));
  return 2;
}
