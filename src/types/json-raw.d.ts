// JSON.rawJSON and JSON.isRawJSON (Node 21+, ES2025) are not in TypeScript's es2024 lib yet.
interface JSON {
  rawJSON(text: string): unknown;
  isRawJSON(value: unknown): boolean;
}
