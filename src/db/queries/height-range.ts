/**
 * @module A range of stored heights, from micro block `fromMicro` of `from` on (−1: whole generations): what a batch just
 * written covers, or stored heights an area derives again; read and written by ranges alike.
 */
export interface HeightRange {
  readonly from: number;
  readonly to: number;
  readonly fromMicro: number;
}
