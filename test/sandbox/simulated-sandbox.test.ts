import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createSimulatedSandbox } from "../../src/sandbox/simulated-sandbox.js";
import { sandboxContract } from "../support/sandbox-contract.js";

const maxOutputBytes = 64 * 1024;

sandboxContract("simulated, over an in-memory file system", async () => ({
  sandbox: createSimulatedSandbox({
    fs: createMemoryFs({ "/workspace/.keep": "" }),
    limits: { maxOutputBytes },
  }),
  cwd: "/workspace",
  maxOutputBytes,
}));
