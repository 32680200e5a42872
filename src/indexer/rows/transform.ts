/** @module Transform: one fetched generation → the rows of every table. Pure; shared by -p, -H and -v. */
import { isJsonObject, toBigInt, toSafeNumber } from '../../chain/json.ts';
import { effectiveTxs, listedTx } from '../../chain/ga-outcome.ts';
import { createdIds, indexedIds, innerTx, nameReferences, shownCreatedId } from '../../chain/tx-fields.ts';
import { storedTxColumns } from '../../chain/stored-tx.ts';
import { keyBlockProtocol } from '../../chain/protocols.ts';
import type { FetchedGeneration, GenerationRows, JsonObject, TxPosition } from './rows.ts';
import { aexnRows } from './aexn-rows.ts';
import { addTxRows, intText, str } from './tx-rows.ts';

/** transformGeneration builds every row of one height from the node's objects. */
export function transformGeneration(gen: FetchedGeneration): GenerationRows {
  const kb = gen.keyBlock;
  const height = gen.height;
  const protocol = keyBlockProtocol(kb);
  const rows: GenerationRows = {
    keyBlock: {
      height,
      hash: str(kb.hash),
      prevHash: str(kb.prev_hash),
      prevKeyHash: str(kb.prev_key_hash),
      beneficiary: str(kb.beneficiary),
      miner: str(kb.miner),
      timeMs: toBigInt(kb.time),
      data: kb,
    },
    continuesAt: gen.continuesAt,
    microBlocks: [],
    transactions: [],
    accountTxs: [],
    contracts: [],
    contractCalls: [],
    channelEvents: [],
    nameActions: [],
    namePointers: [],
    oracleActions: [],
    oracleQueries: [],
    oracleResponses: [],
    nameOracleQueries: [],
    nameReferences: [],
    aexn: aexnRows(gen),
  };
  const keyHash = str(gen.keyBlock.hash);
  gen.microBlocks.forEach((mb, i) => {
    const microIndex = (gen.continuesAt ?? 0) + i;
    const mbHash = str(mb.header.hash);
    const microTimeMs = toBigInt(mb.header.time);
    // a hyperchain's micro blocks carry the next height (they come before its key block): their txs count from it
    const blockHeight = mb.header.height === undefined ? height : toSafeNumber(mb.header.height);
    rows.microBlocks.push({
      hash: mbHash,
      height,
      microIndex,
      timeMs: microTimeMs,
      txCount: mb.transactions.length,
      header: mb.header,
      keyHash,
      prevHash: i > 0 ? str(gen.microBlocks[i - 1]!.header.hash) : gen.continuesAt ? gen.previousMicroHash : keyHash,
    });
    mb.transactions.forEach((signed, txIndex) => {
      const tx = signed.tx;
      if (!isJsonObject(tx)) throw new TypeError(`transaction ${String(signed.hash)} has no tx object`);
      const pos: TxPosition = { height, microIndex, txIndex, txHash: str(signed.hash) };
      const txType = str(tx.type);
      // derived ids (hashes of decoded ids) are computed once for the stored row, the account rows and the domain rows
      // a GAMetaTx's failed inner transaction took no effect: it adds no rows, and the transaction is listed under its
      // own ids only, as ae_mdw lists it (ga-outcome.ts)
      const effective = effectiveTxs(tx, gen.gaInfos?.get(pos.txHash));
      const created = effective.map(createdIds);
      const listed = listedTx(tx, effective.length);
      // shown as ae_mdw renders it, whether the inner transaction took effect or not (add_inner_tx_details)
      const shown = [tx, innerTx(tx)].filter((t) => t !== undefined);
      rows.transactions.push({
        ...pos,
        microTimeMs,
        txType,
        fee: intText(tx.fee),
        tx,
        stored: storedTxColumns(signed),
        // as rendered: the transaction's and the one it wraps directly (render-tx.ts)
        createdId: shownCreatedId(
          shown,
          shown.map((t, i) => created[i] ?? createdIds(t)),
        ),
      });
      const createdOf = (t: JsonObject): Record<string, string> => created[effective.indexOf(t)] ?? createdIds(t);
      const refs = nameReferences(listed);
      for (const [account, fields] of indexedIds(listed, createdOf, refs))
        rows.accountTxs.push({ ...pos, account, txType, fields });
      for (const ref of refs) rows.nameReferences.push({ ...pos, ...ref, txType });
      for (let depth = 0; depth < effective.length; depth++)
        addTxRows(rows, {
          gen,
          pos,
          outerType: txType,
          depth,
          tx: effective[depth]!,
          created: created[depth]!,
          protocol,
          blockHeight,
        });
    });
  });
  return rows;
}
