import { expect } from 'chai';
import { loadOperatorConfig } from '../../../src/cli/operator-config.ts';

describe('loadOperatorConfig(env)', () => {
  it('reads the environment the chart and mdw manifests set', () => {
    const cfg = loadOperatorConfig({
      MIDDLEWARE_IMAGE: 'mdw:1',
      POD_NAME: 'op-1',
      POD_NAMESPACE: 'mdw-system',
      WATCH_NAMESPACE: 'chains',
      PORT: '9090',
    });
    expect(cfg).to.include({
      image: 'mdw:1',
      identity: 'op-1',
      leaseNamespace: 'mdw-system',
      watchNamespace: 'chains',
      port: 9090,
    });
  });

  it('watches every namespace when WATCH_NAMESPACE is empty', () => {
    expect(loadOperatorConfig({ MIDDLEWARE_IMAGE: 'mdw:1', WATCH_NAMESPACE: '' }).watchNamespace).to.equal(undefined);
  });

  it('names the missing image and a bad port', () => {
    expect(() => loadOperatorConfig({ PORT: 'x' })).to.throw(/MIDDLEWARE_IMAGE: required[\s\S]*PORT: expected/);
  });
});
