import type { FastifyPluginAsync } from 'fastify';
import { fenceApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { FenceService } from './fence.service.js';

/** The message of a fence answer: §8 "sent successfully; failed; device offline so delivery failed". */
const said = (f: { state: string; pending: string | null }) =>
  f.state === 'offline' ? 'device offline: nothing sent' : f.state === 'failed' ? 'failed' : f.pending ? 'command sent' : 'success';

/** §7 geo-fences (packages/contract/src/routes/fences.ts, schemas in api/fences.ts). */
export const fenceRoutes: FastifyPluginAsync<{ fences: FenceService }> = async (app, { fences }) => {
  route(app, api.list, async (req) => ok(await fences.list(authOf(req), req.query.id)));
  route(app, api.set, async (req) => {
    const f = await fences.set(actorOf(req), req.body);
    return ok(f, said(f));
  });
  route(app, api.close, async (req) => {
    const f = await fences.close(actorOf(req), req.body.fenceId);
    return ok(f, said(f));
  });
  route(app, api.relock, async (req) => {
    const f = await fences.relock(actorOf(req), req.body.fenceId);
    return ok(f, said(f));
  });
};
