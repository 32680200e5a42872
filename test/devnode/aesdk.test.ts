/**
 * @module aepp-sdk 14 end to end against the devnode: the flows of test/support/aesdk-flows.ts with
 * `new Node(<devnode>)`, each answer checked against the devnode's chain. The same flows run with the middleware's
 * URL as the node URL in test/integration/api/aesdk-gateway.test.ts.
 */
import pino from 'pino';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { aeSdkFlows, sdkAccounts, sdkDevnodeOptions } from '../support/aesdk-flows.ts';

describe('aepp-sdk AeSdk against the devnode', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  const accounts = sdkAccounts();

  before(async () => {
    devnode = await startDevnode(sdkDevnodeOptions(accounts), pino({ level: 'silent' }));
  });
  after(async () => {
    await devnode?.stop();
  });

  aeSdkFlows(accounts, () => ({ devnode, nodeUrl: devnode.externalUrl }));
});
