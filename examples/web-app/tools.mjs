// The app's own tools: plain AgentTool objects (name, description, JSON input schema, run). No file or shell
// tool is offered: the model works only through these and the skills.

/** The tool result the loop expects: text blocks, not an error, no touched paths. */
const ok = (text) => ({ content: [{ type: "text", text }], isError: false, touchedPaths: [] });

/** A tool with one JSON schema and a function from input to text. */
function appTool(name, description, properties, answer) {
  return {
    name,
    description,
    inputSchema: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
    readOnly: true,
    subject: () => undefined,
    run: async (input) => ok(answer(input)),
  };
}

/** The mind-map app's tools, registered once for the whole conversation (the tools array never changes). */
export const APP_TOOLS = [
  appTool("generate_mindmap", "Draws a mind map from a JSON node tree.", { root: { type: "object" } }, (input) => {
    const count = (node) => 1 + (node.children ?? []).reduce((n, child) => n + count(child), 0);
    return `mind map drawn: ${count(input.root)} nodes`;
  }),
  appTool("search_requirements", "Searches the requirement library.", { query: { type: "string" } }, (input) =>
    `2 requirements match "${input.query}": REQ-12 real-time co-editing, REQ-31 export to PNG`,
  ),
  appTool("generate_outline", "Builds a content outline from the current mind map.", { title: { type: "string" } }, (input) =>
    `outline "${input.title}": 1. the problem 2. what is new 3. try it`,
  ),
];
