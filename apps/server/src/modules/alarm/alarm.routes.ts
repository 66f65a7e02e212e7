import type { FastifyPluginAsync } from 'fastify';
import { alarmApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { AlarmService } from './alarm.service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const alarmRoutes: FastifyPluginAsync<{ alarms: AlarmService }> = async (app, { alarms }) => {
  route(app, api.list, async (req) => ok(await alarms.list(authOf(req), req.query)));
  route(app, api.groups, async (req) => ok(await alarms.groups(authOf(req), req.query)));
  route(app, api.notices, async (req) => ok(await alarms.notices(authOf(req), req.query.alarmId)));
  route(app, api.bell, async (req) => ok(await alarms.bell(authOf(req))));
  route(app, api.process, async (req) => {
    const processed = await alarms.process(actorOf(req), req.body);
    return ok({ processed }, `${processed} alarm(s) processed`);
  });
  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    const buf = await alarms.export(authOf(req), q, lang);
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="alarms-${new Date().toISOString().slice(0, 10)}.xlsx"`)
      .send(buf);
  });
};
