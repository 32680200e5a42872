/** @module Names compared between a node's `/v2/names/<name>` and the middleware's `/middleware/names`. */
import { expect } from 'chai';
import type supertest from 'supertest';
import { parseJson, type Json } from '../../../../src/chain/json.ts';

type NameAnswer = { name_hash: string; name: string; owner: string; expires_at: number; pointers: Json };

/**
 * compareNames checks, for every name the middleware knows, that the node and the middleware agree:
 * a name the node serves has the same id, owner, expiry and pointers and is listed active; a name
 * the node does not serve (in auction, expired, revoked) is not active in the middleware. Returns
 * how many names the node served.
 */
export async function compareNames(nodeUrl: string, request: ReturnType<typeof supertest>): Promise<number> {
  const all = (await request.get('/middleware/names?limit=1000').expect(200)).body as NameAnswer[];
  const active = new Set(
    ((await request.get('/middleware/names/active?limit=1000').expect(200)).body as NameAnswer[]).map((n) => n.name),
  );
  let served = 0;
  for (const entry of all) {
    const res = await fetch(`${nodeUrl}/v2/names/${entry.name}`);
    const node = parseJson(await res.text()) as { id: string; ttl: number; owner: string; pointers: Json };
    if (res.status === 404) {
      expect(active.has(entry.name), `${entry.name}: not served by the node, active in the middleware`).to.equal(false);
      continue;
    }
    served++;
    expect(res.status).to.equal(200);
    expect(active.has(entry.name), `${entry.name}: served by the node, not active in the middleware`).to.equal(true);
    const search = (await request.get(`/middleware/names/${entry.name}?limit=1000`).expect(200)).body as NameAnswer[];
    const mdw = search.find((n) => n.name === entry.name)!;
    expect(
      { id: mdw.name_hash, ttl: mdw.expires_at, owner: mdw.owner, pointers: mdw.pointers },
      entry.name,
    ).to.deep.equal({ id: node.id, ttl: node.ttl, owner: node.owner, pointers: node.pointers });
  }
  return served;
}
