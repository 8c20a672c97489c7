// The app's skills: plain data, kept in memory here, a database row in production. Each has its
// instructions and references; one reference is loaded lazily (a query run only when the model asks for it).

/** How many times the lazy reference's loader ran (the example prints it: once, however often it is asked). */
export const loads = { pastPosts: 0 };

/** The product-manager skill. */
export const pmSkill = {
  name: "pm-skill",
  description: "Product requirement analysis and PRD writing. Use when the user discusses requirements or plans features.",
  body: [
    "You are a senior product manager. Analyse the requirement in this order:",
    "1. user scenarios  2. the core problem  3. features  4. priorities (P0/P1/P2)  5. mind-map nodes (JSON).",
    "Tools: search_requirements (existing requirements), generate_mindmap (draws the result).",
    'For the PRD layout, load the reference "prd-template".',
  ].join("\n"),
  references: [
    { name: "prd-template", description: "PRD document template", content: "## Background\n## Target users\n## Goals\n## Features (P0/P1/P2)" },
  ],
};

/** The content-creator skill; its "past-posts" reference is lazy. */
export const creatorSkill = {
  name: "creator-skill",
  description: "Writes launch posts and outlines from a mind map. Use when the user wants content drafted.",
  body: [
    "You are a content creator. Build an outline with generate_outline from the current mind map.",
    'Match the house style: load the reference "past-posts" first.',
  ].join("\n"),
  references: [
    {
      name: "past-posts",
      description: "Recent launch posts, for the house style",
      content: async () => {
        loads.pastPosts += 1;
        return "2026-10: 'Mind maps, now shared' (short title, three bullets, one call to action)";
      },
    },
  ],
};

/** A skill the app adds while the conversation is running (it reaches the model as a listing delta). */
export const reviewerSkill = {
  name: "reviewer-skill",
  description: "Reviews a draft for clarity and tone. Use before publishing.",
  body: "Review the draft: one line per problem, most important first.",
};
