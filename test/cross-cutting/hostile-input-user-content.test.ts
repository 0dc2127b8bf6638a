/**
 * Hostile user content (issue 19), on REST and on its procedure over native tRPC: the nasty values of
 * hostile-input-fixtures.ts as the content of a comment on a real assembly and of its edit, as a
 * display name and an introduction, and hostile pictures as an avatar. Accepted text is stored as
 * given (normalised as the server's text rule says), a refusal is a 400 that changes nothing, and a
 * picture is refused or served only as its sniffed image type (nosniff, sandboxed). The fuzzing of
 * every endpoint is in hostile-input.test.ts.
 */
import * as assert from 'uvu/assert';
import { normaliseText } from '../../server/text';
import { Findings } from '../support/surface-compare';
import { hostileSuite, type TOperation } from './hostile-input-fixtures';
import { labelOf, refused, sendRest, sendTrpc, type TInput, WriteWatch } from './hostile-input-sending';
import { NASTY_VALUES } from './hostile-input-values';

const hostile = hostileSuite('hostile user content (issue 19), on REST and native tRPC');

hostile(
  'comments (issue 19): hostile content on a real assembly and comment, on REST and tRPC; accepted text is stored verbatim, refused writes change nothing',
  async (context) => {
    const findings = new Findings();
    const { app, userToken } = context;
    const published = await app.rest('POST', '/api/assembly/publish', {
      token: userToken,
      body: { name: 'Comment fuzz', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }] },
    });
    assert.is(published.status, 200, published.text);
    const targetId = published.body.data.uuid as string;
    const comment = await app.rest('POST', '/api/comment', {
      token: userToken,
      body: { targetType: 'assembly', targetId, content: 'to be edited' },
    });
    assert.is(comment.status, 200, comment.text);
    const byKey = new Map(context.operations.map((operation) => [operation.key, operation]));
    const create = byKey.get('POST /comment')!;
    const edit = byKey.get('POST /comment/edit')!;
    const accepted: string[] = [];
    for (const [operation, base] of [
      [create, { targetType: 'assembly', targetId }],
      [edit, { id: comment.body.data.id }],
    ] as const) {
      const watch = new WriteWatch(context, findings);
      for (const value of NASTY_VALUES) {
        const input: TInput = { path: {}, query: {}, body: { ...base, content: value } };
        for (const answer of [
          await sendRest(context, findings, watch, operation, input),
          ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
        ]) {
          const label = labelOf(operation, answer.surface, input.body);
          if (refused(answer)) {
            findings.expect(answer.status === 400, label, `refused with ${answer.status} ${answer.text.slice(0, 160)}`);
            continue;
          }
          const expected = typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : undefined;
          const content = (answer.data as { content?: unknown }).content;
          findings.expect(
            content === expected,
            label,
            `stored ${JSON.stringify(content)?.slice(0, 80)}, sent ${JSON.stringify(value)?.slice(0, 80)}`,
          );
          if (operation === create && typeof content === 'string') accepted.push(content);
        }
      }
    }
    findings.expect(
      accepted.includes('<script>alert(1)</script>') && accepted.includes("'; DROP TABLE users; --"),
      'POST /comment',
      'markup and SQL-looking text are plain text, accepted as written',
    );
    const listed = await app.rest(
      'GET',
      `/api/comment/comments?targetType=assembly&targetId=${targetId}&pageSize=100&sortOrder=asc`,
    );
    findings.expect(
      listed.status === 200 && /^application\/json/.test(listed.headers.get('content-type') ?? ''),
      'GET /comment/comments',
      `${listed.status} ${listed.headers.get('content-type')}`,
    );
    // Every comment but the edited one, oldest first: the accepted creates, in order, as written.
    const stored = (listed.body?.data?.data ?? [])
      .filter((item: { id: string }) => item.id !== comment.body.data.id)
      .map((item: { content: string }) => item.content);
    findings.expect(
      JSON.stringify(stored) === JSON.stringify(accepted),
      'GET /comment/comments',
      `lists exactly the accepted comments, verbatim: ${JSON.stringify(stored).slice(0, 200)} vs ${JSON.stringify(accepted).slice(0, 200)}`,
    );
    findings.assertNone();
  },
);

