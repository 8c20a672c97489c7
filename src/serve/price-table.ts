import { isRecord } from "../is-record.js";

/** What one model costs, in US dollars per million tokens of each kind `span.model_request_end` counts. */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

/** The operator's prices by model id (`serve --prices FILE`): the web page shows costs only when there is one. */
export type PriceTable = Record<string, ModelPrice>;

const PRICE_KEYS = ["input", "output", "cache_read", "cache_write"] as const;

/** A bad price table: what is wrong and where (`source`, then the model and field). */
export class PriceTableError extends Error {}

/**
 * The price table in `text` (JSON: `{ "<model id>": { "input": 3, "output": 15, "cache_read": 0.3,
 * "cache_write": 3.75 } }`, US dollars per million tokens), or a `PriceTableError` naming `source`, the model
 * and the field at fault: not JSON, not an object, no model, an unknown or missing field, a price that is not a
 * finite number of at least 0. Every field is required: a price left out would be shown as free. Pure.
 */
export function parsePriceTable(text: string, source: string): PriceTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PriceTableError(
      `${source}: not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const example = '{"claude-sonnet-4-6": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}}';
  if (!isRecord(parsed)) {
    throw new PriceTableError(`${source}: a price table is a JSON object of models, such as ${example}`);
  }
  const models = Object.entries(parsed);
  if (models.length === 0) throw new PriceTableError(`${source}: names no model, such as ${example}`);
  const table: PriceTable = {};
  for (const [model, price] of models) {
    if (model.trim() === "") throw new PriceTableError(`${source}: a model id is empty`);
    if (!isRecord(price)) {
      throw new PriceTableError(
        `${source}: "${model}" must be an object with ${PRICE_KEYS.join(", ")} (US dollars per million tokens)`,
      );
    }
    const unknown = Object.keys(price).find((key) => !(PRICE_KEYS as readonly string[]).includes(key));
    if (unknown !== undefined) {
      throw new PriceTableError(
        `${source}: "${model}" has an unknown field "${unknown}" (the fields are ${PRICE_KEYS.join(", ")})`,
      );
    }
    const field = (key: (typeof PRICE_KEYS)[number]) => fieldPrice(source, model, price[key], key);
    table[model] = {
      input: field("input"),
      output: field("output"),
      cache_read: field("cache_read"),
      cache_write: field("cache_write"),
    };
  }
  return table;
}

/** One field of a model's price: a finite number of at least 0, else a `PriceTableError`. Pure. */
function fieldPrice(source: string, model: string, value: unknown, key: string): number {
  if (value === undefined) {
    throw new PriceTableError(`${source}: "${model}" has no "${key}" price (US dollars per million tokens)`);
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new PriceTableError(
      `${source}: "${model}".${key} must be a number of US dollars per million tokens, 0 or more (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}
