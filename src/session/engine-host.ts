import { join, resolve } from "node:path";
import { createNestedDiscovery } from "../activation/nested.js";
import { hostSkillApprovals } from "../approvals/host-approvals.js";
import type { SkillContextSettings } from "../config/settings-schema.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Engine } from "../engine/engine.js";
import { engineAgentTypes } from "../engine/engine-agent-types.js";
import { listingSettingsOf } from "../listing/budget.js";
import type { McpServerConfig } from "../mcp/config-schema.js";
import type { HeldServerTools } from "../mcp/held-server-tools.js";
import type { McpManager } from "../mcp/manager.js";
import { loadPromptFiles } from "../prompt/load-prompt-files.js";
import { loadPromptTemplates } from "../prompt-templates/load-templates.js";
import { createFileUsageStore, defaultUsagePath } from "../usage.js";
import { createMemoryTranscriptStore } from "./memory-transcript-store.js";
import type { HostSetup, SessionHost } from "./session-host.js";
import { buildSnapshot, type HostRules, type SessionSnapshot } from "./session-snapshot.js";
import type { SkillContextOptions } from "./skill-context/expiry.js";
import { createFileTranscriptStore } from "./transcript-store.js";

/**
 * The CLI engine as a session's host: its cwd, home, env, file system and catalog; snapshots read from its
 * settings, plugins, agent files and prompt template folders (again on each call: a reload's files as they are
 * now), with the host's `rules` merged in. Rejects with `UnknownEnvironmentError` when the engine's selected
 * environment does not exist. Transcripts and usage go under `~/.skillwright` only when the engine's
 * file system is the host's (`fs.host`); otherwise to memory and nowhere.
 */
export async function engineSessionHost(engine: Engine, rules: HostRules): Promise<SessionHost> {
  const { fs } = engine;
  const { projectDir } = await engine.roots();
  const snapshot = async (): Promise<SessionSnapshot> => {
    const [{ roots, environment }, extensions, filter, discovery] = await Promise.all([
      engine.roots(),
      engine.extensions(),
      engine.skillFilter(),
      engine.catalog.get(),
    ]);
    const names = new Set(
      discovery.skills.flatMap((s) => (s.alias === undefined ? [s.name] : [s.name, s.alias])),
    );
    const [agents, templates] = await Promise.all([
      engineAgentTypes(engine, { roots, environment }, extensions),
      loadPromptTemplates(fs, { home: engine.home, projectDir }, names),
    ]);
    return buildSnapshot({
      settingsRules: extensions.permissions.rules,
      additionalDirectories: [
        ...engine.addDirs,
        ...extensions.permissions.additionalDirectories.map((d) =>
          d === "~" || d.startsWith("~/") ? join(engine.home, d.slice(1)) : resolve(projectDir, d),
        ),
      ],
      host: rules,
      settingsHooks: extensions.settingsHooks.hooks,
      plugins: extensions.plugins,
      agents: agents.agents,
      templates: templates.templates,
      filter,
      model: extensions.settings.settings.model,
      listing: listingSettingsOf(extensions.settings.settings),
      skillModelSwitch: extensions.settings.settings.skillModelSwitch === true,
      skillContext: skillContextOf(extensions.settings.settings.skillContext),
      diagnostics: [...agents.diagnostics, ...templates.diagnostics],
    });
  };
  const setup = async (report: Parameters<SessionHost["setup"]>[0]): Promise<HostSetup> => {
    const [{ roots, gitRoot }, extensions, searchIndexCache] = await Promise.all([
      engine.roots(),
      engine.extensions(),
      engine.searchIndexCache(),
    ]);
    const { mcp } = extensions;
    const [tools, instructions, promptFiles, held] = await Promise.all([
      mcp === undefined ? [] : mcp.tools(),
      mcp === undefined ? [] : mcp.instructions(),
      loadPromptFiles(fs, { home: engine.home, projectDir, cwd: engine.cwd, gitRoot }),
      mcp === undefined ? undefined : heldToolsOf(engine, mcp, extensions.mcpServerConfigs, report),
    ]);
    for (const d of held?.diagnostics ?? []) report(d);
    // The held servers' instructions as they sent them when they last ran, in config order with the others'.
    const order = extensions.mcpServers.map((entry) => entry.name);
    return {
      tools: [...tools, ...(held?.tools ?? [])],
      instructions: [...instructions, ...(held?.instructions ?? [])].sort(
        (a, b) => order.indexOf(a.server) - order.indexOf(b.server),
      ),
      ...(held === undefined || held.tools.length === 0 ? {} : { startSkillServer: held.start }),
      promptFiles,
      ...(gitRoot === undefined ? {} : { gitRoot }),
      nested: createNestedDiscovery({
        fs,
        cwd: engine.cwd,
        ...(gitRoot === undefined ? {} : { gitRoot }),
        loadedRoots: roots.filter((r) => r.source === "project").map((r) => r.dir),
      }),
      store: () =>
        fs.host !== true
          ? createMemoryTranscriptStore()
          : createFileTranscriptStore(join(engine.home, ".skillwright", "sessions"), {
              onTornTail: (torn) =>
                report(
                  diagnostic(
                    "warning",
                    "transcript-torn",
                    `the transcript's last line was cut off by a crash; its ${torn.bytes} bytes were moved to ${torn.tornPath}`,
                    torn.path,
                  ),
                ),
            }),
      usage: () => createFileUsageStore({ fs, path: defaultUsagePath(engine.home) }),
      ...(searchIndexCache === undefined ? {} : { searchIndexCache }),
      ...(fs.host === true ? { approvals: () => hostSkillApprovals(fs, engine.home) } : {}),
    };
  };
  return {
    cwd: engine.cwd,
    projectDir,
    home: engine.home,
    env: engine.env,
    fs,
    catalog: engine.catalog,
    snapshot,
    setup,
  };
}

/**
 * The tools of the servers only skills need, from the lists kept under `~/.skillwright` (in memory when the
 * engine's file system is not the host's). Its modules load only when the engine has MCP servers.
 */
async function heldToolsOf(
  engine: Engine,
  mcp: McpManager,
  configs: Readonly<Record<string, McpServerConfig>>,
  report: (d: Diagnostic) => void,
): Promise<HeldServerTools> {
  const [{ heldServerTools }, stores] = await Promise.all([
    import("../mcp/held-server-tools.js"),
    import("../mcp/tool-list-store.js"),
  ]);
  const store =
    engine.fs.host === true
      ? stores.createFileToolListStore({ fs: engine.fs, path: stores.defaultToolListPath(engine.home) })
      : stores.createMemoryToolListStore();
  return heldServerTools({ manager: mcp, configs, store, report });
}

/** The settings' `skillContext` block as session options (its other keys left out). Pure. */
function skillContextOf(settings: SkillContextSettings | undefined): SkillContextOptions {
  const options: SkillContextOptions = {};
  if (settings?.expireAfterUserTurns !== undefined)
    options.expireAfterUserTurns = settings.expireAfterUserTurns;
  if (settings?.maxTokens !== undefined) options.maxTokens = settings.maxTokens;
  return options;
}
