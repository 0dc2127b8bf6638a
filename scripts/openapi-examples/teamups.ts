// The examples of the team-up board: a signed-in and an anonymous team-up, the board, your own, the
// statistics, and a cancellation.
import type { Recorder } from './recorder';

export async function recordTeamUps(r: Recorder, user: string) {
  const mine = await r.call('POST /teamup/publish', {
    token: user,
    body: {
      player: 'Deckhand#2041',
      description: 'Two more for a Fort Siege at Red Isle, voice on Discord',
      tags: ['pvp', 'fortressRaiding'],
      expiresMinutesAt: 60,
    },
  });
  await r.call('GET /teamups', { parameters: { keyword: 'fort', page: 1, pageSize: 20 } });
  await r.call('GET /user/me/teamups', { token: user, parameters: { page: 1, pageSize: 20 } });
  await r.call('GET /teamup/statistics');
  await r.call('POST /teamup/cancel', { token: user, body: { id: mine.id } });
}
