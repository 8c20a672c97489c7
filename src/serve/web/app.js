// The skillwright web page: a plain ES module, no build step. Every text from the server is put in the
// page with textContent (never innerHTML), so a skill's `<script>` shows as text; Markdown (an answer, a
// SKILL.md, a memory) is turned into HTML by marked and then into nodes by DOMPurify, never assigned as HTML
// (see `markdown`). No inline handlers: the page is served with `Content-Security-Policy: default-src 'self'`,
// and both libraries are files of this origin (src/serve/web/vendor/, written by scripts/vendor-web.mjs).
import { Marked } from "/web/vendor/marked.js";
import DOMPurify from "/web/vendor/purify.js";

const KEY_STORAGE = "skillwright.apiKey";

const $ = (id) => document.getElementById(id);

/** Makes an element: attributes (`on*` functions become listeners) and children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "className") node.className = value;
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---- Markdown ----

/** `&`, `<`, `>` and quotes as entities: text that goes into HTML source and must stay text. */
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * marked with GitHub's flavour, except raw HTML: an answer's or a skill's `<img onerror=…>` or `<p style=…>` is
 * shown as the text it is, not parsed (the sanitizer below would drop its handler, but even parsing it makes the
 * browser report the CSP refusing its inline style, and a console reader wants to see what the model wrote).
 */
const markdownParser = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: { html: (token) => escapeHtml(token.text) },
});

/**
 * What DOMPurify keeps of marked's HTML: text markup, lists, tables, links and code, nothing that loads or runs.
 * Images, media, forms and embedded documents go (an answer must not fetch anything or ask for input); `style`
 * (the CSP refuses it anyway), and `id`/`name` (they could clobber the page's own ids) are dropped; a link's
 * address is http(s), mailto, a fragment or a path of this page, so `javascript:` and `data:` links lose it.
 */
const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["img", "picture", "source", "video", "audio", "track", "iframe", "object", "embed", "form"],
  FORBID_ATTR: ["style", "id", "name", "srcset", "src", "action", "formaction"],
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[#/?])/i,
  RETURN_DOM_FRAGMENT: true,
};

// A link to another site opens in a new tab, and tells it nothing of this page.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && /^(?:https?:)?\/\//i.test(node.getAttribute("href") ?? "")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

/** Markdown text as a `div.markdown` of sanitized nodes (the source is text until DOMPurify has built it). */
function markdown(text, attrs = {}) {
  const html = markdownParser.parse(String(text ?? ""));
  return el(
    "div",
    { ...attrs, className: `markdown${attrs.className ? ` ${attrs.className}` : ""}` },
    DOMPurify.sanitize(html, PURIFY),
  );
}

/** A SKILL.md's body: the text after its YAML front matter. */
function bodyOf(skillMd) {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(skillMd);
  return match ? skillMd.slice(match[0].length) : skillMd;
}

function apiKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

/** An API error with the server's message: `{type:"error",error:{type,message}}`. */
class ApiError extends Error {
  constructor(status, type, message) {
    super(`${status} ${type}: ${message}`);
    this.status = status;
    this.type = type;
    this.reason = message;
  }
}

/** What each refusal means, in words, before the server's own reason. */
const REFUSALS = {
  400: "The request was not valid",
  401: "The API key was refused",
  403: "This key may not do that",
  404: "It does not exist (or no longer does)",
  409: "It cannot be done now",
  413: "It is too large",
  429: "Too many requests: wait and try again",
  501: "This server does not do that",
  503: "The server cannot do that now",
};

/**
 * An error as a sentence: `<what failed>: <what the status means>: <the server's reason> (<status> <type>)`,
 * so a 409's "skill … is used by 1 agent: …" reads as why the delete was refused, not as a code.
 */
function sayError(error, what) {
  if (!(error instanceof ApiError))
    return `${what ? `${what}: ` : ""}${error instanceof Error ? error.message : String(error)}`;
  const meaning = REFUSALS[error.status] ?? (error.status >= 500 ? "The server failed" : "Refused");
  return `${what ? `${what}: ` : ""}${meaning}: ${error.reason} (${error.status} ${error.type})`;
}

async function errorOf(response) {
  let type = "error";
  let message = response.statusText;
  try {
    const body = await response.json();
    type = body?.error?.type ?? type;
    message = body?.error?.message ?? message;
  } catch {
    // Not JSON: the status text says enough.
  }
  return new ApiError(response.status, type, message);
}

/** Calls the API with the signed-in key (`Authorization: Bearer`, as the SDK sends it). */
async function api(path, init = {}, key = apiKey()) {
  const headers = { authorization: `Bearer ${key}`, ...(init.headers ?? {}) };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method: init.method ?? (init.json !== undefined || init.body !== undefined ? "POST" : "GET"),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    signal: init.signal,
  });
  if (!response.ok) throw await errorOf(response);
  return init.raw ? response : response.json();
}

/** Every item of a list route, following `next_page` (at most `max` items). */
async function listAll(path, max = 500, size = 100) {
  const items = [];
  let page = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const result = await api(`${path}${sep}limit=${size}${page ? `&page=${encodeURIComponent(page)}` : ""}`);
    items.push(...result.data);
    page = result.has_more ? result.next_page : null;
  } while (page && items.length < max);
  return items;
}

function showError(error, what) {
  const box = $("error");
  box.textContent = sayError(error, what);
  box.hidden = false;
}

/**
 * Asks before a change that cannot be undone (or hides something): a modal dialog with the question, Cancel
 * (focused first, and what Escape does) and the action's own label. Answers whether the user confirmed.
 */
