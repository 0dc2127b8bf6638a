// The web client's profile edits (issue 19; account/Information.vue): its attr form, display name
// and password change, at the paths and in the shapes it sends.
import { authedProcedure, router } from '../../../trpc';
import { changePassword } from '../account';
import { changeAlternativeName, updateProfileAttr } from '../profile';
import {
  MAX_ALTERNATIVE_NAME,
  MAX_INTRODUCTION,
  ZChangeAlternativeNameInput,
  ZClientChangePasswordInput,
  ZProfile,
  ZSignedIn,
  ZUpdateMeInput,
} from '../schemas';

const update = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/user/me',
      tags: ['user'],
      protect: true,
      summary: 'Edit your profile: introduction and language',
      description:
        `The web client's form: \`{ attr: { introduction, language } }\`. A field left out is unchanged, '' clears it. introduction is plain text of at most ${MAX_INTRODUCTION} characters; ` +
        'language a tag such as en-US or zh-CN. Any other key is a 400. Answers your profile as GET /user/me.',
    },
  })
  .input(ZUpdateMeInput)
  .output(ZProfile)
  .mutation(({ input, ctx }) => updateProfileAttr(ctx.deps, { userId: ctx.user.id, attr: input.attr }));

const changeDisplayName = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/user/changeAlternativeName',
      tags: ['user'],
      protect: true,
      summary: 'Set your display name (alternativeName)',
      description:
        `The web client sends the new display name as \`username\`; your sign-in name does not change. At most ${MAX_ALTERNATIVE_NAME} characters (trimmed), ` +
        "no control, invisible or blank characters; '' removes it (clients then show the username). " +
        "409 when it looks like another account's username, ignoring case and Unicode's confusables (your own is fine). Answers your profile.",
    },
  })
  .input(ZChangeAlternativeNameInput)
  .output(ZProfile)
  .mutation(({ input, ctx }) => changeAlternativeName(ctx.deps, { userId: ctx.user.id, name: input.username }));

const changePasswordForm = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/user/changePassword',
      tags: ['user'],
      protect: true,
      summary: "Change password (the web client's form of POST /user/password)",
      description:
        '`{ oldPassword, newPassword }`: the same change as POST /user/password, with the same rules. A wrong oldPassword is a 403 and counts like a failed sign-in ' +
        '(too many lock the account out: 429); all existing tokens of the account stop working, and the answer carries a new one.',
    },
  })
  .input(ZClientChangePasswordInput)
  .output(ZSignedIn)
  .mutation(({ input, ctx }) => changePassword(ctx.deps, { ...input, userId: ctx.user.id }));

export const profileRouter = router({
  update,
  changeAlternativeName: changeDisplayName,
  changePassword: changePasswordForm,
});
