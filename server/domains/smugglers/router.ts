// The smugglers' weekly reports (issue 35) at the web client's paths (src/assets/sripts/api/smugglers_service.ts).
import { router } from '../../trpc';
import * as comments from './procedures/comments';
import * as reports from './procedures/reports';

export const smugglersRouter = router({
  checkPrivileges: reports.checkPrivileges,
  myReports: reports.mine,
  reports: router({
    list: reports.list,
    byTime: reports.byTime,
    get: reports.get,
    create: reports.create,
    update: reports.update,
    publish: reports.publish,
    archive: reports.archive,
    delete: reports.remove,
  }),
  comments: router({
    list: comments.list,
    create: comments.create,
    edit: comments.edit,
    delete: comments.remove,
  }),
});