function confirmDialog(title, text, action) {
  return new Promise((resolve) => {
    const cancel = el("button", { type: "button", className: "cancel", autofocus: true }, "Cancel");
    const confirm = el("button", { type: "button", className: "danger confirm-action" }, action);
    const dialog = el(
      "dialog",
      { className: "confirm-dialog", "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
      el("h2", { id: "confirm-title" }, title),
      el("p", { id: "confirm-text" }, text),
      el("div", { className: "dialog-actions" }, cancel, confirm),
    );
    cancel.addEventListener("click", () => dialog.close("cancel"));
    confirm.addEventListener("click", () => dialog.close("confirm"));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "confirm");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * A button for a change that asks first (`confirmDialog`), then runs `run` and `after` (go elsewhere, draw again);
 * a refusal is said in words in the page's error line (`sayError`), with nothing changed.
 */
function dangerButton(label, { title, text, action = label, run, after, attrs = {} }) {
  const button = el("button", { type: "button", className: "danger", ...attrs }, label);
  button.addEventListener("click", async () => {
    clearError();
    if (!(await confirmDialog(title, text, action))) return;
    button.disabled = true;
    try {
      await run();
    } catch (error) {
      button.disabled = false;
      showError(error, `Could not ${action.toLowerCase()}`);
      return;
    }
    await after?.();
  });
  return button;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

/** Runs an action, showing its error in the page's error line. */
function guarded(action) {
  return async (event) => {
    event?.preventDefault?.();
    clearError();
    try {
      await action(event);
    } catch (error) {
      showError(error);
    }
  };
}

// ---- zip (skill version content) ----

async function inflateRaw(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The files of a zip by path: reads the central directory; stored and deflated entries. */
async function unzip(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("the version's content is not a zip");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = new Map();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a broken zip directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(dataAt, dataAt + size);
    if (!name.endsWith("/")) files.set(name, method === 8 ? await inflateRaw(data) : data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

// ---- views ----

/**
 * Puts a view in the page: its title (the tab's title too) and its content. A view is drawn by its route
 * (`ROUTES` below) and gets a `draw` that puts it in the page only while it is still the route in force, so a
 * slow answer for a view the user has left never replaces the one they went to.
 */
function render(title, ...children) {
  stopChat();
  const view = $("view");
  document.title = title ? `${title} — skillwright` : "skillwright";
  view.replaceChildren(...children);
  view.hidden = false;
}

/** A table; on a narrow screen each row is a card whose cells name their column (`data-label`). */
function table(headers, rows, caption) {
  return el(
    "div",
    { className: "table" },
    el(
      "table",
      {},
      caption ? el("caption", { className: "visually-hidden" }, caption) : "",
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          headers.map((h) => el("th", { scope: "col" }, h)),
        ),
      ),
      el(
        "tbody",
        {},
        rows.map((cells) =>
          el(
            "tr",
            {},
            cells.map((c, i) => el("td", { "data-label": headers[i] }, c)),
          ),
        ),
      ),
    ),
  );
}

/** A link to one of the page's own addresses: the router draws it without loading the page again. */
function link(text, path, attrs = {}) {
  return el("a", { href: path, ...attrs }, text);
}

/** An id shown as text that may break anywhere (ids are long and have no spaces). */
function idText(id) {
  return el("code", { className: "id" }, id);
}

const TIME_TODAY = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const TIME_DATE = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** An ISO time as people read it (the time alone for today), the ISO itself on hover and for machines. */
function timeText(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  const today = date.toDateString() === new Date().toDateString();
  return el("time", { datetime: iso, title: iso }, (today ? TIME_TODAY : TIME_DATE).format(date));
}

/** A view's heading: focused when the view is reached by a link, so keyboard and reader users land on it. */
function heading(text, level = "h2") {
  return el(level, { className: "view-title", tabindex: "-1" }, text);
}

/** The trail of links above a nested view (`aria-label="Breadcrumb"`). */
function trail(...steps) {
  return el(
    "nav",
    { className: "trail", "aria-label": "Breadcrumb" },
    el(
      "ol",
      {},
      steps.map(([text, path]) => el("li", {}, link(text, path))),
    ),
  );
}

/** A labelled form field: the label above its control. */
function field(label, control, hint) {
  return el("div", { className: "field" }, el("label", { for: control.id }, label), control, hint ?? "");
}

const skillPath = (id) => `/skills/${encodeURIComponent(id)}`;
const versionPath = (id, version) => `${skillPath(id)}/versions/${encodeURIComponent(version)}`;
const sessionPath = (id) => `/sessions/${encodeURIComponent(id)}`;

/** The most skills the Skills view lists; a search (`GET /v1/skills?q=`) finds any of the others. */
const SKILLS_SHOWN = 500;

/** The table of `skills`, or the line that says there are none (`empty`). */
function skillTable(skills, empty) {
  return skills.length === 0
    ? el("p", { className: "empty" }, empty)
    : table(
        ["Skill", "Latest version", "Id"],
        skills.map((s) => [link(s.display_name, skillPath(s.id)), s.latest_version_id, idText(s.id)]),
        "Skills",
      );
}

async function showSkills(_params, draw) {
  const skills = await listAll("/v1/skills", SKILLS_SHOWN);
  const listed = () => skillTable(skills, "No skills yet. Upload a skill folder or a zip above to start.");
  const results = el("div", { id: "skill-list" }, listed());
  const query = el("input", {
    id: "skill-search",
    type: "search",
    autocomplete: "off",
    "aria-describedby": "skill-search-hint",
  });
  const found = el("p", { id: "search-status", role: "status" });
  if (skills.length >= SKILLS_SHOWN)
    found.textContent = `The newest ${SKILLS_SHOWN} skills are listed: search to find any other.`;
  const search = el(
    "form",
    {
      id: "skill-search-form",
      role: "search",
      onsubmit: guarded(async () => {
        const text = query.value.trim();
        if (text === "") {
          results.replaceChildren(listed());
          found.textContent = "";
          return;
        }
        const { data } = await api(`/v1/skills?q=${encodeURIComponent(text)}&limit=100`);
        results.replaceChildren(skillTable(data, `No skill matches “${text}”.`));
        found.textContent = `${data.length} ${data.length === 1 ? "skill matches" : "skills match"} “${text}”, best first.`;
      }),
    },
    field(
      "Search skills",
      query,
      el(
        "p",
        { id: "skill-search-hint", className: "hint" },
        "Words of a name, description or when to use; empty lists them all.",
      ),
    ),
    el("button", { type: "submit" }, "Search"),
  );
  const folder = el("input", { id: "upload-folder", type: "file", webkitdirectory: true, multiple: true });
  const zip = el("input", { id: "upload-zip", type: "file", accept: ".zip,application/zip" });
  const status = el("p", { id: "upload-status", role: "status" });
  const upload = async (files, pathOf) => {
    const form = new FormData();
    for (const file of files) form.append("files[]", file, pathOf(file));
    const skill = await api("/v1/skills", { body: form });
    const warned = (skill.warnings ?? []).map((w) => ` Warning (${w.code}): ${w.message}.`).join("");
    const said = `Uploaded ${skill.display_name} (version ${skill.latest_version_id}).${warned}`;
    await refresh();
    // The list is drawn again, and with it the status line (unless the user has gone to another view).
    const line = $("upload-status");
    if (line) line.textContent = said;
  };
  draw(
    "Skills",
    heading("Skills"),
    el(
      "section",
      { className: "card", "aria-labelledby": "upload-title" },
      el("h3", { id: "upload-title" }, "Upload a skill"),
      el(
        "div",
        { className: "uploads" },
        el(
          "form",
          {
            id: "upload-folder-form",
            onsubmit: guarded(async () => {
              if (folder.files.length === 0) throw new Error("choose a skill folder first");
              await upload(folder.files, (f) => f.webkitRelativePath || f.name);
            }),
          },
          field("A skill folder", folder),
          el("button", { type: "submit" }, "Upload folder"),
        ),
        el(
          "form",
          {
            id: "upload-zip-form",
            onsubmit: guarded(async () => {
              if (zip.files.length === 0) throw new Error("choose a zip first");
              await upload(zip.files, (f) => f.name);
            }),
          },
          field("or a zip", zip),
          el("button", { type: "submit" }, "Upload zip"),
        ),
      ),
      status,
    ),
    search,
    found,
    results,
  );
}

// ---- a skill's versions: files, text, diff ----

/** A version's files by path (its zip, unpacked). */
async function versionFiles(skillId, versionId) {
  const path = `/v1/skills/${encodeURIComponent(skillId)}/versions/${encodeURIComponent(versionId)}/content`;
  return unzip(await (await api(path, { raw: true })).arrayBuffer());
}

/** A file's bytes as text, or null when they are not UTF-8 text (a NUL, or bytes that do not decode). */
function textOfBytes(bytes) {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The most lines of a file the diff compares (the table it fills grows with the product of both lengths). */
const DIFF_MAX_LINES = 3000;

/**
 * The lines of `before` and `after` as `[mark, line]`: " " kept, "-" removed, "+" added, by a longest common
 * subsequence of lines (the shortest edit for these sizes). Null when either side is over DIFF_MAX_LINES.
 */
function lineDiff(before, after) {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  if (a.length > DIFF_MAX_LINES || b.length > DIFF_MAX_LINES) return null;
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i * width + j] =
        a[i] === b[j]
          ? common[(i + 1) * width + j + 1] + 1
          : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push([" ", a[i++]]);
      j++;
    } else if (j < b.length && (i === a.length || common[i * width + j + 1] >= common[(i + 1) * width + j])) {
      out.push(["+", b[j++]]);
    } else {
      out.push(["-", a[i++]]);
    }
  }
  return out;
}

/** Each file that differs between two versions' files: its path, what changed and its lines marked. */
function versionDiff(before, after) {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.length === b.length && a.every((byte, k) => byte === b[k])) continue;
    const what = !a ? "added" : !b ? "removed" : "changed";
    const textA = a ? textOfBytes(a) : "";
    const textB = b ? textOfBytes(b) : "";
    const lines = textA === null || textB === null ? null : lineDiff(textA, textB);
    changes.push({ path, what, lines });
  }
  return changes;
}

/** The diff between two versions, drawn: a section per changed file, its lines marked (+ added, - removed). */
function diffView(changes, from, to) {
  if (changes.length === 0)
    return el("p", { className: "empty" }, `Versions ${from} and ${to} hold the same files.`);
  return el(
    "div",
    {},
    changes.map(({ path, what, lines }) =>
      el(
        "section",
        { className: "diff-file", "data-path": path, "aria-label": `${path} (${what})` },
        el("h4", {}, `${path} — ${what}`),
        lines === null
          ? el("p", { className: "hint" }, "Not compared: not text, or too long.")
          : el(
              "pre",
              { className: "diff", tabindex: "0", role: "region", "aria-label": `Changes to ${path}` },
              lines.map(([mark, line]) =>
                el(
                  "span",
                  { className: mark === "+" ? "add" : mark === "-" ? "del" : "same" },
                  `${mark} ${line}\n`,
                ),
              ),
            ),
      ),
    ),
  );
}

/** A version's file as shown when opened: its path, then its text or why it is not shown. */
function fileShown(name, bytes) {
  const text = textOfBytes(bytes);
  return [
    el("h4", { tabindex: "-1" }, name),
    text === null
      ? el("p", { className: "hint" }, `Not text (${sizeText(bytes.length)}): use its download link.`)
      : el("pre", { id: "file-text", tabindex: "0", role: "region", "aria-label": name }, text),
  ];
}

/** Saves bytes the page holds under a file name. */
function saveBytes(bytes, filename) {
  const url = URL.createObjectURL(new Blob([bytes]));
  try {
    el("a", { href: url, download: filename }).click();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

async function showSkill([id], draw) {
  const skill = await api(`/v1/skills/${encodeURIComponent(id)}`);
  const [versions, agents] = await Promise.all([
    listAll(`/v1/skills/${encodeURIComponent(id)}/versions`),
    listAll("/v1/agents", 1000),
  ]);
  const users = agents.filter((a) => a.skills.some((ref) => ref.skill_id === skill.id));
  const option = (v) => el("option", { value: v.id }, `${v.id} · ${v.name}`);
  const from = el("select", { id: "diff-from" }, versions.map(option));
  const to = el("select", { id: "diff-to" }, versions.map(option));
  // The list is newest first: by default the version before the newest against the newest.
  if (versions.length > 1) {
    from.value = versions[1].id;
    to.value = versions[0].id;
  }
  const diffOut = el("div", { id: "version-diff", "aria-live": "polite" });
  const compare = el(
    "form",
    {
      id: "diff-form",
      onsubmit: guarded(async () => {
        diffOut.replaceChildren(el("p", { className: "loading", role: "status" }, "Comparing…"));
        try {
          const [a, b] = await Promise.all([
            versionFiles(skill.id, from.value),
            versionFiles(skill.id, to.value),
          ]);
          diffOut.replaceChildren(diffView(versionDiff(a, b), from.value, to.value));
        } catch (error) {
          diffOut.replaceChildren(
            el("p", { className: "error", role: "alert" }, sayError(error, "Could not compare")),
          );
        }
      }),
    },
    field("From version", from),
    field("To version", to),
    el("button", { type: "submit" }, "Compare"),
  );
  draw(
    skill.display_name,
    trail(["Skills", "/skills"]),
    heading(skill.display_name),
    el(
      "div",
      { className: "actions" },
      dangerButton("Delete skill", {
        attrs: { id: "skill-delete" },
        title: `Delete the skill ${skill.display_name}?`,
        text: "The skill and every version of it are deleted for good. An agent that uses it must drop it first.",
        run: () => api(`/v1/skills/${encodeURIComponent(skill.id)}`, { method: "DELETE" }),
        after: () => navigate("/skills"),
      }),
    ),
    table(
      ["Version", "Name", "Description", "Created"],
      versions.map((v) => [
        link(v.id, versionPath(skill.id, v.id)),
        v.name,
        v.description,
        timeText(v.created_at),
      ]),
      "Versions",
    ),
    el("h3", {}, "Agents using it"),
    users.length === 0
      ? el(
          "p",
          { id: "skill-users", className: "empty" },
          "No agent uses this skill. Give it to one on the Agents page.",
        )
      : el(
          "ul",
          { id: "skill-users" },
          users.map((a) => {
            const ref = a.skills.find((r) => r.skill_id === skill.id);
            const pinned =
              ref?.version && ref.version !== "latest" ? ` (version ${ref.version})` : " (latest version)";
            return el("li", {}, a.name, pinned);
          }),
        ),
    el("h3", {}, "Compare two versions"),
    versions.length < 2
      ? el("p", { className: "empty" }, "Only one version so far: upload another to compare them.")
      : el("div", {}, compare, diffOut),
  );
}

async function showVersion([id, version], draw) {
  const skill = await api(`/v1/skills/${encodeURIComponent(id)}`);
  const path = `/v1/skills/${encodeURIComponent(id)}/versions/${encodeURIComponent(version)}`;
  const v = await api(path);
  const response = await api(`${path}/content`, { raw: true });
  const files = await unzip(await response.arrayBuffer());
  const skillMd = [...files.entries()].find(([name]) => /(^|\/)SKILL\.md$/.test(name));
  const skillMdText = skillMd ? new TextDecoder().decode(skillMd[1]) : "";
  // The file opened from the list: its text, or a word that it is not text (the download is beside its name).
  const fileView = el("section", { id: "file-view", className: "card", "aria-label": "File", hidden: true });
  draw(
    `${v.name} ${v.id}`,
    trail(["Skills", "/skills"], [skill.display_name, skillPath(skill.id)]),
    heading(v.name),
    el("p", { className: "meta" }, "Version ", idText(v.id), " · ", timeText(v.created_at)),
    el(
      "div",
      { className: "actions" },
      dangerButton("Delete version", {
        attrs: { id: "version-delete" },
        title: `Delete version ${v.id} of ${skill.display_name}?`,
        text: "This version is deleted for good. An agent pinned to it must move to another version first.",
        run: () => api(path, { method: "DELETE" }),
        after: () => navigate(skillPath(skill.id)),
      }),
    ),
    el("p", { className: "description" }, v.description),
    (v.warnings ?? []).length === 0
      ? ""
      : el(
          "ul",
          { id: "skill-warnings", className: "warnings", "aria-label": "Lint findings" },
          v.warnings.map((w) => el("li", {}, `${w.code} (${w.file}): ${w.message}`)),
        ),
    el("h3", {}, "Files"),
    el(
      "ul",
      { className: "files" },
      [...files.entries()].map(([name, bytes]) =>
        el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              className: "link",
              "data-file": name,
              onclick: () => {
                fileView.replaceChildren(...fileShown(name, bytes));
                fileView.hidden = false;
                fileView.querySelector("h4")?.focus();
              },
            },
            name,
          ),
          ` (${sizeText(bytes.length)}) `,
          el(
            "button",
            {
              type: "button",
              className: "link",
              "data-download": name,
              "aria-label": `Download ${name}`,
              onclick: () => saveBytes(bytes, name.split("/").pop() ?? name),
            },
            "download",
          ),
        ),
      ),
    ),
    fileView,
    el("h3", {}, "SKILL.md"),
    skillMd ? markdown(bodyOf(skillMdText), { id: "skill-md-rendered" }) : "",
    el("h4", {}, "Source"),
    el(
      "pre",
      { id: "skill-md", tabindex: "0", role: "region", "aria-label": "SKILL.md source" },
      skillMd ? skillMdText : "(no SKILL.md)",
    ),
  );
}

