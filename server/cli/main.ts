import { ConfigError } from '../config';
import { runCommand, UsageError, type TCommand } from './command';
import { backupCommand } from './backup-command';
import { importCatalogCommand, purgeTrashCommand } from './assembly-commands';
import { importCommunityDataCommand } from './community-data-command';
import { restoreCommand } from './restore-command';
import { createAdminCommand, migrateCommand, seedCommand } from './core-commands';
import { orderConfirmCommand, ordersExpireCommand, subscriptionImportCommand } from './subscription-commands';
import { LIVE_DATA_COMMANDS } from './live-data-commands';
import { AppError } from '../errors';
import { cliInvocation } from './invocation';

/** Every command, in the order `help` lists them. Add new ones here. */
const COMMANDS: TCommand[] = [
  migrateCommand,
  seedCommand,
  createAdminCommand,
  backupCommand,
  restoreCommand,
  subscriptionImportCommand,
  orderConfirmCommand,
  ordersExpireCommand,
  importCatalogCommand,
  importCommunityDataCommand,
  purgeTrashCommand,
  ...LIVE_DATA_COMMANDS,
];

function printHelp(): void {
  console.log(`Usage: ${cliInvocation()} <command> [options]\n\nCommands:`);
  for (const command of COMMANDS) console.log(`  ${command.usage}\n      ${command.description}`);
  console.log('\nEvery command takes --help. The database is DATABASE_URL (default file:./data/tidewatch.db).');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    printHelp();
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`Unknown command "${name}". Run "${cliInvocation()} help" for the list.`);
    return 2;
  }
  try {
    await runCommand(command, rest, (line) => console.log(line));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${name}: ${(error as Error).message}\nUsage: ${cliInvocation()} ${command.usage}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof AppError) {
      console.error(`${name}: ${error.message}`);
      return 1;
    }
    console.error(`${name} failed:`, error);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
