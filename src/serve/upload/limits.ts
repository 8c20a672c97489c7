/** What one skill upload may hold; past any of these the request is refused with a 4xx. */
export const UPLOAD_LIMITS = {
  /** The request body (multipart or zip). A bigger body is a 413. */
  maxBodyBytes: 32 * 1024 * 1024,
  /** Files in the skill (zip entries included). */
  maxFiles: 1_000,
  /** All files together, uncompressed. */
  maxTotalBytes: 30 * 1024 * 1024,
  /** Uncompressed over compressed size of one zip entry of more than `ratioFloorBytes`: a zip bomb. */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
} as const;
