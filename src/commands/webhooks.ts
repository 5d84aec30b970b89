// `petstore webhooks add|list|remove|enable|deliveries|redeliver`: the webhook endpoints stored in
// the service's database, and their deliveries, managed from the command line with the
// server's own configuration (PETSTORE_DB…). An endpoint's secret is printed once, by `add`.
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { onDatabase, type Output, printRecords, table } from './database-command.js';
import { TOKENS } from '../composition/index.js';
import {
  parseEventTypes,
  PET_EVENT_TYPES,
  type WebhookAdmin,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookEndpointId,
  WebhookUrl,
} from '../domain/index.js';

/** What `webhooks` was asked to do, once its arguments are parsed. */
export type WebhooksRequest =
  | { readonly action: 'add'; readonly url: string; readonly events: string; readonly json: boolean }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'remove' | 'enable'; readonly id: string }
  | { readonly action: 'deliveries'; readonly id: string; readonly json: boolean }
  | { readonly action: 'redeliver'; readonly eventId: string };

/** How many deliveries `webhooks deliveries` shows: the most recent. */
const LISTED_DELIVERIES = 50;

const time = (date: Date | null): string | null => date?.toISOString() ?? null;

const endpointJson = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  eventTypes: endpoint.eventTypes,
  createdAt: time(endpoint.createdAt),
  disabledAt: time(endpoint.disabledAt),
});

const deliveryJson = (delivery: WebhookDelivery) => ({
  ...delivery,
  nextAttemptAt: time(delivery.nextAttemptAt),
  createdAt: time(delivery.createdAt),
  lastAttemptAt: time(delivery.lastAttemptAt),
});

const typesOf = (endpoint: WebhookEndpoint): string => (endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(','));

const endpointsTable = (endpoints: readonly WebhookEndpoint[]): string =>
  table([
    ['ID', 'URL', 'EVENTS', 'CREATED', 'DISABLED'],
    ...endpoints.map((e) => [String(e.id), e.url, typesOf(e), e.createdAt.toISOString(), time(e.disabledAt) ?? '-']),
  ]);

const deliveriesTable = (deliveries: readonly WebhookDelivery[]): string =>
  table([
    ['EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST RESULT', 'LAST ATTEMPT', 'NEXT ATTEMPT'],
    ...deliveries.map((d) => [
      d.eventId,
      d.eventType,
      d.status,
      String(d.attempts),
      d.lastStatus === null ? (d.lastError ?? '-') : `HTTP ${d.lastStatus}`,
      time(d.lastAttemptAt) ?? '-',
      time(d.nextAttemptAt) ?? '-',
    ]),
  ]);

/** The endpoint id of an argument, or undefined after telling the misuse. */
function endpointId(text: string, action: string, output: Output): WebhookEndpointId | undefined {
  const id = /^[0-9]{1,16}$/.test(text) ? WebhookEndpointId.decode(Number(text)) : E.left([]);
  if (E.isRight(id)) return id.right;
  output.err(
    `petstore: webhooks ${action} needs the id of an endpoint (a positive integer, see "petstore webhooks list"), not ${JSON.stringify(text)}\n`,
  );
  return undefined;
}

/** The exit code of an action on an endpoint id that names none, once it is told. */
function noEndpoint(id: WebhookEndpointId, output: Output): number {
  output.err(`petstore: no webhook endpoint has id ${id}\n`);
  return 1;
}

async function add(request: Extract<WebhooksRequest, { action: 'add' }>, admin: WebhookAdmin, output: Output): Promise<number> {
  const url = WebhookUrl.decode(request.url);
  if (E.isLeft(url)) {
    output.err(`petstore: the webhook URL ${String(url.left[0]?.message)}\n`);
    return 2;
  }
  const types = parseEventTypes(request.events);
  if (E.isLeft(types)) {
    output.err(`petstore: --events: ${JSON.stringify(types.left)} is not an event type; they are ${PET_EVENT_TYPES.join(', ')}\n`);
    return 2;
  }
  const { secret, endpoint } = await admin.add(url.right, types.right);
  if (request.json) {
    output.out(`${JSON.stringify({ secret, ...endpointJson(endpoint) })}\n`);
  } else {
    output.out(
      `Added webhook endpoint ${endpoint.id} for ${endpoint.url} (events: ${typesOf(endpoint)}). ` +
        `Its signing secret is shown only this once:\n\n  ${secret}\n\n` +
        'Receivers verify every delivery with it (Standard Webhooks; see docs/events.md).\n',
    );
  }
  return 0;
}

async function run(request: WebhooksRequest, admin: WebhookAdmin, output: Output): Promise<number> {
  switch (request.action) {
    case 'add':
      return add(request, admin, output);
    case 'list': {
      printRecords(output, request.json, await admin.list(), { json: endpointJson, table: endpointsTable, none: 'No webhook endpoints.' });
      return 0;
    }
    case 'remove': {
      const id = endpointId(request.id, 'remove', output);
      if (id === undefined) return 2;
      if (!(await admin.remove(id))) return noEndpoint(id, output);
      output.out(`Webhook endpoint ${id} is removed, with its deliveries: it receives nothing more.\n`);
      return 0;
    }
    case 'enable': {
      const id = endpointId(request.id, 'enable', output);
      if (id === undefined) return 2;
      const endpoint = (await admin.list()).find((e) => e.id === id);
      if (endpoint === undefined) return noEndpoint(id, output);
      if (endpoint.disabledAt === null) {
        output.out(`Webhook endpoint ${id} (${endpoint.url}) is already enabled: nothing changed.\n`);
        return 0;
      }
      const enabled = await admin.enable(id);
      if (O.isNone(enabled)) return noEndpoint(id, output);
      output.out(
        `Webhook endpoint ${id} (${enabled.value.url}) is active: it gets the events relayed from now on. ` +
          'Events relayed while it was disabled are not sent to it; its failed deliveries stay failed ' +
          '("petstore webhooks redeliver <event-id>" sends one again).\n',
      );
      return 0;
    }
    case 'deliveries': {
      const id = endpointId(request.id, 'deliveries', output);
      if (id === undefined) return 2;
      if (!(await admin.list()).some((endpoint) => endpoint.id === id)) return noEndpoint(id, output);
      printRecords(output, request.json, await admin.deliveries(id, LISTED_DELIVERIES), {
        json: deliveryJson,
        table: deliveriesTable,
        none: `No deliveries to webhook endpoint ${id} yet.`,
      });
      return 0;
    }
    case 'redeliver': {
      if (!/^[\x21-\x7e]{1,200}$/.test(request.eventId)) {
        output.err(
          `petstore: webhooks redeliver needs an event id (as "petstore webhooks deliveries <id>" lists), not ${JSON.stringify(request.eventId)}\n`,
        );
        return 2;
      }
      const count = await admin.redeliver(request.eventId);
      if (count === 0) {
        output.err(`petstore: no active webhook endpoint has a delivery of event ${request.eventId}\n`);
        return 1;
      }
      output.out(`Event ${request.eventId} will be delivered again to ${count} endpoint${count === 1 ? '' : 's'}, from now on.\n`);
      return 0;
    }
  }
}

/** Runs `webhooks` on the database `env` configures; answers the exit code (0 done, 1 failed, 2 misused). */
export const webhooks = (request: WebhooksRequest, env: Readonly<Record<string, string | undefined>>, output: Output): Promise<number> =>
  onDatabase<WebhookAdmin>(env, output, 'webhooks', { token: TOKENS.WebhookAdmin, creates: request.action === 'add' }, (admin) =>
    run(request, admin, output),
  );
