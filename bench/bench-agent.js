import { toFile } from "@anthropic-ai/sdk";

/**
 * The serve benches' skill (`bench`, body "Do it."), an environment and an agent on `model` with that skill,
 * made through `client`; what a new session of that agent needs.
 * @param {import("@anthropic-ai/sdk").default} client @param {string} model
 * @returns {Promise<{ agent: string, environment_id: string }>}
 */
export async function createBenchAgent(client, model) {
  const skill = await client.beta.skills.create({
    files: [
      await toFile(
        Buffer.from("---\nname: bench\ndescription: A bench skill\n---\nDo it.\n"),
        "bench/SKILL.md",
      ),
    ],
  });
  const environment = await client.beta.environments.create({ name: "bench" });
  const agent = await client.beta.agents.create({
    name: "bench",
    model,
    skills: [{ type: "custom", skill_id: skill.id }],
  });
  return { agent: agent.id, environment_id: environment.id };
}