hostile(
  'profiles (issue 19): hostile display names and introductions are stored as given or refused (400, nothing changed); hostile pictures are refused or served only as their sniffed image type',
  async (context) => {
    const findings = new Findings();
    const { app, userToken } = context;
    const byKey = new Map(context.operations.map((operation) => [operation.key, operation]));
    const texts: [TOperation, (value: unknown) => unknown, (data: any) => unknown, (value: string) => unknown][] = [
      [
        byKey.get('PUT /user/changeAlternativeName')!,
        (value) => ({ username: value }),
        (data) => data.alternativeName,
        (value) => value.trim() || null,
      ],
      [
        byKey.get('POST /user/me')!,
        (value) => ({ attr: { introduction: value } }),
        (data) => data.attr.introduction,
        (value) => normaliseText(value, 'multiline'),
      ],
    ];
    for (const [operation, bodyOf, read, expected] of texts) {
      const watch = new WriteWatch(context, findings);
      for (const value of NASTY_VALUES) {
        const input: TInput = { path: {}, query: {}, body: bodyOf(value) };
        for (const answer of [
          await sendRest(context, findings, watch, operation, input),
          ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
        ]) {
          const label = labelOf(operation, answer.surface, input.body);
          if (refused(answer))
            findings.expect(answer.status === 400, label, `refused with ${answer.status} ${answer.text.slice(0, 160)}`);
          else
            findings.expect(
              typeof value === 'string' && read(answer.data) === expected(value),
              label,
              `stored ${JSON.stringify(read(answer.data))?.slice(0, 80)}`,
            );
        }
      }
    }
    const { FAKE_PNG_HTML, PNG_1X1, PNG_HEADER_THEN_HTML, SVG, pngOfSize } = await import('../user/images');
    const pictures: [string, string, Buffer][] = [
      ['a PNG signature before HTML', 'image/png', FAKE_PNG_HTML],
      ['SVG with a script', 'image/svg+xml', SVG],
      ['SVG declared as PNG', 'image/png', SVG],
      ['HTML', 'text/html', Buffer.from('<script>alert(1)</script>')],
      ['a truncated PNG', 'image/png', PNG_1X1.subarray(0, 20)],
      ['a bare GIF signature', 'image/gif', Buffer.from('GIF89a')],
      [
        'a WebP without its VP8 chunk',
        'image/webp',
        Buffer.from('RIFF\x10\x00\x00\x00WEBPJUNKJUNKJUNKJUNKJUNK', 'latin1'),
      ],
      ['a JPEG of fill bytes only', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(4096, 0xff)])],
      [
        'a JPEG segment of length 0',
        'image/jpeg',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0]),
      ],
      ['a PNG of 0 × 0 pixels', 'image/png', pngOfSize(0, 0)],
      ['a PNG of 2^32 - 1 pixels a side', 'image/png', pngOfSize(0xffffffff, 0xffffffff)],
      ['a real PNG header before HTML', 'image/png', PNG_HEADER_THEN_HTML],
    ];
    const operation = byKey.get('PUT /user/avatar')!;
    const watch = new WriteWatch(context, findings);
    for (const [name, type, bytes] of pictures) {
      const input: TInput = { path: {}, query: {}, body: { image: `data:${type};base64,${bytes.toString('base64')}` } };
      for (const answer of [
        await sendRest(context, findings, watch, operation, input),
        ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
      ]) {
        const label = `PUT /user/avatar on ${answer.surface}: ${name}`;
        if (refused(answer)) {
          findings.expect(
            [400, 413, 415].includes(answer.status!),
            label,
            `refused with ${answer.status} ${answer.text.slice(0, 160)}`,
          );
          continue;
        }
        // Accepted only as a PNG by its bytes, and then served as one, never sniffed into anything else.
        const served = await fetch(`${app.url}${(answer.data as { userAvatar: string }).userAvatar}`, {
          headers: { authorization: `Bearer ${userToken}` },
        });
        await served.arrayBuffer();
        findings.expect(name === 'a real PNG header before HTML', label, 'accepted');
        findings.expect(
          served.headers.get('content-type') === 'image/png' &&
            served.headers.get('x-content-type-options') === 'nosniff',
          label,
          `served as ${served.headers.get('content-type')}`,
        );
        findings.expect(
          /sandbox/.test(served.headers.get('content-security-policy') ?? ''),
          label,
          'served without the sandbox CSP',
        );
      }
    }
    findings.assertNone();
  },
);

hostile.run();
