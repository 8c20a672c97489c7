import { importOptional } from "../io/optional-package.js";
import type { ImageMediaType } from "./define-tool.js";
import type { ImageSize } from "./image-size.js";

/** An image scaled to fit a box: its bytes, in the type it came in, and its new size. */
export interface ScaledImage {
  bytes: Uint8Array;
  size: ImageSize;
}

/** Scales an image down to fit `box` (keeping its aspect ratio and its type). */
export type ImageScaler = (bytes: Uint8Array, type: ImageMediaType, box: ImageSize) => Promise<ScaledImage>;

/**
 * The default scaler: sharp (libvips, prebuilt for each platform), loaded on the first image too large to send,
 * so no other run pays for loading it.
 */
export const scaleWithSharp: ImageScaler = async (bytes, type, box) => {
  const { default: sharp } = await importOptional("sharp", () => import("sharp"));
  const resized = sharp(bytes, { animated: type === "image/gif" }).resize(box.width, box.height, {
    fit: "inside",
    withoutEnlargement: true,
  });
  const encoded =
    type === "image/png"
      ? resized.png()
      : type === "image/jpeg"
        ? resized.jpeg({ quality: 85 })
        : type === "image/webp"
          ? resized.webp()
          : resized.gif();
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { bytes: new Uint8Array(data), size: { width: info.width, height: info.pageHeight ?? info.height } };
};
