import { after, before, describe, test } from 'node:test';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { INFER_CASES, runTableCase } from '../cases.ts';
import { restClient } from './rest-table-client.ts';

describe('REST: the shared integration table', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });
  for (const binary of [false, true]) {
    for (const c of INFER_CASES) {
      test(`${binary ? 'binary' : 'json'}: ${c.name}`, async () => {
        await runTableCase(restClient(server.httpUrl, binary), c);
      });
    }
  }
});
