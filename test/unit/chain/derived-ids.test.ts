/** @module Derived ids checked against aepp-sdk and against ids seen on the real chain. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildContractId, oracleQueryId as sdkQueryId, produceNameId, commitmentHash } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import {
  channelId,
  commitmentId,
  contractId,
  isNameText,
  nameId,
  oracleId,
  oracleQueryId,
} from '../../../src/chain/derived-ids.ts';
import { auctionEndAfterBid, auctionTimeout, claimMaxExpiration, Protocol } from '../../../src/chain/aens.ts';

const account = (): `ak_${string}` => encode('ak', randomBytes(32)) as `ak_${string}`;

describe('chain/derived-ids', () => {
  it('derives contract ids like aepp-sdk, for small and large nonces', () => {
    for (const nonce of [0, 1, 2, 255, 256, 65537, 2 ** 40]) {
      const owner = account();
      expect(contractId(owner, BigInt(nonce))).to.equal(buildContractId(owner, nonce));
    }
    expect(contractId('ak_P1hn3JnJXcdx8USijBcgZHLgvZywH5PbjQK5G1iZaEu9obHiH', 2n)).to.equal(
      'ct_5ye5dEQwtCrRhsKYq8BprAMFptpY59THUyTxSBQKpDTcywEhk',
    );
  });

  it('derives oracle query ids like aepp-sdk', () => {
    for (const nonce of [1, 300, 2 ** 50]) {
      const sender = account();
      const oracle = oracleId(account()) as `ok_${string}`;
      expect(oracleQueryId(sender, BigInt(nonce), oracle)).to.equal(sdkQueryId(sender, nonce, oracle));
    }
    expect(
      oracleQueryId(
        'ak_2ZjpYpJbzq8xbzjgPuEpdq9ahZE7iJRcAYC1weq3xdrNbzRiP4',
        1n,
        'ok_2iqfJjbhGgJFRezjX6Q6DrvokkTM5niGEHBEJZ7uAG5fSGJAw1',
      ),
    ).to.equal('oq_2YvZnoohcSvbQCsPKSMxc98i5HZ1sU5mR6xwJUZC3SvkuSynMj');
  });

  it('re-prefixes an account key as its oracle id', () => {
    expect(oracleId('ak_g5vQK6beY3vsTJHH7KBusesyzq9WMdEYorF8VyvZURXTjLnxT')).to.equal(
      'ok_g5vQK6beY3vsTJHH7KBusesyzq9WMdEYorF8VyvZURXTjLnxT',
    );
  });

  it('derives the channel id of a real ChannelCreateTx', () => {
    expect(
      channelId(
        'ak_ozzwBYeatmuN818LjDDDwRSiBSvrqt4WU7WvbGsZGVre72LTS',
        1n,
        'ak_26xYuZJnxpjuBqkvXQ4EKb4Ludt8w3rGWREvEwm68qdtJLyLwq',
      ),
    ).to.equal('ch_22usvXSjYaDPdhecyhub7tZnYpHeCEZdscEEyhb2M4rHb58RyD');
  });

  it('hashes .chain names like aepp-sdk, case-insensitively, and .test names with the pre-Lima rule', () => {
    for (const name of ['meta.chain', 'morethantwelve.chain', 'a.chain', 'привет.chain'] as const) {
      expect(nameId(name)).to.equal(produceNameId(name));
    }
    expect(nameId('Meta.Chain')).to.equal('nm_2ab7LiFhV5uAzXq6EHmMsPm2cHoKaLdFMnwoTrkVaHSUAAZmx5');
    expect(nameId('umpz.test')).to.equal('nm_t13Kcjan1mRu2sFjdMgeeASSSL8QoxmVhTrFCmji1j1DZ4jhb');
  });

  it('never hashes text that is no name as another name: nothing cut at / \\ ? #, no tab dropped, no % decoded (issue 27.6)', () => {
    for (const [text, name] of [
      ['a/b.chain', 'a'],
      ['a\\b.chain', 'a'],
      ['a?b.chain', 'a'],
      ['a#b.chain', 'a'],
      ['a\tb.chain', 'ab.chain'],
      ['a\nb.chain', 'ab.chain'],
      ['a%62.chain', 'ab.chain'],
    ] as const) {
      expect(isNameText(text), JSON.stringify(text)).to.equal(false);
      expect(nameId(text), JSON.stringify(text)).to.not.equal(nameId(name));
      expect(nameId(text), JSON.stringify(text)).to.not.equal(nameId(`${name.replace(/\.chain$/, '')}.chain`));
    }
    for (const name of ['meta.chain', 'привет.chain', 'a-b.chain']) expect(isNameText(name), name).to.equal(true);
  });

  it('derives commitment ids like aepp-sdk (.chain) and the protocol example (.test)', () => {
    for (const salt of [1, 123, 2 ** 52])
      expect(commitmentId('foo.chain', BigInt(salt))).to.equal(commitmentHash('foo.chain', salt));
    expect(commitmentId('foobar.test', 123n)).to.equal('cm_2ijL6NFZ11RsBVWwFB69oZYp6gFV9JSB71xccbnqrPisEiMrji');
  });
});

describe('chain/aens', () => {
  it('auctions short names from Lima with the era timeouts', () => {
    expect(auctionTimeout('abcd.chain', Protocol.FORTUNA)).to.equal(0);
    expect(auctionTimeout('abcd.chain', Protocol.LIMA)).to.equal(29760);
    expect(auctionTimeout('abcdefgh.chain', Protocol.IRIS)).to.equal(14880);
    expect(auctionTimeout('abcdefghijkl.chain', Protocol.LIMA)).to.equal(480);
    expect(auctionTimeout('abcdefghijklm.chain', Protocol.LIMA)).to.equal(0);
    expect(auctionTimeout('abcd.chain', Protocol.CERES)).to.equal(2400);
  });

  it('restarts the timeout on a bid before Ceres and extends to bid height + 240 blocks from Ceres', () => {
    expect(auctionEndAfterBid('abcdefghijkl.chain', Protocol.IRIS, 1000, 1200)).to.equal(1480);
    expect(auctionEndAfterBid('abcdefghijkl.chain', Protocol.CERES, 900, 1200)).to.equal(1200);
    expect(auctionEndAfterBid('abcdefghijkl.chain', Protocol.CERES, 1000, 1200)).to.equal(1240);
    expect(auctionEndAfterBid('abcdefghijkl.chain', Protocol.CERES, 1150, 1200)).to.equal(1390);
  });

  it('gives claims 50000 blocks before Iris and 180000 from Iris', () => {
    expect(claimMaxExpiration(Protocol.LIMA)).to.equal(50000);
    expect(claimMaxExpiration(Protocol.IRIS)).to.equal(180000);
  });
});
