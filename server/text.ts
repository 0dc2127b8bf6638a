/**
 * The one rule for free text: every field a person types (names, titles, descriptions, tags,
 * comments, profile texts) and every text an import brings in (event titles, campaign and company
 * names) goes through `zText`, so that no field lets through what another refuses.
 *
 * - Stored and answered as given, never HTML: the rule refuses, it does not rewrite, except that it
 *   trims the ends and, in multi-line text, turns CRLF, CR, U+2028 and U+2029 into LF.
 * - Refused everywhere: control characters (C0, DEL and C1; tab and LF only in multi-line text) and
 *   unpaired surrogates, which a JSON encoder or a database would turn into U+FFFD.
 * - A single line refuses line breaks of every kind.
 * - A name (display names) also refuses invisible characters (Unicode's Default_Ignorable_Code_Point:
 *   zero-width and bidi controls, fillers, variation selectors, the combining grapheme joiner),
 *   blank symbols that show as nothing (U+2800 BRAILLE PATTERN BLANK) and every space but U+0020, so
 *   that a name cannot pass for another through characters nobody sees.
 * - Lengths count UTF-16 code units (JavaScript's `length`, what an HTML `maxlength` counts), after
 *   normalisation. Input longer than four times the limit is refused before it is normalised.
 */
import { z } from 'zod';

export type TTextKind = 'name' | 'line' | 'multiline';

export interface TTextRule {
  /** At most this many UTF-16 code units after normalisation. */
  max: number;
  /** At least this many (default 0: the empty string passes; `1` for a required text). */
  min?: number;
  /** `line` (the default): one line; `multiline`: tab and line breaks kept; `name`: one line, nothing invisible. */
  kind?: TTextKind;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const CONTROL_IN_MULTILINE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const LINE_SEPARATORS = /[\u2028\u2029]/;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Invisible (Default_Ignorable_Code_Point), blank-looking symbols, and spaces other than U+0020. */
const HIDDEN_IN_NAME = /[\p{Default_Ignorable_Code_Point}\u2800\p{Zs}\p{Zl}\p{Zp}]/u;

/** What `text` breaks of the rule, or undefined when it passes. `text` is already normalised. */
export function textProblem(text: string, rule: TTextRule): string | undefined {
  const kind = rule.kind ?? 'line';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be well-formed Unicode (no unpaired surrogates)';
  if (kind === 'multiline') {
    if (CONTROL_IN_MULTILINE.test(text)) return 'must not contain control characters (other than tab and line breaks)';
  } else {
    if (CONTROL_IN_LINE.test(text) || LINE_SEPARATORS.test(text)) return 'must be one line without control characters';
    if (kind === 'name' && HIDDEN_IN_NAME.test(text.replaceAll(' ', ''))) {
      return 'must not contain invisible, blank or separator characters (spaces other than U+0020)';
    }
  }
  if (text.length < (rule.min ?? 0))
    return rule.min === 1 ? 'must not be empty' : `must be at least ${rule.min} characters`;
  if (text.length > rule.max) return `must be at most ${rule.max} characters`;
  return undefined;
}

/** Trims, and in multi-line text turns every line break into LF. */
export function normaliseText(text: string, kind: TTextKind = 'line'): string {
  return (kind === 'multiline' ? text.replace(/\r\n?|[\u2028\u2029]/g, '\n') : text).trim();
}

/** A free-text field under the one rule: the normalised text, or a 400 naming what is wrong. */
export function zText(rule: TTextRule) {
  const kind = rule.kind ?? 'line';
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .transform((raw, ctx) => {
      if (raw.length > 4 * rule.max + 16) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${rule.max} characters` });
        return z.NEVER;
      }
      const text = normaliseText(raw, kind);
      const problem = textProblem(text, rule);
      if (problem === undefined) return text;
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    })
    .meta({ maxLength: rule.max, ...(rule.min ? { minLength: rule.min } : {}) });
}
