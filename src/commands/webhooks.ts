// `petstore webhooks add|list|remove|enable|deliveries|redeliver`: the webhook endpoints stored in
// the service's database, and their deliveries, managed from the command line with the
// server's own configuration (PETSTORE_DB…). An endpoint's secret is printed once, by `add`.
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as O from 'fp-ts/lib/Option.js';
import { decimalId, onDatabase, type Output, printRecords, table, unlessMisused } from './support/database-command.js';
import { TOKENS } from '../composition/index.js';
import {
  parseEventTypes,
  EVENT_TYPES,
  type EventType,
  type WebhookAdmin,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookEndpointId,
  WebhookUrl,
} from '../domain/index.js';

/** What `webhooks` was asked to do, once its arguments are parsed. */
export type WebhooksRequest =
  | {
      readonly action: 'add';
      readonly url: string;
      /** The value of --events, a comma-separated list of event types; undefined (no --events) for every type. */
      readonly events: string | undefined;
      readonly json: boolean;
    }
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

/** A `webhooks` request whose arguments are checked: what it does on the database. */
type WebhooksCommand =
  | { readonly action: 'add'; readonly url: WebhookUrl; readonly types: readonly EventType[]; readonly json: boolean }
  | { readonly action: 'list'; readonly json: boolean }
  | { readonly action: 'remove' | 'enable'; readonly id: WebhookEndpointId }
  | { readonly action: 'deliveries'; readonly id: WebhookEndpointId; readonly json: boolean }
  | { readonly action: 'redeliver'; readonly eventId: string };

/** The endpoint id of an argument, or the misuse to tell. */
function endpointId(text: string, action: string): E.Either<string, WebhookEndpointId> {
  return decimalId(
    WebhookEndpointId,
    text,
    `petstore: webhooks ${action} needs the id of an endpoint (a positive integer, see "petstore webhooks list"), not ${JSON.stringify(text)}\n`,
  );
}

/**
 * The event types the value of --events names (none when it is absent: every type), or the
 * misuse to tell. A value that names no type is refused, not taken for every type: an empty
 * variable in a script (`--events "$TYPES"`) would otherwise subscribe the endpoint to all.
 */
function eventTypesOf(events: string | undefined): E.Either<string, readonly EventType[]> {
  if (events === undefined) return E.right([]);
  const types = parseEventTypes(events);
  if (E.isLeft(types)) {
    return E.left(`petstore: --events: ${JSON.stringify(types.left)} is not an event type; they are ${EVENT_TYPES.join(', ')}\n`);
  }
  if (types.right.length === 0) {
    return E.left(
      `petstore: --events ${JSON.stringify(events)} names no event type: give one or more of ${EVENT_TYPES.join(', ')}, ` +
        'separated by commas, or leave --events out for every type\n',
    );
  }
  return types;
}

/** The command `request` asks for, or the misuse to tell: checked before the database is opened. */
function commandOf(request: WebhooksRequest): E.Either<string, WebhooksCommand> {
  switch (request.action) {
    case 'add': {
      const url = WebhookUrl.decode(request.url);
      if (E.isLeft(url)) return E.left(`petstore: the webhook URL ${String(url.left[0]?.message)}\n`);
      const types = eventTypesOf(request.events);
      return E.isLeft(types) ? types : E.right({ action: 'add', url: url.right, types: types.right, json: request.json });
    }
    case 'list':
      return E.right(request);
    case 'remove':
    case 'enable': {
      const { action } = request;
      return pipe(
        endpointId(request.id, action),
        E.map((id) => ({ action, id })),
      );
    }
    case 'deliveries':
      return pipe(
        endpointId(request.id, 'deliveries'),
        E.map((id) => ({ action: 'deliveries', id, json: request.json })),
      );
    case 'redeliver':
      return /^[\x21-\x7e]{1,200}$/.test(request.eventId)
        ? E.right(request)
        : E.left(
            `petstore: webhooks redeliver needs an event id (as "petstore webhooks deliveries <id>" lists), not ${JSON.stringify(request.eventId)}\n`,
          );
  }
}

/** The exit code of an action on an endpoint id that names none, once it is told. */
function noEndpoint(id: WebhookEndpointId, output: Output): number {
  output.err(`petstore: no webhook endpoint has id ${id}\n`);
  return 1;
}

async function add(command: Extract<WebhooksCommand, { action: 'add' }>, admin: WebhookAdmin, output: Output): Promise<number> {
  const { secret, endpoint } = await admin.add(command.url, command.types);
  if (command.json) {
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

async function run(command: WebhooksCommand, admin: WebhookAdmin, output: Output): Promise<number> {
  switch (command.action) {
    case 'add':
      return add(command, admin, output);
    case 'list': {
      printRecords(output, command.json, await admin.list(), { json: endpointJson, table: endpointsTable, none: 'No webhook endpoints.' });
      return 0;
    }
    case 'remove': {
      const { id } = command;
      if (!(await admin.remove(id))) return noEndpoint(id, output);
      output.out(`Webhook endpoint ${id} is removed, with its deliveries: it receives nothing more.\n`);
      return 0;
    }
    case 'enable': {
      const { id } = command;
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
      const { id } = command;
      if (!(await admin.list()).some((endpoint) => endpoint.id === id)) return noEndpoint(id, output);
      printRecords(output, command.json, await admin.deliveries(id, LISTED_DELIVERIES), {
        json: deliveryJson,
        table: deliveriesTable,
        none: `No deliveries to webhook endpoint ${id} yet.`,
      });
      return 0;
    }
    case 'redeliver': {
      const count = await admin.redeliver(command.eventId);
      if (count === 0) {
        output.err(`petstore: no active webhook endpoint has a delivery of event ${command.eventId}\n`);
        return 1;
      }
      output.out(`Event ${command.eventId} will be delivered again to ${count} endpoint${count === 1 ? '' : 's'}, from now on.\n`);
      return 0;
    }
  }
}

/** Runs `webhooks` on the database `env` configures; answers the exit code (0 done, 1 failed, 2 misused). */
export const webhooks = (request: WebhooksRequest, env: Readonly<Record<string, string | undefined>>, output: Output): Promise<number> =>
  unlessMisused(commandOf(request), output, (command) =>
    onDatabase<WebhookAdmin>(env, output, 'webhooks', { token: TOKENS.WebhookAdmin, creates: command.action === 'add' }, (admin) =>
      run(command, admin, output),
    ),
  );
