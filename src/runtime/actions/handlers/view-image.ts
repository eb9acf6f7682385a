// view_image: what an image file is (format, pixel size, bytes), read from its header. Images are
// not sent to models yet, and the result says so, so the model does not act as if it saw one.

import { z } from 'zod';
import { specOf } from '../tool-spec.js';
import type { ActionHandler } from '../types.js';
import { readImageHeader } from './image-header.js';

const input = z.object({ path: z.string().min(1).describe('The image file, relative to the workspace root.') }).strict();

export const NOT_SENT_NOTE = 'The picture itself is not shown to you: this runtime does not send images to models yet.';

export const viewImageHandler: ActionHandler<typeof input> = {
  spec: specOf('view_image', 'Describe an image file in the workspace (PNG, JPEG or GIF): its format, size in pixels and bytes. The pixels are not sent to the model.', input),
  input,
  async run(args, ctx) {
    const bytes = await ctx.env.readBytes(args.path);
    const header = readImageHeader(bytes);
    if (!header) {
      const first = Buffer.from(bytes.subarray(0, 8)).toString('hex').replace(/(..)/g, '$1 ').trim();
      return { isError: true, content: `${args.path} is not a PNG, JPEG or GIF image (first bytes: ${first || 'none, the file is empty'}).` };
    }
    const size = bytes.length;
    return {
      content: `${args.path}: ${header.format} image, ${header.width}×${header.height} pixels, ${size} bytes. ${NOT_SENT_NOTE}`,
      data: { path: args.path, format: header.format, width: header.width, height: header.height, bytes: size, sentToModel: false },
    };
  },
};
