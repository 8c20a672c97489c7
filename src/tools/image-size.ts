import type { ImageMediaType } from "./define-tool.js";

/** An image's size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2);
const tag = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

function pngSize(b: Uint8Array): ImageSize | undefined {
  return tag(b, 12) === "IHDR" ? { width: u32be(b, 16), height: u32be(b, 20) } : undefined;
}

function gifSize(b: Uint8Array): ImageSize | undefined {
  return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
}

function webpSize(b: Uint8Array): ImageSize | undefined {
  switch (tag(b, 12)) {
    case "VP8 ":
      return b.length >= 30 ? { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff } : undefined;
    case "VP8L": {
      if (b.length < 25) return undefined;
      const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case "VP8X":
      return b.length >= 30 ? { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 } : undefined;
    default:
      return undefined;
  }
}

/** A JPEG's size from its first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC, which share the range). */
function jpegSize(b: Uint8Array): ImageSize | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: u16be(b, at + 7), height: u16be(b, at + 5) };
    at += 2 + u16be(b, at + 2);
  }
  return undefined;
}

/** The pixel size an image's header declares, or undefined when the header is not one we can read. Pure. */
export function imageSize(bytes: Uint8Array, type: ImageMediaType): ImageSize | undefined {
  switch (type) {
    case "image/png":
      return pngSize(bytes);
    case "image/gif":
      return gifSize(bytes);
    case "image/webp":
      return webpSize(bytes);
    case "image/jpeg":
      return jpegSize(bytes);
  }
}
