// Drop test data shared by the HTTP suite (drop.test.ts) and the in-process one (service.test.ts).
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A campaign to import, its start and end given as offsets from `base` (ms). */
export function campaign(
  campaignId: string,
  name: string,
  startOffset: number,
  endOffset: number,
  base: number,
  rewards: string[] = [],
  channels: { name: string; url: string }[] = [],
) {
  return {
    campaignId,
    name,
    startsAt: new Date(base + startOffset).toISOString(),
    endsAt: new Date(base + endOffset).toISOString(),
    rewards: rewards.map((reward, index) => ({ name: reward, requiredMinutes: 30 * (index + 1) })),
    ...(channels.length > 0 ? { channels } : {}),
  };
}
