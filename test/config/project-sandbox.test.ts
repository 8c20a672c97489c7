/**
 * The settings' `sandbox` block under the trust rules of project hooks and grants: a project's committed settings
 * (which come with a cloned repository) may tighten the sandbox, never loosen it until the user's own settings
 * set `enableProjectPermissions: true`.
 */
import { describe, expect, it } from "vitest";
import { effectiveSandbox, sandboxPath } from "../../src/config/project-sandbox.js";
import type { Settings } from "../../src/config/settings-schema.js";
import { EMPTY_RULES } from "../../src/permissions/decision.js";

const USER = "/home/u/.claude/settings.json";
const COMMITTED = "/repo/.claude/settings.json";
const LOCAL = "/repo/.claude/settings.local.json";
const TRUSTED = [USER, LOCAL];
const PLACES = { cwd: "/repo", home: "/home/u" };

const layer = (path: string, settings: Settings) => ({ path, settings });
const sandboxOf = (layers: { path: string; settings: Settings }[], rules = EMPTY_RULES) =>
  effectiveSandbox(layers, TRUSTED, rules, PLACES);

describe("effectiveSandbox (pure)", () => {
  it("is off by default, with Claude Code's defaults for the rest", () => {
    expect(sandboxOf([])).toMatchObject({
      enabled: false,
      autoAllowBashIfSandboxed: true,
      allowUnsandboxedCommands: true,
      excludedCommands: [],
      pending: [],
    });
  });

  it("a committed file may turn it on and tighten it without approval", () => {
    const result = sandboxOf([
      layer(COMMITTED, {
        sandbox: {
          enabled: true,
          autoAllowBashIfSandboxed: false,
          network: { deniedDomains: ["evil.example"] },
          filesystem: { denyRead: ["~/.ssh"], denyWrite: ["./secrets/**"] },
        },
      }),
    ]);
    expect(result).toMatchObject({
      enabled: true,
      enabledBy: COMMITTED,
      autoAllowBashIfSandboxed: false,
      network: { deniedDomains: ["evil.example"] },
      filesystem: { denyRead: ["/home/u/.ssh"], denyWrite: ["/repo/secrets"] },
      pending: [],
    });
  });

  it("holds back what a committed file would loosen, naming each key, and applies it once approved", () => {
    const loosening: Settings = {
      sandbox: {
        enabled: false,
        excludedCommands: ["curl"],
        network: { allowedDomains: ["exfil.example"], allowLocalBinding: true },
        filesystem: { allowWrite: ["/"] },
      },
    };
    const held = sandboxOf([layer(USER, { sandbox: { enabled: true } }), layer(COMMITTED, loosening)]);
    expect(held).toMatchObject({
      enabled: true,
      enabledBy: USER,
      excludedCommands: [],
      network: { allowedDomains: [], allowLocalBinding: false },
      filesystem: { allowWrite: [] },
    });
    expect(held.pending).toEqual([
      {
        file: COMMITTED,
        keys: [
          "sandbox.enabled",
          "sandbox.excludedCommands",
          "sandbox.network.allowedDomains",
          "sandbox.network.allowLocalBinding",
          "sandbox.filesystem.allowWrite",
        ],
      },
    ]);
    const approved = sandboxOf([
      layer(USER, { sandbox: { enabled: true }, enableProjectPermissions: true }),
      layer(COMMITTED, loosening),
    ]);
    expect(approved).toMatchObject({
      enabled: false,
      excludedCommands: ["curl"],
      network: { allowedDomains: ["exfil.example"], allowLocalBinding: true },
      filesystem: { allowWrite: ["/"] },
      pending: [],
    });
  });

  it("the user's own local settings decide, last one winning", () => {
    const result = sandboxOf([
      layer(COMMITTED, { sandbox: { enabled: true } }),
      layer(LOCAL, { sandbox: { enabled: false } }),
    ]);
    expect(result).toMatchObject({ enabled: false, enabledBy: LOCAL, pending: [] });
  });

  it("derives file and network rules from the permission rules, as Claude Code does", () => {
    const result = sandboxOf([layer(USER, { sandbox: { enabled: true } })], {
      allow: ["Edit(~/notes/**)", "Write(//var/tmp/out)", "WebFetch(domain:api.example.com)", "Edit", "Bash"],
      deny: ["Read(./.env)", "Edit(/etc/**)", "WebFetch(domain:ads.example)"],
      ask: [],
    });
    expect(result.filesystem).toEqual({
      allowWrite: ["/home/u/notes", "/var/tmp/out"],
      denyWrite: ["/etc"],
      denyRead: ["/repo/.env"],
      allowRead: [],
    });
    expect(result.network.allowedDomains).toEqual(["api.example.com"]);
    expect(result.network.deniedDomains).toEqual(["ads.example"]);
  });

  it.each([
    ["~", "/home/u"],
    ["~/x/**", "/home/u/x"],
    ["//abs/y", "/abs/y"],
    ["/abs/z", "/abs/z"],
    ["./rel", "/repo/rel"],
    ["rel/**", "/repo/rel"],
    ["/**", "/"],
  ])("sandboxPath(%j) is %j", (path, absolute) => {
    expect(sandboxPath(path, PLACES)).toBe(absolute);
  });
});
