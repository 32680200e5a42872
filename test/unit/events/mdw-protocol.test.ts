import { expect } from 'chai';
import { mdwEvent, parseMdwMessage, pong } from '../../../src/events/mdw-protocol.ts';
import { MdwSubscriptions } from '../../../src/events/mdw-subscriptions.ts';
import { isGatewayWebsocketPath, mdwRefusal, mdwVersionOf } from '../../../src/events/ws-server.ts';

const ACCOUNT = 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';

describe("ae_mdw's websocket protocol", () => {
  it('parses subscriptions, Object targets, sources and Ping', () => {
    expect(parseMdwMessage('{"op":"Subscribe","payload":"KeyBlocks"}')).to.deep.equal({
      ok: true,
      request: { op: 'Subscribe', channel: 'KeyBlocks', source: undefined },
    });
    expect(
      parseMdwMessage(`{"op":"Unsubscribe","payload":"Object","target":"${ACCOUNT}","source":"node"}`),
    ).to.deep.equal({ ok: true, request: { op: 'Unsubscribe', channel: 'Object', target: ACCOUNT, source: 'node' } });
    expect(parseMdwMessage('{"op":"Ping"}')).to.deep.equal({ ok: true, request: { op: 'Ping' } });
  });

  it("answers bad messages with ae_mdw's error strings", () => {
    const error = (text: string): unknown => (parseMdwMessage(text) as { error?: string }).error;
    expect(error('{"op":"Subscribe","payload":"Object","target":"ak_test"}')).to.equal('invalid target: ak_test');
    expect(error('{"op":"Subscribe","payload":"Foo"}')).to.equal('invalid payload: Foo');
    expect(error('{"op":"Subscribe","payload":"Object"}')).to.equal('missing field: target');
    expect(error('{"op":"Subscribe","payload":"KeyBlocks","source":"x"}')).to.equal('invalid source: x');
    expect(error('{"op":')).to.match(/^invalid json message: at \d+$/);
  });

  it("takes a hyperchain's Epochs channel (ours) from the mdw source only: the node has no epoch message", () => {
    expect(parseMdwMessage('{"op":"Subscribe","payload":"Epochs","source":"mdw"}')).to.deep.equal({
      ok: true,
      request: { op: 'Subscribe', channel: 'Epochs', source: 'mdw' },
    });
    const refused = parseMdwMessage('{"op":"Subscribe","payload":"Epochs","source":"node"}');
    expect(refused).to.deep.equal({ ok: false, error: 'invalid source: node' });
  });

  it('keeps the whole list per connection; a source-less request covers both sources', () => {
    const subs = new MdwSubscriptions(1000);
    expect(subs.apply({ op: 'Subscribe', channel: 'KeyBlocks' })).to.equal(undefined);
    expect(subs.apply({ op: 'Subscribe', channel: 'Object', target: ACCOUNT, source: 'mdw' })).to.equal(undefined);
    expect(subs.list()).to.deep.equal(['KeyBlocks', ACCOUNT]);
    expect([...subs.sources('KeyBlocks')]).to.deep.equal(['mdw', 'node']);
    expect([...subs.sources(ACCOUNT)]).to.deep.equal(['mdw']);
    expect(subs.apply({ op: 'Subscribe', channel: 'KeyBlocks' })).to.equal('already subscribed to: KeyBlocks');
    expect(subs.apply({ op: 'Subscribe', channel: 'Object', target: ACCOUNT, source: 'node' })).to.equal(undefined);
    expect(subs.apply({ op: 'Unsubscribe', channel: 'MicroBlocks' })).to.equal(
      'no subscription for payload: MicroBlocks',
    );
    expect(subs.apply({ op: 'Unsubscribe', channel: 'KeyBlocks' })).to.equal(undefined);
    expect(subs.list()).to.deep.equal([ACCOUNT]);
  });

  it("holds a connection to its limit, or to none when the server is full, with ae_mdw's message", () => {
    const subs = new MdwSubscriptions(2);
    expect(subs.apply({ op: 'Subscribe', channel: 'KeyBlocks' })).to.equal(undefined);
    expect(subs.apply({ op: 'Subscribe', channel: 'MicroBlocks' }, true)).to.equal(
      'too many subscriptions! discarding: MicroBlocks',
    );
    // a source added to a channel held is no new subscription, even on a full server
    expect(subs.apply({ op: 'Subscribe', channel: 'KeyBlocks', source: 'mdw' }, true)).to.equal(
      'already subscribed to: KeyBlocks',
    );
    expect(subs.apply({ op: 'Subscribe', channel: 'Object', target: ACCOUNT })).to.equal(undefined);
    expect(subs.apply({ op: 'Subscribe', channel: 'Transactions' })).to.equal(
      'too many subscriptions! discarding: Transactions',
    );
    expect(subs.list(1)).to.deep.equal(['KeyBlocks']);
    expect(subs.list()).to.deep.equal(['KeyBlocks', ACCOUNT]);
  });

  it('Pong carries the count, and has_more only when the sample is short of it', () => {
    expect(JSON.parse(pong(['KeyBlocks', ACCOUNT], 3))).to.deep.equal({
      payload: 'Pong',
      subscriptions: ['KeyBlocks', ACCOUNT],
      count: 3,
      has_more: true,
    });
    expect(JSON.parse(pong([], 0))).to.deep.equal({ payload: 'Pong', subscriptions: [], count: 0 });
  });

  it('refuses a connection beyond the total first, then beyond its address', () => {
    const limits = { maxConnections: 3, maxConnectionsPerIp: 2 };
    expect(mdwRefusal(limits, 2, 1)).to.equal(undefined);
    expect(mdwRefusal(limits, 2, 2)).to.equal('too many connections from your address (2); try again later');
    expect(mdwRefusal(limits, 3, 0)).to.equal('too many connections (3); try again later');
  });

  it('frames events and Pong, and routes ae_mdw paths to the protocol', () => {
    expect(mdwEvent('{"a":1}', 'node', 'Object', ACCOUNT)).to.equal(
      `{"payload":{"a":1},"source":"node","subscription":"Object","target":"${ACCOUNT}"}`,
    );
    expect(JSON.parse(pong(['KeyBlocks'], 1))).to.deep.equal({
      payload: 'Pong',
      subscriptions: ['KeyBlocks'],
      count: 1,
    });
    expect(mdwVersionOf('/v2/websocket')).to.equal('v2');
    expect(mdwVersionOf('/mdw/v3/websocket?x=1')).to.equal('v3');
    expect(mdwVersionOf('/')).to.equal(undefined);
    expect(mdwVersionOf('/websocket')).to.equal(undefined);
  });

  it("takes ae_mdw's two sockets under /mdw on the HTTP port, and nothing else there", () => {
    for (const url of ['/mdw/v3/websocket', '/mdw/v2/websocket/', '/mdw/v3/websocket?x=1'])
      expect(isGatewayWebsocketPath(url), url).to.equal(true);
    for (const url of [
      '/v3/websocket',
      '/v2/websocket',
      '/websocket',
      '/mdw/websocket',
      '/mdw/v4/websocket',
      undefined,
    ])
      expect(isGatewayWebsocketPath(url), String(url)).to.equal(false);
  });
});
