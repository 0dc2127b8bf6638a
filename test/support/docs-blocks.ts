/**
 * The fenced code blocks of README.md and docs/*.md, as the docs test reads them (the convention is stated
 * near the top of README.md): a block fenced ```sh or ```bash is run, in order, against a fresh server;
 * ```sh illustrative (or bash, shell, console followed by `illustrative`) is only read; ```sh self-host,
 * the README's self-hoster block, is run by test/platform/binary.test.ts with the single executable. Any
 * other shell block is unmarked, which the test refuses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TDocBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The fence's info string, e.g. `sh` or `sh illustrative`. */
  info: string;
  body: string;
}

export type TShellBlockKind = 'run' | 'illustrative' | 'self-host' | 'unmarked';

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
const RUN_LANGUAGES = new Set(['sh', 'bash']);
const FENCE = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;

/** README.md, then docs/*.md in name order, relative to `root`. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The fenced blocks of one Markdown file, in order (a fence indented in a list item is one too). */
export function fencedBlocks(root: string, file: string): TDocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: TDocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = FENCE.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, fence, info] = opening as unknown as [string, string, string, string];
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const closing = FENCE.exec(lines[end]!);
      if (closing && closing[2]!.startsWith(fence) && closing[3] === '') break;
      body.push(lines[end]!.startsWith(indent) ? lines[end]!.slice(indent.length) : lines[end]!.trimStart());
    }
    blocks.push({ file, line: index + 1, info: info.trim(), body: body.join('\n') });
    index = end;
  }
  return blocks;
}

/** Whether a block is run, only read, or a shell block marked neither way; undefined when it is no shell block. */
export function shellBlockKind(block: TDocBlock): TShellBlockKind | undefined {
  const [language = '', ...rest] = block.info.split(/\s+/);
  if (!SHELL_LANGUAGES.has(language)) return undefined;
  if (rest.length === 0 && RUN_LANGUAGES.has(language)) return 'run';
  const mark = rest.join(' ');
  return mark === 'illustrative' || mark === 'self-host' ? mark : 'unmarked';
}

const MARKER = '@@docs-block';

/**
 * One bash script running the blocks in order, stopping at the first failing command. Before each block
 * it writes a marker line to stderr, so that a failure can be traced to its block (`failedBlock`).
 */
export function scriptOf(blocks: TDocBlock[]): string {
  const parts = blocks.map((block) => `echo '${MARKER} ${block.file}:${block.line}' >&2\n${block.body}`);
  return ['set -euo pipefail', ...parts, ''].join('\n');
}

/** The block that was running when the script stopped (`file:line`), and the stderr it wrote. */
export function failedBlock(stderr: string): { where: string; stderr: string } {
  const start = stderr.lastIndexOf(`${MARKER} `);
  if (start < 0) return { where: '(before the first block)', stderr };
  const lineEnd = stderr.indexOf('\n', start);
  const end = lineEnd < 0 ? stderr.length : lineEnd;
  return { where: stderr.slice(start + MARKER.length + 1, end), stderr: stderr.slice(end + 1) };
}
