/** The command line of bench/run.ts (see its usage comment) and the targets it can name. */

export type TTarget = 'ceiling' | 'peer' | 'equipped' | 'rest' | 'trpc';
export const TARGETS: TTarget[] = ['ceiling', 'peer', 'equipped', 'rest', 'trpc'];
export const PEERS = ['peer', 'equipped'] as const;

export interface TArgs {
  db?: string;
  duration: number;
  connections: number;
  only?: string[];
  /** Which of TARGETS to drive (default all). */
  targets: TTarget[];
  /** Runs per cell; the median by req/s is reported. */
  repeat: number;
  json?: string;
  quick: boolean;
  /** Our LOG_LEVEL: info by default, to a file in the run's directory; silent turns our log off. */
  log: string;
}

export function parseArgs(argv: string[]): TArgs {
  const args: TArgs = {
    duration: 3,
    connections: 10,
    quick: argv.includes('--quick'),
    targets: TARGETS,
    repeat: 1,
    log: 'info',
  };
  const pairs = argv.filter((arg) => arg !== '--quick');
  for (let i = 0; i < pairs.length; i += 2) {
    const [flag, value] = [pairs[i]!, pairs[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--db') args.db = value;
    else if (flag === '--duration') args.duration = Number(value);
    else if (flag === '--connections') args.connections = Number(value);
    else if (flag === '--only') args.only = value.split(',');
    else if (flag === '--json') args.json = value;
    else if (flag === '--repeat') args.repeat = Math.max(1, Number(value));
    else if (flag === '--targets') args.targets = TARGETS.filter((target) => value.split(',').includes(target));
    else if (flag === '--log') args.log = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
}