/**
 * An agent's skills as links named as people know them (an Anthropic skill by its id, a removed one said so),
 * each with its pinned version when it has one.
 */
function skillNames(refs, skills) {
  if (refs.length === 0) return "none";
  const byId = new Map(skills.map((s) => [s.id, s]));
  return el(
    "ul",
    { className: "inline-list" },
    refs.map((ref) => {
      const known = byId.get(ref.skill_id);
      const pinned = ref.version && ref.version !== "latest" ? ` (version ${ref.version})` : "";
      if (ref.type !== "custom") return el("li", {}, `${ref.skill_id}${pinned}`);
      return el(
        "li",
        {},
        known ? link(known.display_name, skillPath(known.id)) : `${ref.skill_id} (deleted)`,
        pinned,
      );
    }),
  );
}

async function showAgents(_params, draw) {
  const [agents, skills] = await Promise.all([listAll("/v1/agents"), listAll("/v1/skills")]);
  const name = el("input", { id: "agent-name", required: true, autocomplete: "off" });
  const model = el("input", { id: "agent-model", value: "claude-sonnet-5-5", required: true });
  const system = el("textarea", { id: "agent-system" });
  const boxes = skills.map((s) => el("input", { type: "checkbox", value: s.id, id: `agent-skill-${s.id}` }));
  draw(
    "Agents",
    heading("Agents"),
    agents.length === 0
      ? el(
          "p",
          { className: "empty" },
          "No agents yet. Make one below: name it and tick the skills it may use.",
        )
      : table(
          ["Agent", "Model", "Skills", "Id", "Actions"],
          agents.map((a) => [
            a.name,
            typeof a.model === "string" ? a.model : a.model?.id,
            skillNames(a.skills, skills),
            idText(a.id),
            dangerButton("Archive", {
              attrs: {
                className: "danger small",
                "data-archive-agent": a.id,
                "aria-label": `Archive ${a.name}`,
              },
              title: `Archive the agent ${a.name}?`,
              text: "An archived agent can start no new session and leaves this list; its sessions keep running.",
              action: "Archive agent",
              run: () => api(`/v1/agents/${encodeURIComponent(a.id)}/archive`, { method: "POST" }),
              after: refresh,
            }),
          ]),
          "Agents",
        ),
    el(
      "section",
      { className: "card", "aria-labelledby": "agent-form-title" },
      el("h3", { id: "agent-form-title" }, "New agent"),
      el(
        "form",
        {
          id: "agent-form",
          onsubmit: guarded(async () => {
            const chosen = boxes.filter((b) => b.checked).map((b) => ({ type: "custom", skill_id: b.value }));
            await api("/v1/agents", {
              json: {
                name: name.value,
                model: model.value,
                ...(system.value ? { system: system.value } : {}),
                skills: chosen,
              },
            });
            await refresh();
          }),
        },
        field("Name", name),
        field("Model", model),
        field("System prompt", system),
        el(
          "fieldset",
          {},
          el("legend", {}, "Skills"),
          skills.length === 0 ? "No skills to choose from." : "",
          skills.map((s, i) =>
            el("div", { className: "check" }, boxes[i], el("label", { for: boxes[i].id }, s.display_name)),
          ),
        ),
        el("button", { type: "submit", className: "primary" }, "Create agent"),
      ),
    ),
  );
}

async function showSessions(_params, draw) {
  const [sessions, agents, environments] = await Promise.all([
    listAll("/v1/sessions"),
    listAll("/v1/agents"),
    listAll("/v1/environments"),
  ]);
  const agent = el(
    "select",
    { id: "session-agent" },
    agents.map((a) => el("option", { value: a.id }, a.name)),
  );
  const environment = el(
    "select",
    { id: "session-environment" },
    environments.map((e) => el("option", { value: e.id }, e.name)),
    el("option", { value: "" }, "(a new environment)"),
  );
  const title = el("input", { id: "session-title", autocomplete: "off" });
  draw(
    "Sessions",
    heading("Sessions"),
    sessions.length === 0
      ? el(
          "p",
          { className: "empty" },
          agents.length === 0
            ? "No sessions yet. A session runs an agent: make one on the Agents page first."
            : "No sessions yet. Open one below with one of your agents.",
        )
      : table(
          ["Session", "Agent", "Status", "Created", "Id"],
          sessions.map((s) => [
            link(s.title || s.id, sessionPath(s.id)),
            s.agent?.name,
            s.status,
            timeText(s.created_at),
            idText(s.id),
          ]),
          "Sessions",
        ),
    el(
      "section",
      { className: "card", "aria-labelledby": "session-form-title" },
      el("h3", { id: "session-form-title" }, "New session"),
      agents.length === 0
        ? el("p", {}, "Create an agent first: ", link("Agents", "/agents"), ".")
        : el(
            "form",
            {
              id: "session-form",
              onsubmit: guarded(async () => {
                let environmentId = environment.value;
                if (environmentId === "") {
                  environmentId = (await api("/v1/environments", { json: { name: `web ${Date.now()}` } })).id;
                }
                const session = await api("/v1/sessions", {
                  json: {
                    agent: agent.value,
                    environment_id: environmentId,
                    ...(title.value ? { title: title.value } : {}),
                  },
                });
                await navigate(sessionPath(session.id));
              }),
            },
            field("Agent", agent),
            field("Environment", environment),
            field("Title", title),
            el("button", { type: "submit", className: "primary" }, "Open session"),
          ),
    ),
  );
}

const storePath = (id) => `/memory/${encodeURIComponent(id)}`;
const memoryPath = (storeId, memoryId) => `${storePath(storeId)}/${encodeURIComponent(memoryId)}`;
const storeApi = (id) => `/v1/memory_stores/${encodeURIComponent(id)}`;

