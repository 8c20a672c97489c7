import { homedir } from "node:os";
import { createEngine, createMemoryFs, createMemorySource, createModelClient, openSession } from "skillwright";
import { startModelServer } from "skillwright/testing";

// Skills held in memory (or loaded from a database): instructions plus references, one loaded only when asked.
const skills = createMemorySource({
  skills: [
    {
      name: "pm-skill",
      description: "Product requirement analysis. Use when the user discusses requirements.",
      body: "Analyse the requirement: users, problem, features, priorities (P0/P1/P2).",
      references: [
        { name: "prd-template", description: "PRD template", content: "## Background\n## Goals" },
        { name: "past-prds", description: "Recent PRDs", content: async () => "PRD #41: shared boards" },
      ],
    },
  ],
});
// No disk for skills: the file roots are looked up in an empty in-memory file system.
const engine = createEngine({ cwd: "/app", home: homedir(), fs: createMemoryFs(), sources: [skills] });

// Offline, a scripted model: it loads the skill, then one reference. For the real API drop `baseURL`.
const step = (content) => ({ response: { content: [content] } });
const server = await startModelServer({
  script: {
    turns: [
      step({ type: "tool_use", name: "Skill", input: { skill: "pm-skill" } }),
      step({ type: "tool_use", name: "load_reference", input: { skill: "pm-skill", name: "past-prds" } }),
      step({ type: "text", text: "P0: shared editing." }),
    ],
  },
});
const { session, tools } = await openSession(engine, {
  client: createModelClient({ baseURL: server.url, apiKey: "offline" }),
  builtinTools: false, // no Read, Write, Edit or Bash: the model gets Skill, load_reference and your extraTools
  skillListing: "system", // the listing sits in the system prompt once; later skills arrive as message deltas
  filesystem: false, // no working directory in the system prompt
});
console.log(tools.join(", ")); // load_reference, Skill
for await (const event of session.send("Teams want to edit mind maps together.")) {
  if (event.type === "tool_end") console.log(event.name, "→", event.result.content[0]?.text);
}
skills.update({ name: "pm-skill", description: "PRDs and priorities.", body: "v2" }); // next request: v2
skills.remove("pm-skill"); // open sessions stop offering it; add() announces new skills as a listing delta
await engine.close();
await server.close();
