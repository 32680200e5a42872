// JSON.rawJSON (Node 21+, ES2025) is not in TypeScript's es2024 lib yet.
interface JSON {
  rawJSON(text: string): unknown;
}
