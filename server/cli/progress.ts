/**
 * Progress of long CLI operations (imports, backup, restore): on a terminal, a bar with a counter
 * (cli-progress) per stage; otherwise, one line per stage on stderr once it is done (reached its
 * total, or the next stage began), with its count and time. The result lines of a command stay on
 * stdout, so scripts that read them are not disturbed.
 */
import { Presets, SingleBar } from 'cli-progress';
import type { TProgressListener } from '../deps';

export interface TProgressReporter {
  /** What services are given: the count of one stage so far. */
  listener: TProgressListener;
  /** Ends the last stage (call once the operation has finished, or failed). */
  finish(failed?: boolean): void;
}

const number = new Intl.NumberFormat('en-US');

export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): TProgressReporter {
  let current: { stage: string; done: number; total: number; startedMs: number; bar?: SingleBar } | undefined;
  const end = (failed = false) => {
    if (!current) return;
    const seconds = ((performance.now() - current.startedMs) / 1000).toFixed(1);
    current.bar?.stop();
    stream.write(
      `${failed ? 'failed: ' : ''}${current.stage}: ${number.format(current.done)}/${number.format(current.total)} in ${seconds} s\n`,
    );
    current = undefined;
  };
  return {
    listener(stage, done, total) {
      if (current && current.stage !== stage) end();
      if (!current) {
        current = { stage, done, total, startedMs: performance.now() };
        if (stream.isTTY) {
          current.bar = new SingleBar(
            { stream, format: `${stage} [{bar}] {value}/{total}`, clearOnComplete: true, hideCursor: true },
            Presets.shades_classic,
          );
          current.bar.start(total, done);
        }
      }
      current.done = done;
      current.total = total;
      current.bar?.setTotal(total);
      current.bar?.update(done);
      // A stage that reached its total is over: its line goes out now, before the command's result.
      if (done >= total) end();
    },
    finish(failed = false) {
      end(failed);
    },
  };
}
