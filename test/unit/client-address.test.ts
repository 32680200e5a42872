/** @module TrustedProxies: the client address behind trusted proxies (rightmost untrusted X-Forwarded-For entry). */
import { expect } from 'chai';
import { normaliseAddress, parseProxyEntry, TrustedProxies } from '../../src/config/client-address.ts';

describe('parseProxyEntry', () => {
  it('reads addresses and CIDR networks, IPv4 and IPv6, a mapped IPv4 one as IPv4', () => {
    expect(parseProxyEntry('10.0.0.7')).to.deep.equal({ address: '10.0.0.7', prefix: 32, family: 'ipv4' });
    expect(parseProxyEntry(' 10.0.0.0/8 ')).to.deep.equal({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseProxyEntry('fd00::/8')).to.deep.equal({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    expect(parseProxyEntry('::1')).to.deep.equal({ address: '::1', prefix: 128, family: 'ipv6' });
    expect(parseProxyEntry('::ffff:10.1.2.3')).to.deep.equal({ address: '10.1.2.3', prefix: 32, family: 'ipv4' });
    expect(parseProxyEntry('::ffff:10.0.0.0/104')).to.deep.equal({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
  });

  for (const bad of [
    '',
    'ingress',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0/8',
    '10.0.0.0/',
    '/8',
    '1.2.3.4:80',
    'fe80::1%eth0',
    '10.0.0.0/8/8',
    '::ffff:10.0.0.0/95',
  ])
    it(`refuses ${JSON.stringify(bad)}`, () => expect(parseProxyEntry(bad)).to.equal(undefined));
});

describe('normaliseAddress', () => {
  it('writes a mapped IPv4 address as IPv4, IPv6 in lower case, and refuses what is no address', () => {
    expect(normaliseAddress('::ffff:127.0.0.1')).to.equal('127.0.0.1');
    expect(normaliseAddress('::FFFF:127.0.0.1')).to.equal('127.0.0.1');
    expect(normaliseAddress('2001:DB8::1')).to.equal('2001:db8::1');
    expect(normaliseAddress('2001:0db8:0:0:0:0:0:1')).to.equal('2001:db8::1');
    expect(normaliseAddress('8.8.8.8')).to.equal('8.8.8.8');
    expect(normaliseAddress('unknown')).to.equal(undefined);
  });
});

describe('TrustedProxies.clientAddress(peer, X-Forwarded-For)', () => {
  const ingress = new TrustedProxies(['10.0.0.0/8', 'fd00::/8']);

  it('is the TCP peer when nobody is trusted, whatever the header says', () => {
    const none = new TrustedProxies([]);
    expect(none.clientAddress('203.0.113.9', '198.51.100.1')).to.equal('203.0.113.9');
    expect(none.clientAddress('::ffff:203.0.113.9', undefined)).to.equal('203.0.113.9');
    expect(none.clientAddress(undefined, undefined)).to.equal('unknown');
    expect(new TrustedProxies(['10.0.0.0/8']).clientAddress(undefined, '198.51.100.1')).to.equal('unknown');
  });

  it('is the TCP peer when the peer is no trusted proxy: its X-Forwarded-For is forged', () => {
    expect(ingress.clientAddress('203.0.113.9', '10.0.0.5, 198.51.100.1')).to.equal('203.0.113.9');
  });

  it('is the rightmost entry that is no trusted proxy, behind a trusted peer', () => {
    expect(ingress.clientAddress('10.1.1.1', '198.51.100.1')).to.equal('198.51.100.1');
    // the client claimed 1.1.1.1 itself; the ingress appended the address it saw
    expect(ingress.clientAddress('10.1.1.1', '1.1.1.1, 198.51.100.1')).to.equal('198.51.100.1');
    // two proxies of ours in a row (a load balancer, then the ingress)
    expect(ingress.clientAddress('::ffff:10.1.1.1', '1.1.1.1, 198.51.100.1, 10.2.2.2')).to.equal('198.51.100.1');
    expect(ingress.clientAddress('fd00::2', '2001:DB8:0::7, fd00::3')).to.equal('2001:db8::7');
  });

  it('reads the header repeated, and entries with ports or brackets', () => {
    expect(ingress.clientAddress('10.1.1.1', ['1.1.1.1', '198.51.100.1:4711'])).to.equal('198.51.100.1');
    expect(ingress.clientAddress('10.1.1.1', '[2001:db8::7]:4711')).to.equal('2001:db8::7');
    expect(ingress.clientAddress('10.1.1.1', '[2001:db8::8]')).to.equal('2001:db8::8');
    expect(ingress.clientAddress('10.1.1.1', '::ffff:198.51.100.2')).to.equal('198.51.100.2');
  });

  it('ends at the last trusted hop when an entry is no address, or the list is all trusted proxies', () => {
    expect(ingress.clientAddress('10.1.1.1', '198.51.100.1, unknown')).to.equal('10.1.1.1');
    expect(ingress.clientAddress('10.1.1.1', '198.51.100.1, garbage, 10.2.2.2')).to.equal('10.2.2.2');
    expect(ingress.clientAddress('10.1.1.1', '198.51.100.1,, 10.2.2.2')).to.equal('10.2.2.2');
    expect(ingress.clientAddress('10.1.1.1', '10.3.3.3, 10.2.2.2')).to.equal('10.3.3.3');
    expect(ingress.clientAddress('10.1.1.1', '')).to.equal('10.1.1.1');
    expect(ingress.clientAddress('10.1.1.1', undefined)).to.equal('10.1.1.1');
  });

  it('refuses an entry parseProxyEntry does not accept', () => {
    expect(() => new TrustedProxies(['10.0.0.0/8', 'ingress'])).to.throw(TypeError, /"ingress"/);
  });
});
