// The input of POST /assembly/fork (issue 19: forks); the answer is publish's (ZPublished).
import { z } from 'zod';
import { ZAssemblyUuid } from './fields';

export const ZForkInput = z.strictObject({
  uuid: ZAssemblyUuid.meta({ description: 'The assembly to fork: public, or private with its password (or yours)' }),
  password: z
    .string()
    .max(256)
    .optional()
    .meta({ description: "A private assembly's password (not needed by its creator)" }),
});
