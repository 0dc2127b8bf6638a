// Route labels of the request logs and metrics: the REST route table's own rule (static paths before
// parameter routes, one trailing slash dropped, unknown names under one label), and the request counts and
// durations rendered as prom-client's own Counter and Histogram would render them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import * as assert from 'uvu/assert';
import { createRouteLabeler } from '../../server/http/metrics';
import { RequestStats } from '../../server/http/request-stats';
import { matchedRouteOf, RouteTable, routePathOf } from '../../server/rest/routes';
import { appRouter } from '../../server/router';
import { suite } from '../support/suite';

const Labels = suite("route labels of logs and metrics: the REST route table's own rule");

Labels('static paths win over parameter routes, one trailing slash is dropped, unknown names share one label', () => {
  const routes = RouteTable.fromRouter(appRouter);
  const label = createRouteLabeler(appRouter, routes);
  const cases: [string, string][] = [
    ['/api/drop/current', '/api/drop/current'],
    ['/api/drop/current/', '/api/drop/current'],
    ['/api/drop/history', '/api/drop/history'],
    ['/api/drop/42', '/api/drop/{id}'],
    ['/api/drop/42/', '/api/drop/{id}'],
    [`/api/map/collection/${randomUUID()}`, '/api/map/collection/{uuid}'],
    ['/api/stateOfWar/seasons', '/api/stateOfWar/seasons'],
    ['/api/stateOfWar/season/y2s4', '/api/stateOfWar/season/{season}'],
    ['/api/no/such/path', '(unmatched)'],
    ['/api/docs/constructor', '/api/docs'],
    ['/trpc/user.me', '/trpc/user.me'],
    ['/trpc/user.me,drop.getCurrent', '/trpc/(batch)'],
    ['/trpc/constructor', '/trpc/(unknown)'],
  ];
  for (const [path, expected] of cases) assert.is(label(path), expected, path);
  // The handler serves what the labels name: the same table, the same trailing-slash rule.
  assert.is(routes.match('GET', routePathOf('/drop/current/')).kind, 'found');
  assert.is(routes.templateOf(routePathOf('/drop/7/')), '/drop/{id}');
  // A request the handler routed is labelled with the route it recorded, without matching again.
  const req = { headers: {} } as IncomingMessage;
  assert.is(routes.matchRequest(req, 'GET', '/drop/history').kind, 'found');
  assert.is(matchedRouteOf(req), '/drop/history');
  assert.is(label('/api/drop/history', req), '/api/drop/history');
  const unrouted = { headers: {} } as IncomingMessage;
  assert.is(matchedRouteOf(unrouted), undefined);
  assert.is(label('/api/drop/7', unrouted), '/api/drop/{id}');
});

Labels(
  "request counts and durations render as prom-client's own Counter and Histogram would, line for line",
  async () => {
    const bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const names = { requests: 'tidewatch_http_requests_total', duration: 'tidewatch_http_request_duration_seconds' };
    const reference = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({ name: names.requests, help: 'requests', labelNames, registers: [reference] });
    const histogram = new Histogram({
      name: names.duration,
      help: 'durations',
      labelNames,
      buckets: bounds,
      registers: [reference],
    });
    const ours = new Registry();
    const stats = new RequestStats(names, bounds);
    stats.register(ours, { requests: 'requests', duration: 'durations' });
    // On a bound, above the last one, a label value that needs escaping.
    const observed: [string, string, number, number][] = [
      ['GET', '/api/x', 200, 0.003],
      ['GET', '/api/x', 200, 0.005],
      ['GET', '/api/x', 200, 0.2],
      ['POST', '/api/y "q"\\', 404, 20],
      ['GET', '/api/x', 200, 10],
    ];
    for (const [method, route, status, seconds] of observed) {
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route, status: String(status) }, seconds);
      stats.observe(method, route, status, seconds);
    }
    assert.is(await ours.metrics(), await reference.metrics());
    // JSON (not served, but the registry offers it): each histogram line carries every label.
    const duration = (await ours.getMetricsAsJSON()).find((metric) => metric.name === names.duration);
    const count = duration?.values.find(
      (value) => (value as { metricName?: string }).metricName === `${names.duration}_count`,
    );
    assert.equal(count?.labels, { method: 'GET', route: '/api/x', status: '200' });
    ours.resetMetrics();
    assert.not.match(await ours.metrics(), /_count\{/);
  },
);

Labels.run();
