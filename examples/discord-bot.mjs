// A Discord bot: posts in a channel (its webhook) when drops start or a team-up is published, from GET /api/events.
// TIDEWATCH_URL: the server; DISCORD_WEBHOOK_URL: the channel's webhook (unset: prints); MAX_EVENTS: stop after that many.
const url = `${process.env.TIDEWATCH_URL ?? 'http://127.0.0.1:3000'}/api/events?topics=drops,teamups`;
const hook = process.env.DISCORD_WEBHOOK_URL;
const json = { 'content-type': 'application/json' };
const say = (content) =>
  hook ? fetch(hook, { method: 'POST', headers: json, body: JSON.stringify({ content }) }) : console.log(content);
let lastEventId;
let left = Number(process.env.MAX_EVENTS ?? Number.POSITIVE_INFINITY);
for (;;) {
  try {
    const response = await fetch(url, { headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
    let buffer = '';
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; buffer = buffer.slice(end + 2), end = buffer.indexOf('\n\n')) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        if (!data) continue; // the connection's greeting, or a heartbeat
        const event = JSON.parse(data);
        lastEventId = event.id; // sent back on reconnecting: the server resumes after it
        if (event.type === 'drop.started') await say(`Drops are on: ${event.data.name}, until ${event.data.endsAt}`);
        if (event.type === 'teamup.published')
          await say(`${event.data.player} looks for a crew: ${event.data.description}`);
        if (event.type === 'gap') await say('(missed some events while away)');
        if (--left <= 0) process.exit(0);
      }
    }
  } catch (error) {
    console.error(`stream lost (${error.message}), reconnecting`);
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
}
