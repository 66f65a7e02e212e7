import type { brokerSchemas } from '../api/broker.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/**
 * Hooks an external broker calls (docs/OPERATIONS.md, "Running with an external broker"): EMQX 5
 * HTTP authentication and authorization, and the HTTP backend of mosquitto-go-auth. The broker,
 * not a console user, calls them (PUBLIC, guarded by BROKER_AUTH_SECRET); they answer the
 * broker's own format (`raw`), not the envelope.
 */
const hook = { permission: PUBLIC, audit: false, kind: 'raw' } as const;

export const brokerRoutes = routes<typeof brokerSchemas>()({
  emqxAuthn: { ...hook, method: 'POST', path: '/broker/emqx/authn' },
  emqxAuthz: { ...hook, method: 'POST', path: '/broker/emqx/authz' },
  goAuthUser: { ...hook, method: 'POST', path: '/broker/mosquitto/user' },
  goAuthSuperuser: { ...hook, method: 'POST', path: '/broker/mosquitto/superuser' },
  goAuthAcl: { ...hook, method: 'POST', path: '/broker/mosquitto/acl' },
});
