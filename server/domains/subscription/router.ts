import { router } from '../../trpc';
import { hall, plans, progress } from './procedures/public';
import {
  cancelOrderProcedure,
  createOrderProcedure,
  hallVisibility,
  myOrders,
  myStatus,
  setHallVisibilityProcedure,
} from './procedures/member';
import { webhook } from './procedures/webhook';

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
