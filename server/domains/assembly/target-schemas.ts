// The fields of an input that names a target of comments or likes (issue 34): its type, its id (checked
// by the type's form: an assembly's uuid, a codex id), and a private assembly's password.
import { z } from 'zod';
import { TARGET_TYPES } from './targets';

export { checkTargetId, TARGET_TYPES, type TTargetType } from './targets';

const TYPES = TARGET_TYPES.join(', ');

export const ZTargetType = z
  .enum(TARGET_TYPES, { error: `must be one of ${TYPES}` })
  .meta({ description: `What it is of: ${TYPES} (as the web client sends them)` });

export const targetFields = {
  targetType: ZTargetType,
  targetId: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .max(100, 'must be at most 100 characters')
    .meta({
      description:
        "An assembly's uuid (targetType assembly), else the codex entry's id in the community data set (dhow, culverin1, ...)",
    }),
  password: z
    .string()
    .max(256, 'must be at most 256 characters')
    .optional()
    .meta({ description: "A private assembly's password (not needed by its creator)" }),
};
