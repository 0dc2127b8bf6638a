import { randomBytes } from 'node:crypto';
import { seedDemoData } from '../seed/index';
import { createAccount, setRole } from '../domains/user/account';
import { UsageError, type TCommand } from './command';

export const migrateCommand: TCommand = {
  name: 'migrate',
  usage: 'migrate',
  description: 'Applies pending database migrations to DATABASE_URL (npm start also does this).',
  async run({ database, print }) {
    const { file } = await database();
    print(`migrations applied to ${file}`);
  },
};

export const seedCommand: TCommand = {
  name: 'seed',
  usage: 'seed',
  description:
    'Fills an empty database with the demo data set, all or nothing; does nothing if any account exists. ' +
    'Demo assemblies that do not fit the catalog already in the database are skipped and listed.',
  async run({ database, print }) {
    const report = await seedDemoData((await database()).db, new Date());
    if (!report.seeded) print('database is not empty: nothing seeded');
    else print('demo data seeded');
    if (report.skippedAssemblies.length > 0) {
      print(
        `demo assemblies skipped (the catalog in the database lacks their hulls or items): ${report.skippedAssemblies.join('; ')}`,
      );
    }
  },
};

export const createAdminCommand: TCommand = {
  name: 'create-admin',
  usage: 'create-admin <username> [--email <email>] [--password <password>]',
  description:
    'Gives an existing account the admin role, or creates an admin account (needs --email; a password is generated and printed unless --password is given).',
  options: { email: { type: 'string' }, password: { type: 'string' } },
  async run({ positionals, values, database, print }) {
    const [username, extra] = positionals;
    if (!username || extra !== undefined) throw new UsageError('expected exactly one <username>');
    const { db } = await database();
    if (await setRole({ db }, { username, role: 'admin' })) {
      print(`${username} is now an admin`);
      return;
    }
    const email = values.email;
    if (typeof email !== 'string') throw new UsageError(`no account "${username}": pass --email to create one`);
    const given = values.password;
    const password = typeof given === 'string' ? given : randomBytes(12).toString('base64url');
    if (password.length < 8) throw new UsageError('--password must be at least 8 characters');
    if (!/^[A-Za-z0-9_-]{3,32}$/.test(username)) throw new UsageError('username must be 3-32 of A-Z a-z 0-9 _ -');
    await createAccount({ db, now: () => new Date() }, { username, email, password, role: 'admin' });
    print(`admin ${username} created${typeof given === 'string' ? '' : ` with password ${password}`}`);
  },
};
