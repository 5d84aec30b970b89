// X-Request-Id: a client's id is kept when it is sane (so a user can quote their own),
// otherwise the service makes one. It is echoed on the response and in error bodies and logs.
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// Short, printable, no spaces or separators that could forge log fields or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestIdFor = (sent: string | undefined): string => (sent !== undefined && SANE_REQUEST_ID.test(sent) ? sent : randomUUID());
