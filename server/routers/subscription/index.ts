import { router } from '../../trpc';
import { hall, plans, progress } from './public';
import {
  cancelOrderProcedure,
  createOrderProcedure,
  hallVisibility,
  myOrders,
  myStatus,
  setHallVisibilityProcedure,
} from './member';
import { webhook } from './webhook';

export { subscriptionAdminRouter } from './admin';

export const subscriptionRouter = router({
  plans,
  progress,
  hall,
  myStatus,
  myOrders,
  createOrder: createOrderProcedure,
  cancelOrder: cancelOrderProcedure,
  getHallVisibility: hallVisibility,
  setHallVisibility: setHallVisibilityProcedure,
  handleWebhook: webhook,
});
