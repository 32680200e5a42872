import { expect } from 'chai';
import { replicaBehind } from '../../../src/api/http/readiness.ts';

describe('replicaBehind: /readyz of a server reading standbys', () => {
  it('says nothing for a server reading the primary', () => {
    expect(replicaBehind(undefined)).to.equal(undefined);
  });

  it('is ready up to the bound, not beyond it, and not while no standby serves', () => {
    expect(replicaBehind({ seconds: 0, maxSeconds: 30 })).to.equal(undefined);
    expect(replicaBehind({ seconds: 30, maxSeconds: 30 })).to.equal(undefined);
    expect(replicaBehind({ seconds: 30.4, maxSeconds: 30 })).to.deep.equal({
      ready: false,
      reason: 'read replica 30 s behind (maximum 30 s)',
    });
    expect(replicaBehind({ seconds: null, maxSeconds: 30 })).to.deep.equal({
      ready: false,
      reason: 'no read replica serving',
    });
  });
});
