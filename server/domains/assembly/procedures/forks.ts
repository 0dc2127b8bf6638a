// Forks (issue 19): POST /assembly/fork. The web client only shows a fork's credit (Detail.vue:
// `cloningUuid`, a link to the original); it sends no `cloningUuid` when it publishes, so a fork is
// made here, by copying, and then changed with the ordinary edit.
import { authedProcedure } from '../../../trpc';
import { passwordGuesses } from '../access';
import { ZForkInput } from '../fork-schemas';
import { forkAssembly } from '../forks';
import { ZPublished } from '../schemas';

export const fork = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/fork',
      tags: ['assembly'],
      protect: true,
      summary: 'Fork an assembly: a copy of your own that credits the original',
      description:
        "Copies an assembly you can read (a private one: with its password, or as its creator) into a new one of yours: the name, loadout, description, tags and the web client's parts as they are, " +
        'the same visibility, no password (a private original gives a private fork only you can read), no likes, ratings or views. ' +
        "The fork's cloningUuid is the original's uuid (while the original exists); the original's forkCount counts forks by other users that are not purged (your own forks are credited, not counted). " +
        'Change the fork with POST /assembly/edit. Answers as publish does. 404: unknown or in the trash; 403: private without its password; 429: over the fork limit (RATE_LIMIT_FORKS per hour).',
    },
  })
  .input(ZForkInput)
  .output(ZPublished)
  .mutation(({ input, ctx }) =>
    forkAssembly(ctx.deps, {
      userId: ctx.user.id,
      uuid: input.uuid,
      password: input.password,
      guesses: passwordGuesses(ctx),
    }),
  );
