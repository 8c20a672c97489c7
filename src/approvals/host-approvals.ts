import { createNodeFileModes } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import { createFileApprovalStore, defaultApprovalsPath } from "./approval-store.js";
import { createSkillApprovals, type SkillApprovals } from "./skill-approvals.js";

/**
 * The approvals of a host file system's user: `~/.skillwright/approvals.json` under `home`, executable files
 * counted as scripts by their mode bits, approvals stamped with the clock. For `fs.host` file systems only.
 */
export function hostSkillApprovals(fs: FsOps, home: string): SkillApprovals {
  return createSkillApprovals({
    fs,
    store: createFileApprovalStore({ fs, path: defaultApprovalsPath(home) }),
    modes: createNodeFileModes(),
    now: () => Date.now(),
  });
}
