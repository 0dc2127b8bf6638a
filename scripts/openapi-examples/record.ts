// Calls every operation once, on a test server holding the demo data (the recording's order: reads
// first, deletions last, each call finding what it needs).
import type { TRecordedExample } from '../../server/openapi';
import { startTestServer } from '../../test/support/helpers';
import { recordLiveData } from './live-data';
import { recordCatalog, recordMaps, recordSponsorship } from './maps-and-sponsorship';
import { recordPrivileges } from './privileges-and-reports';
import { Recorder, signIn } from './recorder';
import { recordTeamUps } from './teamups';
import { recordAssemblies, recordUsers } from './users-and-assemblies';

export async function recordExamples(): Promise<Record<string, TRecordedExample>> {
  const app = await startTestServer({ SEED_DEMO: true });
  try {
    const r = new Recorder(app);
    await r.call('GET /health');
    await r.call('GET /captcha', { parameters: { t: '0.7391' } });
    const admin = await signIn(r, 'captain');
    const user = await signIn(r, 'deckhand');
    const { me, newcomerToken } = await recordUsers(r, app, user);
    await recordAssemblies(r, app, user, me);
    await recordCatalog(r);
    await recordMaps(r, user);
    await recordSponsorship(r, app, user, admin);
    await recordLiveData(r, app, admin);
    await recordTeamUps(r, user);
    await recordPrivileges(r, admin, user, await signIn(r, 'quartermaster'));
    await r.call('POST /user/signout', { token: newcomerToken });
    return r.examples;
  } finally {
    await app.stop();
  }
}
