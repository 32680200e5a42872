import { expect } from 'chai';
import { startApi, type ApiUnderTest } from './harness.ts';

describe('CORS with the default CORS_ORIGINS=*', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ empty: true });
  });
  after(async () => {
    await api.close();
  });

  it('answers any Origin with Access-Control-Allow-Origin: * and never with credentials', async () => {
    const res = await api.request.get('/healthz').set('Origin', 'https://evil.example').expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers).to.not.have.property('access-control-allow-credentials');
    const preflight = await api.request
      .options('/middleware/contracts/verify')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('*');
    expect(preflight.headers).to.not.have.property('access-control-allow-credentials');
  });
});

describe('CORS with listed origins beside *', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ empty: true, env: { CORS_ORIGINS: '*,https://wallet.example' } });
  });
  after(async () => {
    await api.close();
  });

  it('reflects a listed origin with credentials and gives every other one * without them', async () => {
    const listed = await api.request.get('/healthz').set('Origin', 'https://wallet.example').expect(200);
    expect(listed.headers['access-control-allow-origin']).to.equal('https://wallet.example');
    expect(listed.headers['access-control-allow-credentials']).to.equal('true');
    expect(listed.headers.vary).to.match(/Origin/);
    const other = await api.request.get('/healthz').set('Origin', 'https://other.example').expect(200);
    expect(other.headers['access-control-allow-origin']).to.equal('*');
    expect(other.headers).to.not.have.property('access-control-allow-credentials');
  });
});
