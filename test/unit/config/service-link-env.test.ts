/**
 * Kubernetes service-link variables (`<SVC>_SERVICE_HOST`, `<SVC>_PORT=tcp://…`, `<SVC>_PORT_<n>_TCP…`) of Services
 * whose names start with `rtserve` do not break the config: they are never taken as settings (only warned about,
 * like other unknown names), so `RTSERVE_HTTP_PORT=tcp://…` (a Service named rtserve-http) is not taken for the HTTP
 * port, and real RTSERVE_* keys still load.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isServiceLinkVariable, loadServerConfig } from '../../../src/config/load-server-config.ts';

// What a Service named `rtserve-http` (port 8000) and one named `rtserve` inject into every pod of the namespace.
const LINKS = {
  RTSERVE_HTTP_SERVICE_HOST: '10.0.0.7',
  RTSERVE_HTTP_SERVICE_PORT: '8000',
  RTSERVE_HTTP_SERVICE_PORT_HTTP: '8000',
  RTSERVE_HTTP_PORT: 'tcp://10.0.0.7:8000',
  RTSERVE_HTTP_PORT_8000_TCP: 'tcp://10.0.0.7:8000',
  RTSERVE_HTTP_PORT_8000_TCP_PROTO: 'tcp',
  RTSERVE_HTTP_PORT_8000_TCP_PORT: '8000',
  RTSERVE_HTTP_PORT_8000_TCP_ADDR: '10.0.0.7',
  RTSERVE_SERVICE_HOST: '10.0.0.8',
  RTSERVE_PORT: 'tcp://10.0.0.8:80',
};

describe('service-link environment variables', () => {
  it('are not taken as settings; the real keys still load', async () => {
    const warnings: string[] = [];
    const config = await loadServerConfig({ env: { ...LINKS, RTSERVE_GRPC_PORT: '9001' }, warn: (m) => warnings.push(m) });
    assert.equal(config.httpPort, 8000, 'RTSERVE_HTTP_PORT=tcp://… is a service link, not the HTTP port');
    assert.equal(config.grpcPort, 9001);
    assert.equal(warnings.length, 1, 'one warning line');
    for (const name of Object.keys(LINKS)) assert.ok(warnings[0]?.includes(name), `${name} is named in the warning`);
    assert.ok(!warnings[0]?.includes('RTSERVE_GRPC_PORT'));
  });

  it('a real port value is not mistaken for a link; other unknown names are warned about too', async () => {
    assert.equal((await loadServerConfig({ env: { RTSERVE_HTTP_PORT: '9000' } })).httpPort, 9000);
    assert.equal(isServiceLinkVariable('RTSERVE_HTTP_PORT', '9000'), false);
    const warnings: string[] = [];
    await loadServerConfig({ env: { RTSERVE_HTTP_PROT: '9000' }, warn: (m) => warnings.push(m) });
    assert.match(warnings.join('\n'), /RTSERVE_HTTP_PROT/);
  });
});
