// What the scripted model does in this example (the Messages API server of `skillwright/testing` plays it):
// each turn answers the next request, in order.

const call = (name, input, text) => ({
  response: { content: [...(text ? [{ type: "text", text }] : []), { type: "tool_use", name, input }] },
});
const say = (text) => ({ response: { content: [{ type: "text", text }] } });

/** The turns: analyse with pm-skill, then draft with creator-skill (after the app adds reviewer-skill). */
export const SCRIPT = {
  turns: [
    call("Skill", { skill: "pm-skill" }, "This is a requirement analysis: I'll load the PM skill."),
    call("load_reference", { skill: "pm-skill", name: "prd-template" }),
    call("search_requirements", { query: "shared mind maps" }),
    call("generate_mindmap", {
      root: {
        title: "Shared mind maps",
        children: [
          { title: "P0 real-time co-editing", children: [] },
          { title: "P1 export to PNG", children: [] },
        ],
      },
    }),
    say("Mind map ready: P0 real-time co-editing, P1 export to PNG."),
    call("Skill", { skill: "creator-skill" }, "I'll use the creator skill for the post."),
    call("load_reference", { skill: "creator-skill", name: "past-posts" }),
    call("generate_outline", { title: "Mind maps, together" }),
    say("Outline drafted in the house style. A reviewer skill is available now if you want a review."),
  ],
};
