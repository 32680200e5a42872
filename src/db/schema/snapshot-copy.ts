/**
 * @module COPY … TO STDOUT as a Readable and COPY … FROM STDIN from a Readable, over one node-postgres client, with
 * backpressure both ways, so a snapshot's table of any size passes through a bounded buffer (`mdw snapshot`); the
 * populator's COPY of the payloads it holds goes through the same copyFrom (writes/bulk-load.ts). Each is a
 * "submittable" (the interface pg-cursor and pg-copy-streams use), without another package.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import type { Queryable } from '../connection/pool.ts';

/** The part of pg's connection a COPY needs (pg/lib/connection.js), its socket paused and resumed for backpressure. */
interface CopyConnection {
  readonly stream: Socket;
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/** Bytes a CopyOut holds before it pauses the connection's socket. */
const HIGH_WATER_MARK = 1024 * 1024;

/** The size of the chunks a CopyOut hands on: the server sends a message per row, far too small to compress one by one. */
const CHUNK_BYTES = 64 * 1024;

/**
 * CopyOut is the rows of a `COPY … TO STDOUT` as they arrive, gathered into chunks of CHUNK_BYTES: it pauses the
 * connection's socket while its reader is behind and resumes it when read, so memory stays flat whatever the table's
 * size. `rows` is the server's count once the stream has ended.
 */
class CopyOut extends Readable {
  readonly text: string;
  rows = 0;
  #connection: CopyConnection | undefined;
  #chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  #at = 0;

  constructor(text: string) {
    super({ highWaterMark: HIGH_WATER_MARK });
    this.text = text;
  }

  submit(connection: CopyConnection): void {
    this.#connection = connection;
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    // a stream its reader gave up on (a full disk) lets the rest of the COPY pass, for the client to go on
    if (this.destroyed) return;
    const row = message.chunk;
    if (this.#at + row.length > CHUNK_BYTES) this.#hand();
    // a row is a view of pg's parser buffer, which later packets overwrite: kept only as a copy
    if (row.length > CHUNK_BYTES) this.#push(Buffer.copyBytesFrom(row));
    else this.#at += row.copy(this.#chunk, this.#at);
  }

  #hand(): void {
    if (this.#at === 0) return;
    this.#push(this.#chunk.subarray(0, this.#at));
    this.#chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#at = 0;
  }

  #push(chunk: Buffer): void {
    if (!this.push(chunk)) this.#connection?.stream.pause();
  }

  override _read(): void {
    this.#connection?.stream.resume();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.#connection?.stream.resume();
    done(err);
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rows = Number(/^COPY (\d+)/.exec(message.text ?? '')?.[1] ?? 0);
  }

  handleError(err: Error): void {
    // the socket stays the client's: never left paused, whatever happens to this stream
    this.#connection?.stream.resume();
    this.destroy(err);
  }

  handleReadyForQuery(): void {
    this.#connection?.stream.resume();
    if (this.destroyed) return;
    this.#hand();
    this.push(null);
  }

  handleCopyInResponse(): void {}
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
}

/**
 * copyOut streams `sql` (a `COPY … TO STDOUT`) on `client`, one connection in a transaction: the client runs nothing
 * else until the stream has ended. `rows()` is the rows the server sent, once it has.
 */
export function copyOut(client: Queryable, sql: string): { stream: Readable; rows: () => number } {
  const copy = new CopyOut(sql);
  (client as unknown as { query(q: CopyOut): unknown }).query(copy);
  return { stream: copy, rows: () => copy.rows };
}

/**
 * The CopyData message's header before `length` bytes of data: its type and its length, the length's own four bytes
 * included (the protocol's `d` message, as pg-protocol's serializer writes it).
 */
function copyDataHeader(length: number): Buffer {
  const header = Buffer.allocUnsafe(5);
  header[0] = 0x64;
  header.writeInt32BE(length + 4, 1);
  return header;
}

/** CopyDone: the end of a COPY's data. */
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/**
 * CopyFrom sends a COPY's data: a Readable's chunks as they come, waiting for the socket to drain, or chunks held in
 * memory (the populator's payloads) all at once, each chunk after its own header rather than copied into a message:
 * the socket corked meanwhile, they leave in one write, where a write per CopyData message and one for CopyDone
 * were a system call each.
 */
class CopyFrom {
  readonly text: string;
  readonly #source: Readable | readonly Buffer[];
  readonly #done: (err: Error | undefined, rows: number) => void;
  #failure: Error | undefined;
  #rows = 0;

  constructor(
    text: string,
    source: Readable | readonly Buffer[],
    done: (err: Error | undefined, rows: number) => void,
  ) {
    this.text = text;
    this.#source = source;
    this.#done = done;
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    if (this.#source instanceof Readable) void this.#pump(connection, this.#source);
    else this.#send(connection, this.#source);
  }

  #send(connection: CopyConnection, chunks: readonly Buffer[]): void {
    const socket = connection.stream;
    socket.cork();
    for (const chunk of chunks) {
      socket.write(copyDataHeader(chunk.length));
      socket.write(chunk);
    }
    socket.write(COPY_DONE);
    socket.uncork();
  }

  async #pump(connection: CopyConnection, source: Readable): Promise<void> {
    try {
      for await (const chunk of source) {
        connection.sendCopyFromChunk(chunk as Buffer);
        if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
      }
      connection.endCopyFrom();
    } catch (err) {
      // the server ends the COPY with an error, which is this one (a part that does not decompress, say)
      this.#failure = err as Error;
      connection.sendCopyFail(this.#failure.message);
    }
  }

  handleCommandComplete(message: { text?: string }): void {
    this.#rows = Number(/^COPY (\d+)/.exec(message.text ?? '')?.[1] ?? 0);
  }

  handleError(err: Error): void {
    // pg drops the active query after an error, so ReadyForQuery will not reach this object
    if (this.#source instanceof Readable) this.#source.destroy();
    this.#done(this.#failure ?? err, this.#rows);
  }

  handleReadyForQuery(): void {
    this.#done(undefined, this.#rows);
  }

  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCopyData(): void {}
  handlePortalSuspended(): void {}
}

/**
 * copyFrom runs `sql` (a `COPY … FROM STDIN`) with `source`'s bytes (a stream, or chunks in memory) on `client`; the
 * rows the server stored.
 */
export function copyFrom(client: Queryable, sql: string, source: Readable | readonly Buffer[]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const copy = new CopyFrom(sql, source, (err, rows) => (err ? reject(err) : resolve(rows)));
    (client as unknown as { query(q: CopyFrom): unknown }).query(copy);
  });
}
