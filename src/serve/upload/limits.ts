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

/** What one uploaded file (`client.beta.files.upload`) may hold; a bigger file is a 413 and nothing is stored. */
export const FILE_LIMITS = {
  /** The file's bytes: within the request body limit, with room for the multipart framing. */
  maxFileBytes: 30 * 1024 * 1024,
} as const;
