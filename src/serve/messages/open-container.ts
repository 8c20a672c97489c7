import type { Sandbox } from "../../sandbox/sandbox.js";
import { NO_NETWORK } from "../../sandbox/sandbox-network.js";
import { ApiError, notFound } from "../errors.js";
import { createMountFs, type MountedSkill } from "../sessions/mount-fs.js";
import { type ServedSandboxChoice, servedCapabilities } from "../sessions/served-capabilities.js";
import type { ContainerLease, ContainerStore } from "../store/containers.js";
import type { MountContent } from "../store/mount-content.js";
import type { SessionScratch } from "../store/session-scratch.js";
import { CONTAINER_HOME, CONTAINER_LAYOUT, CONTAINER_OS_MOUNTS } from "./container-layout.js";

/** How long a container may sit unused before it expires, by default: 30 minutes. */
export const DEFAULT_CONTAINER_IDLE_MS = 30 * 60 * 1000;

/** The most bytes a container's files may hold in all, by default: 100 MiB. */
export const DEFAULT_CONTAINER_MAX_BYTES = 100 * 1024 * 1024;

/** The operator's container limits (`SKILLWRIGHT_CONTAINER_IDLE_MS`, `SKILLWRIGHT_CONTAINER_MAX_BYTES`). */
export interface ContainerLimits {
  idleMs: number;
  maxBytes: number;
}

/** A whole positive number of `raw`, else `fallback`. Pure. */
function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The container limits of `SKILLWRIGHT_CONTAINER_IDLE_MS` and `SKILLWRIGHT_CONTAINER_MAX_BYTES` (`env`), each a
 * whole positive number, else its default ({@link DEFAULT_CONTAINER_IDLE_MS}, {@link DEFAULT_CONTAINER_MAX_BYTES}).
 * Pure.
 */
export function containerLimitsFrom(env: Readonly<Record<string, string | undefined>>): ContainerLimits {
  return {
    idleMs: positive(env.SKILLWRIGHT_CONTAINER_IDLE_MS, DEFAULT_CONTAINER_IDLE_MS),
    maxBytes: positive(env.SKILLWRIGHT_CONTAINER_MAX_BYTES, DEFAULT_CONTAINER_MAX_BYTES),
  };
}

/** A container open for one request: its lease and the sandbox its code runs in. */
export interface OpenContainer {
  lease: ContainerLease;
  sandbox: Sandbox;
  /** Where commands start and relative paths resolve: `/mnt/user-data`, or serve's cwd with `--host-tools`. */
  cwd: string;
  /** Its files, by path (what output files are found in). */
  files: SessionScratch;
  /** Releases the sandbox (the os tier's process, the simulated tier's worker). */
  close(): Promise<void>;
}

/** The 400 a request naming an expired container gets. */
export function containerExpired(id: string): ApiError {
  return new ApiError(
    "invalid_request_error",
    `container ${JSON.stringify(id)} has expired (it was idle for too long) and its files are gone: send the ` +
      "request without container.id to start a new container",
  );
}

/** The 409 a request naming a container another request is running in gets. */
export function containerBusy(id: string): ApiError {
  return new ApiError(
    "conflict_error",
    `container ${JSON.stringify(id)} is in use by another request: send this one once that request has ended ` +
      "(one request runs in a container at a time)",
  );
}

/** `scratch` refusing a write that would take the container's files past `maxBytes` (ENOSPC, nothing written). */
function cappedFiles(scratch: SessionScratch, containers: ContainerStore, maxBytes: number): SessionScratch {
  return {
    ...scratch,
    async write(owner, path, content) {
      const before = await scratch.read(owner, path);
      const total = (await containers.size(owner)) - (before?.content.length ?? 0) + content.length;
      if (total > maxBytes) {
        throw Object.assign(
          new Error(
            `ENOSPC: write '${path}' (the container's files may hold ${maxBytes} bytes in all; this write would make ${total})`,
          ),
          { code: "ENOSPC", syscall: "write", path },
        );
      }
      await scratch.write(owner, path, content);
    },
  };
}

/**
 * The container a request runs in, held for it until it is released: the one it names (touched; a 400 when it
 * has expired, a 409 while another request holds it, a 404 when the workspace has none of that id) or a new one;
 * expired containers are swept first. Its file system is its own
 * files in the database under `/mnt/user-data` and `skills` read-only under `/skills`; its code runs in the
 * operator's tier (`serve --sandbox`, the host only with `--host-tools`), with no network.
 */
export async function openContainer(deps: {
  workspaceId: string;
  containerId: string | undefined;
  skills: readonly MountedSkill[];
  containers: ContainerStore;
  content: MountContent;
  choice: ServedSandboxChoice;
  limits: ContainerLimits;
}): Promise<OpenContainer> {
  const { containers, limits } = deps;
  await containers.sweep(limits.idleMs);
  let lease: ContainerLease;
  if (deps.containerId === undefined) lease = await containers.create(deps.workspaceId, limits.idleMs);
  else {
    const taken = await containers.take(deps.workspaceId, deps.containerId, limits.idleMs);
    if (taken.kind === "expired") throw containerExpired(taken.id);
    if (taken.kind === "busy") throw containerBusy(taken.id);
    if (taken.kind === "not_found") throw notFound("container", taken.id);
    lease = taken.container;
  }
  const files = cappedFiles(containers.files, containers, limits.maxBytes);
  const fs = createMountFs({
    workspaceId: deps.workspaceId,
    sessionId: lease.id,
    layout: CONTAINER_LAYOUT,
    mounts: [],
    content: deps.content,
    scratch: files,
    skills: async () => deps.skills,
  });
  const capabilities = servedCapabilities(deps.choice, {
    fs,
    network: NO_NETWORK,
    mounts: CONTAINER_OS_MOUNTS,
  });
  const sandbox = capabilities.sandbox;
  // On the host (`--host-tools`) commands work in serve's cwd: the container's folders are not there.
  const cwd = deps.choice.hostTools === undefined ? CONTAINER_HOME : capabilities.cwd;
  return { lease, sandbox, cwd, files, close: async () => sandbox.close?.() };
}
