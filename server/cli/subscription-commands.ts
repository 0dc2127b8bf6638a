import { transaction } from '../../db/transaction';
import { AppError, issuesFromZod } from '../errors';
import { importSubscriptionCatalog } from '../domains/subscription/catalog-writes';
import { expirePendingOrders } from '../domains/subscription/order-reads';
import { confirmOrder } from '../domains/subscription/orders';
import { ZCatalogImport } from '../domains/subscription/schemas';
import { readJsonFile, UsageError, type TCommand } from './command';

export const subscriptionImportCommand: TCommand = {
  name: 'subscription-import',
  usage: 'subscription-import <catalog.json>',
  description:
    'Upserts sponsorship plans with their tiers, pay types and the monthly goal from a JSON file ' +
    '({ plans: [{ planId, name, tiers: [{ tierId, name, price, currency, months }] }], payTypes: [{ payType, name }], goal: { amount, currency } }), all or nothing.',
  async run({ positionals, database, print }) {
    const [file, extra] = positionals;
    if (!file || extra !== undefined) throw new UsageError('expected exactly one <catalog.json>');
    const json = await readJsonFile(file);
    const parsed = ZCatalogImport.safeParse(json);
    if (!parsed.success) {
      const lines = issuesFromZod(parsed.error).map((issue) => `  ${issue.path || '(root)'}: ${issue.message}`);
      throw new AppError('BAD_REQUEST', `${file} is not a valid catalog:\n${lines.join('\n')}`);
    }
    const { db } = await database();
    const now = new Date();
    const counts = await transaction(db, (tx) => importSubscriptionCatalog({ db: tx, now: () => now }, parsed.data));
    print(
      `imported ${counts.plans} plan(s), ${counts.tiers} tier(s), ${counts.payTypes} pay type(s)${counts.goal ? ' and the goal' : ''}`,
    );
  },
};

export const orderConfirmCommand: TCommand = {
  name: 'order-confirm',
  usage: 'order-confirm <orderId>',
  description:
    'Marks a pending sponsorship order paid (a payment received by hand) and extends the membership; repeating it changes nothing.',
  async run({ positionals, database, print }) {
    const [orderId, extra] = positionals;
    if (!orderId || extra !== undefined) throw new UsageError('expected exactly one <orderId>');
    const result = await confirmOrder({ db: (await database()).db, now: () => new Date() }, { orderId, by: 'admin' });
    print(
      result.alreadyPaid
        ? `order ${orderId} was already paid; membership until ${result.membershipExpiry}`
        : `order ${orderId} paid; ${result.order.tierId} membership until ${result.membershipExpiry}`,
    );
  },
};

export const ordersExpireCommand: TCommand = {
  name: 'orders-expire',
  usage: 'orders-expire',
  description:
    'Marks pending sponsorship orders past their 30-minute deadline as expired (the server also does this every minute).',
  async run({ positionals, database, print }) {
    if (positionals.length > 0) throw new UsageError('takes no arguments');
    print(`${await expirePendingOrders({ db: (await database()).db, now: () => new Date() })} order(s) expired`);
  },
};
