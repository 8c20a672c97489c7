import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import type { ImageMediaType } from "../../src/tools/define-tool.js";
import type { ImageScaler } from "../../src/tools/image-scale.js";
import { imageSize } from "../../src/tools/image-size.js";
import { createReadTool, READ_MAX_IMAGE_FILE_BYTES } from "../../src/tools/read.js";
import { ctxFor, makeTmp, removeTmp, textOf } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTmp();
});
afterEach(() => removeTmp(dir));

/** A real image of `width`×`height` in `type`, encoded by libvips. */
async function image(type: ImageMediaType, width: number, height: number, lossless = false): Promise<Buffer> {
  const made = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  switch (type) {
    case "image/png":
      return made.png().toBuffer();
    case "image/jpeg":
      return made.jpeg().toBuffer();
    case "image/gif":
      return made.gif().toBuffer();
    case "image/webp":
      return made.webp({ lossless }).toBuffer();
  }
}

function imageBlock(content: unknown): { media_type: string; data: Buffer } {
  const blocks = content as { type: string; source?: { media_type: string; data: string } }[];
  const block = blocks.find((b) => b.type === "image");
  if (block?.source === undefined) throw new Error("no image block");
  return { media_type: block.source.media_type, data: Buffer.from(block.source.data, "base64") };
}

describe("imageSize reads the pixel size each format's header declares", () => {
  const cases: [ImageMediaType, boolean][] = [
    ["image/png", false],
    ["image/jpeg", false],
    ["image/gif", false],
    ["image/webp", false],
    ["image/webp", true],
  ];
  it.each(cases)("%s (lossless webp: %s)", async (type, lossless) => {
    expect(imageSize(await image(type, 2345, 1234, lossless), type)).toEqual({ width: 2345, height: 1234 });
  });

  it("gives nothing for a header it cannot read", () => {
    expect(imageSize(Buffer.from("\x89PNG\r\n\x1a\n"), "image/png")).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x00]), "image/jpeg")).toBeUndefined();
    expect(imageSize(Buffer.from("RIFF\0\0\0\0WEBPVP8Z"), "image/webp")).toBeUndefined();
  });
});

describe("Read scales an image down to fit 2000x2000 (issue #31 item 4)", () => {
  const read = (file: string, scaleImage?: ImageScaler) =>
    createReadTool({ fs: createNodeFs(), scaleImage }).run({ file_path: file }, ctxFor(dir));

  it.each(["image/png", "image/jpeg", "image/webp", "image/gif"] as const)(
    "%s of 3000x1200 comes back as 2000x800 in its own type",
    async (type) => {
      const file = `wide.${type.slice(6)}`;
      await writeFile(path.join(dir, file), await image(type, 3000, 1200));
      const result = await read(file);
      expect(result.isError).toBe(false);
      expect(textOf(result)).toMatch(
        new RegExp(`^Read image ${file} \\[${type}, .*, scaled from 3000x1200 to 2000x800 `),
      );
      const sent = imageBlock(result.content);
      expect(sent.media_type).toBe(type);
      const meta = await sharp(sent.data).metadata();
      expect([meta.width, meta.height]).toEqual([2000, 800]);
      expect(meta.format).toBe(type === "image/jpeg" ? "jpeg" : type.slice(6));
    },
  );

  it("sends an image that fits as it is, without scaling it", async () => {
    const bytes = await image("image/png", 2000, 1999);
    await writeFile(path.join(dir, "fits.png"), bytes);
    let called = false;
    const result = await read("fits.png", async () => {
      called = true;
      throw new Error("not expected");
    });
    expect(called).toBe(false);
    expect(imageBlock(result.content).data.equals(bytes)).toBe(true);
    expect(textOf(result)).not.toContain("scaled");
  });

  it("scales a tall image by its height", async () => {
    await writeFile(path.join(dir, "tall.png"), await image("image/png", 500, 5000));
    const meta = await sharp(imageBlock((await read("tall.png")).content).data).metadata();
    expect([meta.width, meta.height]).toEqual([200, 2000]);
  });

  it("answers with an error naming the size when the image cannot be scaled", async () => {
    await writeFile(path.join(dir, "big.png"), await image("image/png", 4000, 100));
    const result = await read("big.png", async () => {
      throw new Error("no scaler here");
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Image big.png is 4000x100 pixels and could not be scaled down to fit 2000x2000: no scaler here",
    );
  });

  it("refuses an image file over the file limit before reading it", async () => {
    const file = path.join(dir, "huge.png");
    const header = await image("image/png", 10, 10);
    await writeFile(file, Buffer.concat([header, Buffer.alloc(READ_MAX_IMAGE_FILE_BYTES)]));
    const result = await read("huge.png");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Image huge\.png is 32\.0 MB, over the 32\.0 MB limit for image files\.$/,
    );
  });
});
