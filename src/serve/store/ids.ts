import { createHash, randomBytes } from "node:crypto";

/** A new id: the type's prefix and 24 random base62-ish characters (`skill_01…`). */
export function newId(prefix: string): string {
  return `${prefix}_01${randomBytes(18).toString("base64url").replace(/[-_]/g, "x").slice(0, 22)}`;
}

/** A new API key: 32 random bytes (256 bits), so a plain hash of it cannot be brute-forced. */
export function newApiKey(): string {
  return `sk-sw-${randomBytes(32).toString("base64url")}`;
}

/**
 * The stored form of an API key: SHA-256, hex. A slow password hash (scrypt, bcrypt) protects guessable
 * secrets; these keys are 256 random bits, so a fast hash is as safe and lets every request find its key with
 * one indexed lookup. The key itself is never stored.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
