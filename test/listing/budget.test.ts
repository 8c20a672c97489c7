import { describe, expect, it } from "vitest";
import {
  charsPerToken,
  DEFAULT_LISTING_BUDGET,
  listingBudget,
  listingLimits,
  listingSettingsOf,
} from "../../src/listing/budget.js";

describe("listingBudget", () => {
  it.each([
    { case: "own env var", env: { SKILLWRIGHT_LISTING_BUDGET: "1234" }, window: 1_000_000, want: 1234 },
    {
      case: "own env var wins over Claude's",
      env: { SKILLWRIGHT_LISTING_BUDGET: "10", SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" },
      want: 10,
    },
    { case: "Claude Code env var", env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" }, want: 20 },
    {
      case: "invalid own env var ignored",
      env: { SKILLWRIGHT_LISTING_BUDGET: "lots", SLASH_COMMAND_TOOL_CHAR_BUDGET: "20" },
      want: 20,
    },
    { case: "negative ignored", env: { SKILLWRIGHT_LISTING_BUDGET: "-5" }, want: DEFAULT_LISTING_BUDGET },
    {
      case: "fraction text ignored",
      env: { SKILLWRIGHT_LISTING_BUDGET: "1.5" },
      want: DEFAULT_LISTING_BUDGET,
    },
    { case: "empty ignored", env: { SKILLWRIGHT_LISTING_BUDGET: "" }, want: DEFAULT_LISTING_BUDGET },
    { case: "zero is a budget", env: { SKILLWRIGHT_LISTING_BUDGET: "0" }, want: 0 },
    { case: "configured beats window", env: {}, configured: 500, window: 1_000_000, want: 500 },
    { case: "env beats configured", env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "7" }, configured: 500, want: 7 },
    { case: "1M window: × 3 chars/token × 1%", env: {}, window: 1_000_000, want: 30_000 },
    { case: "200k window: × 4 × 1%", env: {}, window: 200_000, want: 8_000 },
    { case: "2M window counts as large: × 3", env: {}, window: 2_000_000, want: 60_000 },
    { case: "500k window: × 4", env: {}, window: 500_000, want: 20_000 },
    { case: "floored", env: {}, window: 123_457, want: 4_938 },
    { case: "custom fraction, 200k", env: {}, window: 200_000, fraction: 0.02, want: 16_000 },
    { case: "custom fraction, 1M", env: {}, window: 1_000_000, fraction: 0.05, want: 150_000 },
    { case: "fraction 0 ignored", env: {}, window: 1_000_000, fraction: 0, want: 30_000 },
    { case: "fraction over 1 ignored", env: {}, window: 200_000, fraction: 2, want: 8_000 },
    { case: "NaN fraction ignored", env: {}, window: 200_000, fraction: Number.NaN, want: 8_000 },
    { case: "unknown window", env: {}, want: DEFAULT_LISTING_BUDGET },
    { case: "zero window is unknown", env: {}, window: 0, want: DEFAULT_LISTING_BUDGET },
  ])("$case", ({ env, window, fraction, configured, want }) => {
    expect(listingBudget({ env, contextWindowTokens: window, fraction, configured })).toBe(want);
  });
});

describe("charsPerToken", () => {
  it.each([
    [1_000_000, 3],
    [1_500_000, 3],
    [999_999, 4],
    [200_000, 4],
  ])("%i tokens → %i", (window, want) => {
    expect(charsPerToken(window)).toBe(want);
  });
});

describe("listingLimits: env, settings and window together", () => {
  it.each([
    { case: "nothing set, 1M", env: {}, settings: {}, window: 1_000_000, want: [30_000, 1_536] },
    { case: "nothing set, unknown window", env: {}, settings: {}, window: undefined, want: [8_000, 1_536] },
    {
      case: "skillListingBudgetFraction",
      env: {},
      settings: { skillListingBudgetFraction: 0.02 },
      window: 200_000,
      want: [16_000, 1_536],
    },
    {
      case: "skillListingMaxDescChars",
      env: {},
      settings: { skillListingMaxDescChars: 100 },
      window: 200_000,
      want: [8_000, 100],
    },
    {
      case: "skillListingBudget beats the fraction",
      env: {},
      settings: { skillListingBudget: 500, skillListingBudgetFraction: 0.5 },
      window: 1_000_000,
      want: [500, 1_536],
    },
    {
      case: "env beats every setting",
      env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: "42" },
      settings: { skillListingBudget: 500, skillListingBudgetFraction: 0.5 },
      window: 1_000_000,
      want: [42, 1_536],
    },
    {
      case: "a cap of 0 is ignored",
      env: {},
      settings: { skillListingMaxDescChars: 0 },
      window: 200_000,
      want: [8_000, 1_536],
    },
  ])("$case", ({ env, settings, window, want }) => {
    const got = listingLimits({ env, settings: listingSettingsOf(settings), contextWindowTokens: window });
    expect([got.budget, got.maxDescChars]).toEqual(want);
  });
});