/** A byte count as people read it. */
function sizeText(bytes) {
  if (bytes === null || bytes === undefined) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The workspace's memory stores, and a form to make one. */
async function showMemory(_params, draw) {
  const stores = await listAll("/v1/memory_stores");
  const name = el("input", { id: "store-name", required: true, autocomplete: "off" });
  const description = el("input", { id: "store-description", autocomplete: "off" });
  draw(
    "Memory",
    heading("Memory stores"),
    stores.length === 0
      ? el(
          "p",
          { id: "stores-empty", className: "empty" },
          "No memory stores yet. Make one below; a session's agent reads and writes the stores attached to it.",
        )
      : table(
          ["Store", "Description", "Created", "Id"],
          stores.map((s) => [
            link(s.name, storePath(s.id)),
            s.archived_at ? `${s.description} (archived)` : s.description,
            timeText(s.created_at),
            idText(s.id),
          ]),
          "Memory stores",
        ),
    el(
      "section",
      { className: "card", "aria-labelledby": "store-form-title" },
      el("h3", { id: "store-form-title" }, "New memory store"),
      el(
        "form",
        {
          id: "store-form",
          onsubmit: guarded(async () => {
            const store = await api("/v1/memory_stores", {
              json: { name: name.value, ...(description.value ? { description: description.value } : {}) },
            });
            await navigate(storePath(store.id));
          }),
        },
        field("Name", name),
        field("Description", description),
        el("button", { type: "submit", className: "primary" }, "Create store"),
      ),
    ),
  );
}

/** One store's memories by path, and a form to write one (a path that exists gets a new version). */
async function showStore([storeId], draw) {
  const store = await api(storeApi(storeId));
  const items = await listAll(`${storeApi(storeId)}/memories?depth=0`, 1000);
  const memories = items.filter((m) => m.type === "memory").sort((a, b) => a.path.localeCompare(b.path));
  const path = el("input", {
    id: "memory-path",
    "aria-describedby": "memory-path-hint",
    required: true,
    autocomplete: "off",
    placeholder: "/notes/today.md",
  });
  const content = el("textarea", { id: "memory-content" });
  draw(
    store.name,
    trail(["Memory", "/memory"]),
    heading(store.name),
    el(
      "p",
      { className: "meta" },
      "Store ",
      idText(store.id),
      store.description ? ` · ${store.description}` : "",
    ),
    memories.length === 0
      ? el(
          "p",
          { id: "memories-empty", className: "empty" },
          "No memories in this store yet. Write one below, or let a session's agent write them.",
        )
      : table(
          ["Path", "Size", "Updated", "Id"],
          memories.map((m) => [
            link(m.path, memoryPath(store.id, m.id)),
            sizeText(m.content_size_bytes),
            timeText(m.updated_at),
            idText(m.id),
          ]),
          "Memories",
        ),
    el(
      "section",
      { className: "card", "aria-labelledby": "memory-form-title" },
      el("h3", { id: "memory-form-title" }, "New memory"),
      el(
        "form",
        {
          id: "memory-form",
          onsubmit: guarded(async () => {
            const memory = await api(`${storeApi(store.id)}/memories`, {
              json: { path: path.value.trim(), content: content.value },
            });
            await navigate(memoryPath(store.id, memory.id));
          }),
        },
        field(
          "Path",
          path,
          el(
            "p",
            { id: "memory-path-hint", className: "hint" },
            "An absolute path, such as /notes/today.md.",
          ),
        ),
        field("Content", content),
        el("button", { type: "submit", className: "primary" }, "Create memory"),
      ),
    ),
  );
}

/** One memory: its text, a form to edit it, and its versions (newest first). */
async function showMemoryItem([storeId, memoryId], draw) {
  const store = await api(storeApi(storeId));
  const memory = await api(`${storeApi(storeId)}/memories/${encodeURIComponent(memoryId)}?view=full`);
  const versions = await listAll(
    `${storeApi(storeId)}/memory_versions?memory_id=${encodeURIComponent(memoryId)}`,
    1000,
  );
  const content = el("textarea", { id: "memory-edit" });
  content.value = memory.content ?? "";
  const actor = (a) => (a ? (a.api_key_id ?? a.session_id ?? a.type) : "");
  draw(
    memory.path,
    trail(["Memory", "/memory"], [store.name, storePath(store.id)]),
    heading(memory.path),
    el(
      "p",
      { className: "meta" },
      "Memory ",
      idText(memory.id),
      ` · ${sizeText(memory.content_size_bytes)} · updated `,
      timeText(memory.updated_at),
    ),
    /\.(md|markdown)$/i.test(memory.path) ? markdown(memory.content ?? "", { id: "memory-rendered" }) : "",
    el(
      "pre",
      { id: "memory-text", tabindex: "0", role: "region", "aria-label": "Memory content" },
      memory.content ?? "",
    ),
    el(
      "section",
      { className: "card", "aria-labelledby": "memory-edit-title" },
      el("h3", { id: "memory-edit-title" }, "Edit"),
      el(
        "form",
        {
          id: "memory-edit-form",
          onsubmit: guarded(async () => {
            // Saved only over the text shown here: a change made meanwhile is a 409, not lost.
            await api(`${storeApi(store.id)}/memories/${encodeURIComponent(memory.id)}`, {
              json: {
                content: content.value,
                precondition: { type: "content_sha256", content_sha256: memory.content_sha256 },
              },
            });
            await refresh();
          }),
        },
        field("Content", content),
        el("button", { type: "submit", className: "primary" }, "Save"),
      ),
    ),
    el("h3", {}, "Versions"),
    table(
      ["Version", "Operation", "Path", "Size", "By", "Created"],
      versions.map((v) => [
        idText(v.id),
        v.redacted_at ? `${v.operation} (redacted)` : v.operation,
        v.path ?? "",
        sizeText(v.content_size_bytes),
        actor(v.created_by),
        timeText(v.created_at),
      ]),
      "Versions",
    ),
  );
}

/** Saves a file the API serves (it needs the key, so a plain link cannot fetch it). */
async function download(file) {
  const response = await api(`/v1/files/${encodeURIComponent(file.id)}/content`, { raw: true });
  const url = URL.createObjectURL(await response.blob());
  try {
    el("a", { href: url, download: file.filename }).click();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/** The workspace's files: upload one (multipart, as `files.upload` sends it), list them, download each. */
async function showFiles(_params, draw) {
  const files = await listAll("/v1/files");
  const chosen = el("input", { id: "file-input", type: "file" });
  const status = el("p", { id: "file-status", role: "status" });
  draw(
    "Files",
    heading("Files"),
    el(
      "section",
      { className: "card", "aria-labelledby": "file-form-title" },
      el("h3", { id: "file-form-title" }, "Upload a file"),
      el(
        "form",
        {
          id: "file-form",
          onsubmit: guarded(async () => {
            const file = chosen.files[0];
            if (!file) throw new Error("choose a file first");
            const form = new FormData();
            form.append("file", file, file.name);
            const stored = await api("/v1/files", { body: form });
            await refresh();
            const line = $("file-status");
            if (line) line.textContent = `Uploaded ${stored.filename} (${stored.id}).`;
          }),
        },
        field("File", chosen),
        el("button", { type: "submit", className: "primary" }, "Upload"),
      ),
      status,
    ),
    files.length === 0
      ? el(
          "p",
          { id: "files-empty", className: "empty" },
          "No files yet. Upload one above; a session can mount it as a resource.",
        )
      : table(
          ["File", "Type", "Size", "Created", "Id", "Actions"],
          files.map((f) => [
            el(
              "button",
              {
                type: "button",
                className: "link download",
                "data-file-id": f.id,
                "aria-label": `Download ${f.filename}`,
                onclick: guarded(() => download(f)),
              },
              f.filename,
            ),
            f.mime_type,
            sizeText(f.size_bytes),
            timeText(f.created_at),
            idText(f.id),
            dangerButton("Delete", {
              attrs: {
                className: "danger small",
                "data-delete-file": f.id,
                "aria-label": `Delete ${f.filename}`,
              },
              title: `Delete the file ${f.filename}?`,
              text: "The file is deleted for good. This cannot be undone.",
              action: "Delete file",
              run: () => api(`/v1/files/${encodeURIComponent(f.id)}`, { method: "DELETE" }),
              after: refresh,
            }),
          ]),
          "Files",
        ),
  );
}

/**
 * An address the page has no view for, or whose view names something this workspace does not hold (`missing`,
 * the API's 404): says which, and where to go instead (the section's list).
 */
async function showNotFound(_params, draw, missing) {
  const section = location.pathname.split("/")[1];
  const home = PAGE_SECTION_NAMES[section];
  draw(
    "Not found",
    heading(missing ? "Not found" : "Page not found"),
    el(
      "p",
      { id: "not-found" },
      missing
        ? `${missing.reason.charAt(0).toUpperCase()}${missing.reason.slice(1)}. It may have been deleted, or belong to another workspace. `
        : "There is no view at ",
      missing ? "" : el("code", {}, location.pathname),
      missing ? "" : ". ",
      "Go to ",
      home ? link(home, `/${section}`) : link("Sessions", "/sessions"),
      ".",
    ),
  );
}

/** Each section's name, as the main navigation says it. */
const PAGE_SECTION_NAMES = {
  sessions: "Sessions",
  agents: "Agents",
  skills: "Skills",
  memory: "Memory",
  files: "Files",
};

// ---- chat ----

/** The open chat's stream: aborted when the view changes. */
let chatAbort = null;

function stopChat() {
  chatAbort?.abort();
  chatAbort = null;
}

function textOf(content) {
  return (content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
}

function brief(value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Parses an SSE body: yields `{event, data}` for each message that has an `event:` line (as the SDK does). */
async function* sseMessages(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = null;
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (event !== null && data.length > 0) yield { event, data: data.join("\n") };
      cut = buffer.indexOf("\n\n");
    }
  }
}

/** A tool call's name as shown: an MCP call names its server, a custom tool says so. */
function callName(event) {
  if (event.type === "agent.mcp_tool_use") return `${event.name} (MCP server ${event.mcp_server_name})`;
  if (event.type === "agent.custom_tool_use") return `${event.name} (custom)`;
  return event.name;
}

function drawCall(call) {
  call.node.textContent = `${callName(call.event)} — ${call.state}`;
}

/**
 * The card of a call the session waits on: its name, server and input, with Allow and Deny (an optional
 * message) that `answer({result, deny_message?})`; a custom tool's call only says the application answers it.
 */
function confirmationCard(eventId, use, answer) {
  const inputText = JSON.stringify(use?.input ?? {}, null, 2);
  const head = el("strong", { className: "confirm-name" }, use ? callName(use) : eventId);
  if (use?.type === "agent.custom_tool_use") {
    return el(
      "div",
      { className: "confirm custom", "data-event-id": eventId },
      el("p", {}, head),
      el("pre", { className: "confirm-input" }, inputText),
      el(
        "p",
        { className: "hint" },
        "Your application must answer this call (user.custom_tool_result); this page cannot.",
      ),
    );
  }
  const message = el("input", {
    className: "deny-message",
    placeholder: "Message to the model (optional)",
    "aria-label": "Deny message",
  });
  const allow = el("button", { type: "button", className: "allow" }, "Allow");
  const deny = el("button", { type: "button", className: "deny" }, "Deny");
  const controls = [allow, deny, message];
  const send = (result) => async () => {
    for (const control of controls) control.disabled = true;
    const text = message.value.trim();
    try {
      await answer(result === "deny" && text ? { result, deny_message: text } : { result });
    } catch {
      for (const control of controls) control.disabled = false;
    }
  };
  allow.addEventListener("click", send("allow"));
  deny.addEventListener("click", send("deny"));
  return el(
    "div",
    { className: "confirm", "data-event-id": eventId },
    el("p", {}, head, " wants to run:"),
    el("pre", { className: "confirm-input" }, inputText),
    el("p", {}, allow, " ", deny, " ", message),
  );
}

/**
 * The chat's "Define an outcome" form (folded away): a description, a text rubric and at most how many
 * evaluations; it sends `user.define_outcome`, whose loop the chat then shows.
 */
function outcomeForm(sendEvents, say) {
  const description = el("input", { id: "outcome-description", required: true, autocomplete: "off" });
  const rubric = el("textarea", { id: "outcome-rubric", required: true });
  const most = el("input", { id: "outcome-max", type: "number", min: "1", max: "20", value: "3" });
  return el(
    "details",
    { className: "outcome-form" },
    el("summary", {}, "Define an outcome"),
    el(
      "form",
      {
        id: "outcome-form",
        onsubmit: guarded(async () => {
          say("");
          try {
            await sendEvents([
              {
                type: "user.define_outcome",
                description: description.value.trim(),
                rubric: { type: "text", content: rubric.value },
                ...(most.value ? { max_iterations: Number(most.value) } : {}),
              },
            ]);
            description.value = "";
            rubric.value = "";
          } catch (error) {
            say(`Could not define the outcome: ${error.message}`);
          }
        }),
      },
      field("What the work should achieve", description),
      field("Rubric (the grader checks each criterion)", rubric),
      field("At most this many evaluations", most),
      el("button", { type: "submit" }, "Start"),
    ),
  );
}

/** How many of a timeline's entries are drawn at first, and how many more each "Show earlier" adds. */
const TIMELINE_PAGE = 300;

/** The kinds of timeline entries, as the filters name them. */
const TIMELINE_KINDS = [
  ["message", "Messages"],
  ["tool", "Tool calls"],
  ["skill", "Skills"],
  ["fork", "Forks"],
  ["outcome", "Outcomes"],
  ["error", "Errors"],
  ["usage", "Tokens"],
];

/** The timeline's filters: a box per kind; unticked, that kind's entries are hidden (`hide-<kind>` on `log`). */
function timelineFilters(log) {
  return el(
    "fieldset",
    { id: "timeline-filters", className: "filters" },
    el("legend", {}, "Show"),
    TIMELINE_KINDS.map(([kind, label]) => {
      const box = el("input", { type: "checkbox", id: `filter-${kind}`, checked: true, "data-kind": kind });
      box.addEventListener("change", () => log.classList.toggle(`hide-${kind}`, !box.checked));
      return el("span", { className: "check" }, box, el("label", { for: box.id }, label));
    }),
  );
}

async function showChat([id], draw) {
  // The operator's price table, when serve was given one (`serve --prices`): costs are shown only then.
  const [session, priced] = await Promise.all([
    api(`/v1/sessions/${encodeURIComponent(id)}`),
    api("/v1/skillwright/prices").catch(() => ({ prices: null })),
  ]);
  const model = typeof session.agent?.model === "string" ? session.agent.model : session.agent?.model?.id;
  const price = priced?.prices ? (priced.prices[model] ?? null) : undefined;
  // data-stream: connecting, open (events arrive live), closed or failed.
  const log = el("div", {
    id: "chat-log",
    role: "log",
    tabindex: "0",
    "aria-label": "Messages",
    "aria-live": "polite",
    "data-stream": "connecting",
  });
  const status = el("p", { id: "chat-status", role: "status" }, `Status: ${session.status}`);
  // Stops the running turn (`user.interrupt`): enabled only while the session runs.
  const stop = el(
    "button",
    { type: "button", id: "chat-stop", disabled: session.status !== "running" },
    "Stop the turn",
  );
  stop.addEventListener("click", async () => {
    stop.disabled = true;
    chatError.textContent = "";
    try {
      await sendEvents([{ type: "user.interrupt" }]);
    } catch (error) {
      stop.disabled = false;
      chatError.textContent = sayError(error, "Could not stop the turn");
    }
  });
  const chatError = el("p", { id: "chat-error", className: "error", role: "alert" });
  const skillsLoaded = el("ul", { id: "skills-loaded" });
  const referencesRead = el("ul", { id: "references-read" });
  const forks = el("ul", { id: "forks" });
  const toolCalls = el("ul", { id: "tool-calls" });
  const outcomes = el("ul", { id: "outcome-evaluations" });
  // Each outcome evaluation by `<outcome id>:<iteration>`: `{iteration, state, requests, node}`.
  const evaluations = new Map();
  const confirmations = el("div", { id: "confirmations" });
  const input = el("textarea", { id: "chat-input", required: true, placeholder: "Write a message" });
  // Ctrl+Enter (⌘+Enter) sends; Enter alone is a new line.
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      input.form?.requestSubmit();
    }
  });
  const seen = new Set();
  const forkItems = new Map();
  // Tool calls by their event id: `{event, state, node}` (the side panel's line).
  const calls = new Map();
  // The waiting calls' cards by event id, while the session is idle on `requires_action`.
  const cards = new Map();

  const trackCall = (event) => {
    const call = { event, state: "running", node: el("li", {}) };
    if (event.id) calls.set(event.id, call);
    toolCalls.append(call.node);
    drawCall(call);
  };
  const setCallState = (id, state) => {
    const call = calls.get(id);
    if (!call) return;
    call.state = state;
    drawCall(call);
  };
  const sendEvents = async (events) => {
    const sent = await api(`/v1/sessions/${encodeURIComponent(id)}/events`, { json: { events } });
    for (const event of sent.data ?? []) show(event);
  };
  const syncCards = (waiting) => {
    for (const [eventId, card] of cards) {
      if (waiting.includes(eventId)) continue;
      card.remove();
      cards.delete(eventId);
    }
    for (const eventId of waiting) {
      if (cards.has(eventId)) continue;
      const card = confirmationCard(eventId, calls.get(eventId)?.event, async (answer) => {
        chatError.textContent = "";
        try {
          await sendEvents([{ type: "user.tool_confirmation", tool_use_id: eventId, ...answer }]);
        } catch (error) {
          chatError.textContent = `Could not answer: ${error.message}`;
          throw error;
        }
      });
      cards.set(eventId, card);
      confirmations.append(card);
    }
  };

  // Each fork (a child thread) by its id: `{name, status, events, last, result, node}`. Its status is what its
  // `session.thread_status_*` events say: running, done (idle after end_turn), failed (idle after any other stop
  // reason; its termination keeps "failed"), terminated (aborted), retrying.
  const forkItem = (threadId, name) => {
    let item = forkItems.get(threadId);
    if (!item) {
      item = {
        name: name ?? threadId,
        status: "created",
        events: 0,
        node: el("li", { className: "fork", "data-thread": threadId }),
        thread: threadId,
      };
      forkItems.set(threadId, item);
      forks.append(item.node);
    }
    if (name) item.name = name;
    return item;
  };
  const drawFork = (item) => {
    const last = item.last ? ` (last: ${item.last})` : "";
    const result = item.result ? ` → ${item.result}` : "";
    item.node.dataset.status = item.status;
    const block = threadBlocks.get(item.thread);
    if (block) block.summary.textContent = `Fork ${item.name}: ${item.status}, ${item.events} events`;
    item.node.textContent = `${item.name}: ${item.status}, ${item.events} events${last}${result}`;
  };
  const forkStatus = (item, event) => {
    const change = event.type.slice("session.thread_status_".length);
    if (change === "idle") return event.stop_reason?.type === "end_turn" ? "done" : "failed";
    if (change === "terminated") return item.status === "failed" ? "failed" : "terminated";
    if (change === "rescheduled") return "retrying";
    return change;
  };
  // An evaluation's line in the side panel: running (with the grader's requests so far), then its result.
  const evaluation = (event) => {
    const key = `${event.outcome_id}:${event.iteration}`;
    let item = evaluations.get(key);
    if (!item) {
      item = { iteration: event.iteration, state: "started", requests: 0, node: el("li", {}) };
      evaluations.set(key, item);
      outcomes.append(item.node);
    }
    return item;
  };
  const drawEvaluation = (item) => {
    const requests =
      item.requests > 0 ? ` (${item.requests} grader request${item.requests === 1 ? "" : "s"})` : "";
    item.node.dataset.result = item.result ?? "running";
    item.node.dataset.requests = String(item.requests);
    item.node.textContent = `Evaluation ${item.iteration + 1}: ${item.result ?? `${item.state}${requests}`}${item.explanation ? ` — ${item.explanation}` : ""}`;
  };
  // ---- the timeline: one entry per event, a fork's events nested in its thread, the newest TIMELINE_PAGE shown ----
  // The event being shown: its time, and its thread (a fork's entries go in the fork's block).
  let current = null;
  // Every top-level entry in order; while the stored history loads (`loading`), none is in the page yet, and
  // then only the newest TIMELINE_PAGE are (`shownFrom` is the first one shown): "Show earlier" adds a page.
  const entries = [];
  let loading = true;
  let shownFrom = 0;
  const earlier = el(
    "button",
    { type: "button", id: "timeline-earlier", className: "quiet", hidden: true },
    "Show earlier events",
  );
  const drawEarlier = () => {
    earlier.hidden = shownFrom === 0;
    earlier.textContent = `Show earlier events (${shownFrom} more)`;
  };
  earlier.addEventListener("click", () => {
    const from = Math.max(0, shownFrom - TIMELINE_PAGE);
    log.prepend(...entries.slice(from, shownFrom));
    shownFrom = from;
    drawEarlier();
  });
  const attachTail = () => {
    loading = false;
    shownFrom = Math.max(0, entries.length - TIMELINE_PAGE);
    log.append(...entries.slice(shownFrom));
    drawEarlier();
  };
  // Each fork's block in the timeline by thread id: `{node, summary, body}` (a `details` one opens to follow it).
  const threadBlocks = new Map();
  const addEntry = (node, thread) => {
    if (thread) {
      threadBlock(thread).body.append(node);
      return;
    }
    entries.push(node);
    if (!loading) log.append(node);
  };
  const threadBlock = (threadId) => {
    let block = threadBlocks.get(threadId);
    if (block) return block;
    const summary = el("summary", {}, "");
    const body = el("div", { className: "thread-events" });
    const node = el(
      "div",
      { className: "entry", "data-kind": "fork" },
      el("details", { className: "thread", "data-thread": threadId }, summary, body),
    );
    block = { node, summary, body };
    threadBlocks.set(threadId, block);
    summary.textContent = `Fork ${forkItem(threadId).name}: ${forkItem(threadId).status}`;
    addEntry(node, null);
    return block;
  };
  /** An entry of kind `kind` (the filters' names) whose `.event` has `className` and `children`. */
  const line = (kind, className, ...children) => {
    const event = el("div", { className: `event ${className}` }, ...children);
    const node = el("div", { className: "entry", "data-kind": kind }, timeText(current?.processed_at), event);
    addEntry(node, current?.session_thread_id);
    return node;
  };
  // Tokens: the current turn's and the session's, from each model request's `span.model_request_end`.
  // `input` counts cache writes too (as the total shows it); `cacheWrite` alone is kept for the cost.
  const noTokens = () => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  const tokens = { turn: noTokens(), total: noTokens() };
  const usageTotal = el("p", { id: "usage-total" }, "No model requests yet.");
  // The cost, only with a price table: for the agent's model, or a line saying the table has no price for it.
  const usageCost =
    price === undefined
      ? ""
      : el(
          "p",
          { id: "usage-cost" },
          price === null
            ? `No price for ${model} in the operator's price table.`
            : `Cost: $0.0000 (${model})`,
        );
  const tokenText = (t) =>
    `${t.input.toLocaleString()} in · ${t.output.toLocaleString()} out${t.cacheRead ? ` · ${t.cacheRead.toLocaleString()} cache read` : ""}`;
  const costText = (t) => {
    if (!price) return "";
    const usd =
      ((t.input - t.cacheWrite) * price.input +
        t.output * price.output +
        t.cacheRead * price.cache_read +
        t.cacheWrite * price.cache_write) /
      1_000_000;
    return `$${usd.toFixed(4)}`;
  };
  const countTokens = (usage) => {
    for (const bucket of [tokens.turn, tokens.total]) {
      bucket.input += (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0);
      bucket.output += usage?.output_tokens ?? 0;
      bucket.cacheRead += usage?.cache_read_input_tokens ?? 0;
      bucket.cacheWrite += usage?.cache_creation_input_tokens ?? 0;
    }
    usageTotal.textContent = `Total: ${tokenText(tokens.total)} tokens`;
    if (usageCost && price) usageCost.textContent = `Cost: ${costText(tokens.total)} (${model})`;
  };
  const endTurnUsage = () => {
    const turn = tokens.turn;
    if (turn.input + turn.output + turn.cacheRead === 0) return;
    line("usage", "usage", `Tokens this turn: ${tokenText(turn)}`, price ? ` · ${costText(turn)}` : "");
    tokens.turn = noTokens();
  };
  // Skill calls by their event id, for their mode: inline (no thread), fork (a thread of its name started before
  // its result) or background (its result is the handle of a fork that runs on).
  const skillCalls = new Map();
  const drawSkillMode = (call) => {
    if (call.modeNode) call.modeNode.textContent = call.mode ?? "";
  };

  const show = (event) => {
    if (event.id && seen.has(event.id)) return;
    if (event.id) seen.add(event.id);
    current = event;
    const thread = event.session_thread_id;
    const forkClass = thread ? " fork" : "";
    if (thread && !event.type.startsWith("session.thread_")) {
      const item = forkItem(thread);
      item.events++;
      item.last = event.type === "agent.tool_use" ? event.name : event.type;
      drawFork(item);
    }
    switch (event.type) {
      case "user.message":
        line("message", "user", "You: ", textOf(event.content));
        break;
      case "agent.message":
        line(
          "message",
          `agent${forkClass}`,
          thread ? `[${forkItem(thread).name}] ` : "",
          markdown(textOf(event.content)),
        );
        if (thread) {
          // A fork's last message is its answer (its result once it is done).
          const item = forkItem(thread);
          item.result = brief(textOf(event.content));
          drawFork(item);
        }
        break;
      case "agent.tool_use":
      case "agent.mcp_tool_use":
      case "agent.custom_tool_use": {
        const isSkill = event.name === "Skill" && event.input?.skill;
        const modeNode = isSkill ? el("span", { className: "badge skill-mode" }, "") : null;
        const result = el("pre", { className: "call-result" }, "(no result yet)");
        const entry = line(
          isSkill ? "skill" : "tool",
          `tool${forkClass}${isSkill ? " skill" : ""}`,
          `→ ${callName(event)} ${brief(event.input ?? {})}`,
        );
        if (modeNode) entry.querySelector(".event").append(" ", modeNode);
        entry.append(
          el(
            "details",
            { className: "call" },
            el("summary", {}, "Input and result"),
            el(
              "div",
              { className: "call-grid" },
              el(
                "div",
                {},
                el("h4", {}, "Input"),
                el("pre", { className: "call-input" }, JSON.stringify(event.input ?? {}, null, 2)),
              ),
              el("div", {}, el("h4", {}, "Result"), result),
            ),
          ),
        );
        trackCall(event);
        const call = event.id ? calls.get(event.id) : undefined;
        if (call) {
          call.entry = entry;
          call.result = result;
        }
        if (isSkill && event.id) {
          const skillCall = {
            name: event.input.skill,
            thread: thread ?? null,
            mode: null,
            modeNode,
            forkThread: null,
          };
          skillCalls.set(event.id, skillCall);
        }
        if (isSkill) {
          skillsLoaded.append(
            el("li", {}, `${event.input.skill}${event.input.args ? ` (${event.input.args})` : ""}`),
          );
        }
        if (event.name === "load_reference") {
          referencesRead.append(el("li", {}, `${event.input?.skill ?? "?"}: ${event.input?.name ?? "?"}`));
        }
        break;
      }
      case "agent.tool_result":
      case "agent.mcp_tool_result": {
        const useId = event.tool_use_id ?? event.mcp_tool_use_id;
        const call = calls.get(useId);
        const said = `← ${event.is_error ? "error " : ""}${brief(textOf(event.content) || "")}`;
        if (call?.entry) {
          call.entry
            .querySelector(".event")
            .after(el("div", { className: `event tool result${forkClass}` }, said));
          call.result.textContent = textOf(event.content) || "(empty)";
          call.entry.dataset.state = event.is_error ? "error" : "done";
        } else {
          line("tool", `tool${forkClass}`, said);
        }
        const skillCall = skillCalls.get(useId);
        if (skillCall) {
          // A background fork's caller is answered at once with its handle (src/fork/background.ts).
          const text = textOf(event.content);
          skillCall.mode = /started in the background/.test(text)
            ? "background"
            : skillCall.forkThread
              ? "fork"
              : event.is_error
                ? "failed"
                : "inline";
          drawSkillMode(skillCall);
        }
        setCallState(useId, event.is_error ? "error" : "done");
        break;
      }
      case "user.custom_tool_result":
        setCallState(event.custom_tool_use_id, event.is_error ? "error" : "done");
        break;
      case "user.interrupt":
        line("message", "user", "You stopped the turn.");
        break;
      case "user.tool_confirmation": {
        const name = calls.get(event.tool_use_id)?.event;
        const verb = event.result === "allow" ? "allowed" : "denied";
        const why = event.deny_message ? `: ${event.deny_message}` : "";
        line("tool", "user", `You ${verb} ${name ? callName(name) : event.tool_use_id}${why}`);
        setCallState(event.tool_use_id, verb);
        break;
      }
      case "session.thread_created": {
        drawFork(forkItem(event.session_thread_id, event.agent_name));
        threadBlock(event.session_thread_id);
        // The Skill call (not yet answered) that started it: the newest one naming this skill.
        for (const skillCall of [...skillCalls.values()].reverse()) {
          if (skillCall.name !== event.agent_name || skillCall.mode !== null || skillCall.forkThread)
            continue;
          skillCall.forkThread = event.session_thread_id;
          skillCall.mode = "fork";
          drawSkillMode(skillCall);
          break;
        }
        break;
      }
      case "span.model_request_end":
        countTokens(event.model_usage);
        break;
      case "session.thread_status_running":
      case "session.thread_status_idle":
      case "session.thread_status_rescheduled":
      case "session.thread_status_terminated": {
        const item = forkItem(event.session_thread_id, event.agent_name);
        item.status = forkStatus(item, event);
        drawFork(item);
        break;
      }
      case "session.status_running":
      case "session.status_idle":
      case "session.status_rescheduled":
      case "session.status_terminated": {
        if (thread) break;
        const waiting =
          event.stop_reason?.type === "requires_action" ? (event.stop_reason.event_ids ?? []) : [];
        for (const eventId of waiting) {
          const use = calls.get(eventId)?.event;
          setCallState(
            eventId,
            use?.type === "agent.custom_tool_use" ? "waiting for the application" : "waiting for you",
          );
        }
        syncCards(waiting);
        const action = waiting.length > 0 ? " (requires action)" : "";
        const state = event.type.slice("session.status_".length);
        if (state === "idle" || state === "terminated") endTurnUsage();
        status.textContent = `Status: ${state}${action}`;
        stop.disabled = state !== "running";
        break;
      }
      case "session.error":
        line("error", "error", `Error: ${event.error?.message ?? event.error?.type ?? "unknown"}`);
        break;
      case "user.define_outcome": {
        const most = event.max_iterations ? ` (at most ${event.max_iterations} evaluations)` : "";
        line("outcome", "user outcome", `Outcome: ${event.description}${most}`);
        break;
      }
      case "span.outcome_evaluation_start": {
        const item = evaluation(event);
        item.state = "grading";
        drawEvaluation(item);
        line("outcome", "outcome", `Evaluation ${event.iteration + 1} started`);
        break;
      }
      case "span.outcome_evaluation_ongoing": {
        const item = evaluation(event);
        item.requests++;
        drawEvaluation(item);
        break;
      }
      case "span.outcome_evaluation_end": {
        const item = evaluation(event);
        item.result = event.result;
        item.explanation = event.explanation;
        drawEvaluation(item);
        line(
          "outcome",
          "outcome",
          `Evaluation ${event.iteration + 1}: ${event.result}${event.explanation ? ` — ${event.explanation}` : ""}`,
        );
        break;
      }
      case "agent.thread_context_compacted":
        line("message", "tool", "(context compacted)");
        break;
      case "system.message":
        line("message", "tool", textOf(event.content) || brief(event));
        break;
      default:
        break;
    }
  };

  const abort = new AbortController();
  const stream = async () => {
    try {
      const response = await api(`/v1/sessions/${encodeURIComponent(id)}/events/stream`, {
        raw: true,
        signal: abort.signal,
        headers: { accept: "text/event-stream" },
      });
      log.dataset.stream = "open";
      for await (const message of sseMessages(response.body)) {
        try {
          show(JSON.parse(message.data));
        } catch {
          // A message that is not an event: skipped, as the SDK skips it.
        }
      }
      log.dataset.stream = "closed";
    } catch (error) {
      if (abort.signal.aborted) return;
      log.dataset.stream = "failed";
      chatError.textContent = `Event stream: ${error.message}`;
    }
  };

  const drawn = draw(
    session.title || session.id,
    trail(["Sessions", "/sessions"]),
    heading(session.title || session.id),
    el(
      "p",
      { className: "meta" },
      `Agent: ${session.agent?.name ?? ""} · `,
      link("What the model was given", modelInputPath(id), { id: "session-model-input" }),
    ),
    el(
      "div",
      { className: "actions" },
      session.archived_at
        ? el("span", { className: "badge" }, "Archived")
        : dangerButton("Archive", {
            attrs: { id: "session-archive" },
            title: "Archive this session?",
            text: "An archived session takes no more messages and leaves the Sessions list; its events are kept and the API still reads them.",
            action: "Archive session",
            run: () => api(`/v1/sessions/${encodeURIComponent(id)}/archive`, { method: "POST" }),
            after: () => navigate("/sessions"),
          }),
      dangerButton("Delete", {
        attrs: { id: "session-delete" },
        title: "Delete this session?",
        text: "The session and all its events are deleted for good. This cannot be undone.",
        action: "Delete session",
        run: () => api(`/v1/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
        after: () => navigate("/sessions"),
      }),
    ),
    el(
      "div",
      { className: "chat" },
      el(
        "section",
        { className: "conversation", "aria-label": "Conversation" },
        timelineFilters(log),
        earlier,
        log,
        confirmations,
        status,
        chatError,
        el(
          "form",
          {
            id: "chat-form",
            onsubmit: guarded(async () => {
              const text = input.value.trim();
              if (!text) return;
              chatError.textContent = "";
              try {
                await sendEvents([{ type: "user.message", content: [{ type: "text", text }] }]);
                input.value = "";
              } catch (error) {
                chatError.textContent = `Could not send: ${error.message}`;
              }
            }),
          },
          el("label", { for: "chat-input", className: "visually-hidden" }, "Message"),
          input,
          el(
            "div",
            { className: "chat-buttons" },
            el("button", { type: "submit", className: "primary" }, "Send"),
            stop,
          ),
        ),
        outcomeForm(sendEvents, (message) => {
          chatError.textContent = message;
        }),
      ),
      el(
        "aside",
        { className: "side", "aria-label": "Session details" },
        el("h3", {}, "Tokens"),
        usageTotal,
        usageCost,
        el("h3", {}, "Skills loaded"),
        skillsLoaded,
        el("h3", {}, "References read"),
        referencesRead,
        el("h3", {}, "Tool calls"),
        toolCalls,
        el("h3", {}, "Forks"),
        forks,
        el("h3", {}, "Outcome evaluations"),
        outcomes,
      ),
    ),
  );
  if (!drawn) return;
  chatAbort = abort;
  try {
    // The session's forks first (its threads but the primary one), so a history longer than what is read
    // below still lists every fork; the events then fill in their progress.
    for (const thread of await listAll(`/v1/sessions/${encodeURIComponent(id)}/threads`, 1000)) {
      if (thread.parent_thread_id === null) continue;
      const item = forkItem(thread.id, thread.agent?.name);
      item.status = thread.status === "idle" ? "done" : thread.status;
      drawFork(item);
    }
    for (const event of await listAll(`/v1/sessions/${encodeURIComponent(id)}/events`, 100_000, 1000))
      show(event);
  } catch (error) {
    chatError.textContent = sayError(error, "Could not read the session's events");
  } finally {
    current = null;
    attachTail();
  }
  stream();
}

// ---- what the model was given ----

const modelInputPath = (id) => `${sessionPath(id)}/model-input`;

/** What each `<system-reminder>` kind is, as the view names it. */
const REMINDER_KINDS = {
  listing: "Skill listing",
  delta: "Listing delta",
  reattached: "Skills re-attached after compaction",
  other: "Note",
};

/** What happened to a skill, in words. */
const SKILL_EVENT_WORDS = {
  inline: "expanded inline",
  fork: "run as a fork",
  expired: "expired (its expansion replaced by a stub)",
};

/** What a skill is now, in words. */
const SKILL_NOW_WORDS = { listed: "listed only", expanded: "expanded", forked: "forked", expired: "expired" };

/** Whose conversation carried something: the main agent's, or a fork's. */
function agentText(agentId) {
  return agentId ? `fork ${agentId}` : "main agent";
}

/**
 * A session's model input (`GET /v1/skillwright/sessions/<id>/model-input`, read from its stored transcript):
 * its skills and what became of them, each `<system-reminder>` block as sent (the listing, its deltas), the
 * skills' invocations and expiries, and each tool call beside the result the model was given. Every text is
 * put in the page as text.
 */
async function showModelInput([id], draw) {
  const [session, input] = await Promise.all([
    api(`/v1/sessions/${encodeURIComponent(id)}`),
    api(`/v1/skillwright/sessions/${encodeURIComponent(id)}/model-input`),
  ]);
  const title = session.title || session.id;
  const firstListing = input.reminders.findIndex((r) => r.kind === "listing");
  const reminders =
    input.reminders.length === 0
      ? el(
          "p",
          { className: "empty" },
          "No skill listing in the conversation yet (none was sent, or no turn has run).",
        )
      : el(
          "ol",
          { id: "model-reminders", className: "plain-list" },
          input.reminders.map((r, i) =>
            el(
              "li",
              { "data-kind": r.kind },
              el(
                "details",
                { className: "reminder", open: i === firstListing },
                el(
                  "summary",
                  {},
                  `${REMINDER_KINDS[r.kind] ?? r.kind} — ${agentText(r.agentId)}, `,
                  timeText(r.at),
                ),
                el("pre", { className: "reminder-text", tabindex: "0" }, r.text),
              ),
            ),
          ),
        );
  const skills =
    input.skills.length === 0
      ? el("p", { className: "empty" }, "No skill was listed or invoked.")
      : el(
          "div",
          { id: "model-skills" },
          table(
            ["Skill", "Listed", "Expanded inline", "Forked", "Expired", "Now"],
            input.skills.map((s) => [
              s.name,
              s.listed ? "yes" : "no",
              String(s.inline),
              String(s.forks),
              String(s.expired),
              SKILL_NOW_WORDS[s.now] ?? s.now,
            ]),
            "The session's skills",
          ),
        );
  const events =
    input.skillEvents.length === 0
      ? el("p", { className: "empty" }, "No skill was invoked.")
      : el(
          "ol",
          { id: "skill-events", className: "plain-list" },
          input.skillEvents.map((e) =>
            el(
              "li",
              { "data-kind": e.kind, "data-skill": e.name },
              timeText(e.at),
              " ",
              el("strong", {}, e.name),
              ` ${SKILL_EVENT_WORDS[e.kind] ?? e.kind}`,
              e.args ? ` (arguments: ${e.args})` : "",
              e.agentId ? ` by ${agentText(e.agentId)}` : "",
              e.forkId ? ` as ${agentText(e.forkId)}` : "",
              e.text
                ? el(
                    "details",
                    { className: "call" },
                    el("summary", {}, e.kind === "fork" ? "The fork's task" : "The text the model was given"),
                    el("pre", { className: "skill-text", tabindex: "0" }, e.text),
                  )
                : "",
            ),
          ),
        );
  const calls =
    input.calls.length === 0
      ? el("p", { className: "empty" }, "No tool call.")
      : el(
          "ol",
          { id: "model-calls", className: "plain-list" },
          input.calls.map((c) =>
            el(
              "li",
              {
                "data-call": c.id,
                "data-state": c.result === undefined ? "unanswered" : c.isError ? "error" : "done",
              },
              timeText(c.at),
              " ",
              el("strong", {}, c.name),
              ` — ${agentText(c.agentId)}${c.result === undefined ? ", no result" : c.isError ? ", error" : ""}`,
              el(
                "details",
                { className: "call" },
                el("summary", {}, "Input and result"),
                el(
                  "div",
                  { className: "call-grid" },
                  el(
                    "div",
                    {},
                    el("h4", {}, "Input"),
                    el(
                      "pre",
                      { className: "call-input", tabindex: "0" },
                      JSON.stringify(c.input ?? {}, null, 2),
                    ),
                  ),
                  el(
                    "div",
                    {},
                    el("h4", {}, "Result"),
                    el("pre", { className: "call-result", tabindex: "0" }, c.result ?? "(no result)"),
                  ),
                ),
              ),
            ),
          ),
        );
  const compacted = input.compactions.length;
  draw(
    `What the model was given — ${title}`,
    trail(["Sessions", "/sessions"], [title, sessionPath(id)]),
    heading("What the model was given"),
    el(
      "p",
      { className: "meta" },
      "From the session's stored conversation. The session's events as they happened are in ",
      link("its timeline", sessionPath(id), { id: "model-input-timeline" }),
      ".",
      compacted > 0 ? ` The conversation was compacted ${compacted} time${compacted === 1 ? "" : "s"}.` : "",
    ),
    el("section", { "aria-labelledby": "mi-skills" }, el("h3", { id: "mi-skills" }, "Skills"), skills),
    el(
      "section",
      { "aria-labelledby": "mi-listing" },
      el("h3", { id: "mi-listing" }, "Skill listing and deltas, as sent"),
      reminders,
    ),
    el(
      "section",
      { "aria-labelledby": "mi-events" },
      el("h3", { id: "mi-events" }, "Skills invoked and expired"),
      events,
    ),
    el(
      "section",
      { "aria-labelledby": "mi-calls" },
      el("h3", { id: "mi-calls" }, "Tool calls and their results"),
      calls,
    ),
  );
}

// ---- addresses ----

/**
 * The page's views by address: the first route whose `pattern` matches the path draws it, with the
 * pattern's groups (decoded) as its params. `section` is the main navigation's entry it belongs to. A new
 * view is one more row here (and its section in serve's `PAGE_SECTIONS`, src/serve/http/web-routes.ts, so a
 * reload of its address gets the page).
 */
const ROUTES = [
  { pattern: /^\/sessions$/, section: "sessions", show: showSessions },
  { pattern: /^\/sessions\/([^/]+)$/, section: "sessions", show: showChat },
  { pattern: /^\/sessions\/([^/]+)\/model-input$/, section: "sessions", show: showModelInput },
  { pattern: /^\/agents$/, section: "agents", show: showAgents },
  { pattern: /^\/skills$/, section: "skills", show: showSkills },
  { pattern: /^\/skills\/([^/]+)$/, section: "skills", show: showSkill },
  { pattern: /^\/skills\/([^/]+)\/versions\/([^/]+)$/, section: "skills", show: showVersion },
  { pattern: /^\/memory$/, section: "memory", show: showMemory },
  { pattern: /^\/memory\/([^/]+)$/, section: "memory", show: showStore },
  { pattern: /^\/memory\/([^/]+)\/([^/]+)$/, section: "memory", show: showMemoryItem },
  { pattern: /^\/files$/, section: "files", show: showFiles },
];

/** Where `/` goes. */
const HOME = "/skills";

/** The route for a path: `{route, params}`, the not-found view when none matches. */
function routeOf(path) {
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return { route: { section: null, show: showNotFound }, params: [] };
}

/** Counts route changes: a view's `draw` is void once another route has started. */
let routeToken = 0;

/** Draws the view at the current address; `focus` moves focus to its heading (after a link or back/forward). */
async function drawRoute({ focus = false } = {}) {
  if (location.pathname === "/") history.replaceState(null, "", HOME);
  const token = ++routeToken;
  const { route, params } = routeOf(location.pathname);
  for (const item of document.querySelectorAll("#nav [data-view]")) {
    if (item.dataset.view === route.section) item.setAttribute("aria-current", "page");
    else item.removeAttribute("aria-current");
  }
  // A view that takes a moment says so (not at once: a quick one would only flicker); drawn, it stays.
  let loading;
  const draw = (title, ...children) => {
    if (token !== routeToken) return false;
    clearTimeout(loading);
    render(title, ...children);
    if (focus) $("view").querySelector(".view-title")?.focus();
    return true;
  };
  clearError();
  loading = setTimeout(() => {
    if (token !== routeToken) return;
    render("Loading", el("p", { id: "loading", className: "loading", role: "status" }, "Loading…"));
  }, LOADING_DELAY_MS);
  try {
    await route.show(params, draw);
  } catch (error) {
    if (token !== routeToken) return;
    if (error instanceof ApiError && error.status === 404) {
      // An id that is not (or no longer) in this workspace: the not-found view, with the server's words.
      showNotFound(params, draw, error);
      return;
    }
    // The view could not be drawn (a lost connection, a server error): the address names it, the page says why.
    render(
      "Error",
      heading("This view could not be shown"),
      el(
        "p",
        { className: "hint" },
        "Try again: ",
        el("button", { type: "button", onclick: () => refresh() }, "Reload this view"),
      ),
    );
    showError(error, "Could not load this view");
  } finally {
    clearTimeout(loading);
  }
}

/** How long a view may take before the page shows "Loading…" in its place. */
const LOADING_DELAY_MS = 250;

/** Goes to one of the page's addresses: a new history entry, then its view. */
async function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, "", path);
  await drawRoute({ focus: true });
}

/** Draws the current view again (after a change it shows), keeping the address and the history. */
async function refresh() {
  await drawRoute();
}

/** A click on a link to one of the page's own addresses, without a modifier key: the router's. */
function onLinkClick(event) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!anchor || anchor.target || anchor.hasAttribute("download")) return;
  const href = anchor.getAttribute("href");
  if (!href?.startsWith("/") || href.startsWith("//") || href.startsWith("/v1/")) return;
  event.preventDefault();
  if (!apiKey()) return;
  guarded(() => navigate(href))();
}

// ---- sign in ----

function signedIn() {
  $("signin").hidden = true;
  $("nav").hidden = false;
}

function signedOut() {
  stopChat();
  routeToken++;
  sessionStorage.removeItem(KEY_STORAGE);
  $("signin").hidden = false;
  $("nav").hidden = true;
  $("view").hidden = true;
  $("view").replaceChildren();
  document.title = "Sign in — skillwright";
  clearError();
}

function start() {
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = $("api-key").value.trim();
    $("signin-error").textContent = "";
    try {
      await api("/v1/skills?limit=1", {}, key);
      sessionStorage.setItem(KEY_STORAGE, key);
      $("api-key").value = "";
      signedIn();
      // The view at the address the page was opened at.
      await drawRoute({ focus: true });
    } catch (error) {
      $("signin-error").textContent =
        error instanceof ApiError && error.status === 401
          ? `Sign-in failed: ${error.message}`
          : String(error);
    }
  });
  $("sign-out").addEventListener("click", signedOut);
  // The skip link moves focus to the main content without changing the address.
  $("skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    $("main").focus();
  });
  document.addEventListener("click", onLinkClick);
  window.addEventListener("popstate", () => {
    if (apiKey()) drawRoute({ focus: true });
  });
  if (apiKey()) {
    signedIn();
    drawRoute();
  } else {
    signedOut();
  }
}

start();
