// Child process for peak-RSS and CPU-profile figures:
//   node bench/rss-child.js <mode> <managedDir> <home> <cwd> [repeat]
// Modes: `engine` (createEngine().discover()), `discover` (the catalog over one file source of skillRoots, discovery modules
// only), `floor` (the fs floor), `engine-modules` / `discover-modules` (load the modules, discover nothing).
// Runs the work `repeat` times (default 1, fresh each time) and prints one JSON line: { mode, maxRssKb, skills }.
// Modules are imported per mode so that each figure carries only the code it needs.

const MODES = ["engine", "discover", "floor", "engine-modules", "discover-modules"];
const [mode = "", managedDir, home, cwd, repeatArg] = process.argv.slice(2);
if (!MODES.includes(mode) || managedDir === undefined || home === undefined || cwd === undefined) {
  process.stderr.write(`usage: rss-child.js <${MODES.join("|")}> <managedDir> <home> <cwd> [repeat]\n`);
  process.exit(2);
}
const repeat = Number(repeatArg ?? "1");
let skills = 0;

if (mode.startsWith("engine")) {
  const { createEngine } = await import("../dist/engine/engine.js");
  for (let i = 0; i < repeat && mode === "engine"; i++) {
    const engine = createEngine({ cwd, home, env: { SKILLWRIGHT_MANAGED_DIR: managedDir } });
    skills = (await engine.discover()).skills.length;
  }
} else {
  const [
    { createCatalog },
    { createFileSource },
    { skillRoots },
    { projectDirs },
    { createNodeFs },
    { fsFloor },
  ] = await Promise.all([
    import("../dist/catalog/catalog.js"),
    import("../dist/discovery/file-source.js"),
    import("../dist/discovery/skill-roots.js"),
    import("../dist/config/project.js"),
    import("../dist/io/fs.js"),
    import("./fs-floor.js"),
  ]);
  for (let i = 0; i < repeat && mode !== "discover-modules"; i++) {
    const fs = createNodeFs();
    const project = await projectDirs(fs, cwd, home);
    const roots = skillRoots({ home, managedDir, projectDirs: project.dirs, addDirs: [] });
    skills =
      mode === "floor"
        ? (await fsFloor(roots)).unique
        : (
            await createCatalog({
              sources: [createFileSource({ fs, roots: async () => ({ roots, projectDir: cwd }) })],
            }).get()
          ).skills.length;
  }
}
// Linux reports maxRSS in KiB.
process.stdout.write(`${JSON.stringify({ mode, maxRssKb: process.resourceUsage().maxRSS, skills })}\n`);
