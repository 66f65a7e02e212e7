import { z } from 'zod';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { errorEnvelopeSchema } from '../envelope.js';
import { brokerRoutes } from '../routes/broker.js';

/** Brokers send strings, numbers (go-auth's `acc` in JSON) or nothing; all become strings. */
const field = z
  .union([z.string().max(1024), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? '' : String(v)));

const loginBody = z.object({ username: field, password: field, clientid: field });
const emqxAuthzBody = z.object({ username: field, clientid: field, topic: field, action: field });
const goAuthSuperBody = z.object({ username: field });
const goAuthAclBody = z.object({ username: field, clientid: field, topic: field, acc: field });
/** BROKER_AUTH_SECRET may come as `?secret=` (mosquitto-go-auth puts it in the URI). */
const secretQuery = z.object({ secret: z.string().max(256).optional() });

const emqxAuthnAnswer = z.object({ result: z.enum(['allow', 'deny', 'ignore']), is_superuser: z.boolean() });
const emqxAuthzAnswer = z.object({ result: z.enum(['allow', 'deny', 'ignore']) });
/** mosquitto-go-auth: the status decides (`http_response_mode status`), `ok` too (`json`). */
const goAuthAnswer = z.object({ ok: z.boolean(), error: z.string() });
/**
 * A go-auth 403: its own `{ok: false}`, or the envelope while the hooks are off (no
 * BROKER_AUTH_SECRET): a broker denies on either, and the envelope tells an operator why.
 */
const goAuthRefusal = z.union([goAuthAnswer, errorEnvelopeSchema]);

/** What every hook's schemas share. */
const hook = { tags: ['broker hooks'], query: secretQuery } as const;

/** The schemas of `brokerRoutes` (routes/broker.ts). */
export const brokerSchemas = {
  emqxAuthn: {
    ...hook,
    summary: 'EMQX 5 HTTP authentication: device SN + secret, or the console’s own login (superuser)',
    body: loginBody,
    data: emqxAuthnAnswer,
  },
  emqxAuthz: {
    ...hook,
    summary: 'EMQX 5 HTTP authorization: a device publishes to dev/<its sn>/<kind>, subscribes to dev/<its sn>/cmd',
    body: emqxAuthzBody,
    data: emqxAuthzAnswer,
  },
  goAuthUser: {
    ...hook,
    summary: 'mosquitto-go-auth HTTP backend, user check: 200 allows, 403 refuses',
    body: loginBody,
    data: goAuthAnswer,
    otherAnswers: { 403: goAuthRefusal },
  },
  goAuthSuperuser: {
    ...hook,
    summary: 'mosquitto-go-auth HTTP backend, superuser check: only the console’s own login',
    body: goAuthSuperBody,
    data: goAuthAnswer,
    otherAnswers: { 403: goAuthRefusal },
  },
  goAuthAcl: {
    ...hook,
    summary: 'mosquitto-go-auth HTTP backend, ACL check (acc 1 read, 2 write, 4 subscribe)',
    body: goAuthAclBody,
    data: goAuthAnswer,
    otherAnswers: { 403: goAuthRefusal },
  },
} satisfies EndpointSchemaTable;
export const brokerApi = endpoints(brokerRoutes, brokerSchemas);
