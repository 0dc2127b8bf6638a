/**
 * Schemas of avatars (issue 19): PUT /user/avatar takes an https URL or an uploaded image (base64,
 * as a data URL or with its contentType: a JSON body both surfaces carry); GET /user/avatar/{userId}
 * serves an uploaded one. Limits here; the bytes are judged in avatar.ts (size 413, type 415).
 */
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { AVATAR_TYPES, MAX_AVATAR_SIDE, MAX_PIXELS_PER_BYTE } from './image';

/** The most bytes an uploaded avatar may have, decoded: far below the 1 MiB request body limit. */
export const MAX_AVATAR_BYTES = 256 * 1024;
export const MAX_AVATAR_URL = 2048;
/** The image field is bounded by the request body (1 MiB) anyway; its size is judged decoded (413). */
const MAX_IMAGE_FIELD = 1024 * 1024;

/**
 * Addresses of the viewer's own machine or network: unspecified, loopback, link-local, private (RFC
 * 1918), shared (CGNAT, 100.64/10); in IPv6 the same (`::/96` holds `::`, `::1` and the deprecated
 * IPv4-compatible form), site-local and unique-local. BlockList checks an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`) against the IPv4 rules.
 */
const LOCAL_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96],
  ['fe80::', 10],
  ['fec0::', 10],
  ['fc00::', 7],
] as const)
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv6');

/** Names that resolve on the viewer's own machine or network: localhost, mDNS, private-use and home domains. */
const LOCAL_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

/**
 * Whether a URL's host is on the viewer's own machine or network, where no avatar is and where every
 * viewer's browser would send a request of its own. `hostname` is as URL parsing leaves it: IPv4 in
 * its dotted form whatever was written (`2130706433`, `0x7f.1`), IPv6 in brackets, names lower-cased.
 * A name of one label (`https://router/`) is resolved through the viewer's own search domains.
 */
function isLocalHost(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname.replace(/\.$/, '');
  const version = isIP(host);
  if (version !== 0) return LOCAL_NETWORKS.check(host, version === 4 ? 'ipv4' : 'ipv6');
  if (!host.includes('.')) return true;
  return LOCAL_NAME_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/**
 * Why a URL cannot be an avatar, or undefined when it can: an absolute https URL without credentials,
 * spaces or control characters, on a public host.
 */
function avatarUrlProblem(value: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials (user:password@)';
  if (url.hostname === '') return 'must name a host';
  if (isLocalHost(url.hostname)) {
    return `must name a public host, not ${url.hostname}: loopback, private, link-local and local-network hosts (localhost, 10.x, 192.168.x, [::1], ...) are refused`;
  }
  return undefined;
}

const ZAvatarUrl = z
  .string()
  .max(MAX_AVATAR_URL, `must be at most ${MAX_AVATAR_URL} characters`)
  .superRefine((value, ctx) => {
    const problem = avatarUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  // As a browser reads it (host lower-cased, punycode), so the answer is the URL it will fetch.
  .transform((value) => (URL.canParse(value) ? new URL(value).href : value));

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data URL's media type and base64 payload (`data:image/png;base64,...`), or undefined when it is not one in base64. */
function parseDataUrl(value: string): { type: string; base64: string } | undefined {
  const comma = value.indexOf(',');
  if (comma < 0 || comma > 200) return undefined;
  const [type, ...params] = value.slice(5, comma).split(';');
  if (params.at(-1)?.toLowerCase() !== 'base64') return undefined;
  return { type: (type ?? '').trim().toLowerCase(), base64: value.slice(comma + 1) };
}

/** What the avatar service takes: a URL, or an image's declared type and its base64 bytes. */
export type TAvatarChange = { kind: 'url'; url: string } | { kind: 'image'; declaredType: string; base64: string };

export const ZAvatarInput = z
  .strictObject({
    url: ZAvatarUrl.optional().meta({
      description: `An https URL of a picture on a public host (at most ${MAX_AVATAR_URL} characters, no credentials)`,
    }),
    image: z
      .string()
      .max(MAX_IMAGE_FIELD)
      .optional()
      .meta({
        description:
          `An uploaded picture in base64: a data URL (\`data:image/png;base64,…\`) or bare base64 with contentType. PNG, JPEG, WebP or GIF, ` +
          `at most ${MAX_AVATAR_BYTES} bytes decoded (413), ${MAX_AVATAR_SIDE} pixels a side and ${MAX_PIXELS_PER_BYTE} pixels a byte; its type is read from its bytes (415 when not one of these, or not the declared one)`,
      }),
    contentType: z
      .string()
      .max(100)
      .optional()
      .meta({ description: 'The type of a bare base64 image: image/png, image/jpeg, image/webp or image/gif' }),
  })
  .transform((input, ctx): TAvatarChange => {
    if ((input.url === undefined) === (input.image === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'send either url or image' });
      return z.NEVER;
    }
    if (input.url !== undefined) {
      if (input.contentType !== undefined)
        ctx.addIssue({ code: 'custom', path: ['contentType'], message: 'goes only with image' });
      return { kind: 'url', url: input.url };
    }
    const image = input.image!;
    const dataUrl = image.toLowerCase().startsWith('data:') ? parseDataUrl(image) : undefined;
    if (image.toLowerCase().startsWith('data:') && !dataUrl) {
      ctx.addIssue({
        code: 'custom',
        path: ['image'],
        message: 'must be a base64 data URL (data:<type>;base64,<data>)',
      });
      return z.NEVER;
    }
    if (dataUrl && input.contentType !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['contentType'],
        message: 'give the type once: in the data URL or in contentType',
      });
      return z.NEVER;
    }
    if (!dataUrl && input.contentType === undefined) {
      ctx.addIssue({ code: 'custom', path: ['contentType'], message: 'is required with a bare base64 image' });
      return z.NEVER;
    }
    const base64 = dataUrl?.base64 ?? image;
    if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) {
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'must be base64 (A-Z a-z 0-9 + /, padded with =)' });
      return z.NEVER;
    }
    return { kind: 'image', declaredType: dataUrl?.type ?? input.contentType!.trim().toLowerCase(), base64 };
  });

export const ZAvatarRef = z.strictObject({
  userId: z.string().min(1, 'is required').max(64).meta({ description: 'The user whose avatar it is (their id)' }),
  v: z.string().max(64).optional().meta({
    description: 'The version in the userAvatar path: with the current one the answer may be cached for a day',
  }),
});

export const ZAvatarImage = z.object({
  userId: z.string().meta({ description: 'The user whose avatar it is' }),
  contentType: z.enum(AVATAR_TYPES).meta({ description: 'The type read from the bytes when they were uploaded' }),
  base64: z.string().meta({ description: 'The picture (native tRPC; REST sends the bytes themselves)' }),
  etag: z.string().meta({ description: 'SHA-256 of the bytes, hex' }),
  versioned: z.boolean().meta({ description: 'The request named the current version (v)' }),
});
export type TAvatarImage = z.infer<typeof ZAvatarImage>;
