/** @module `mdw keys list`: the API keys, never the keys themselves. */
import { Command, Flags } from '@oclif/core';
import { withKeysAdmin } from '../../admin-run.ts';

export default class KeysList extends Command {
  static override summary = 'List the API keys: id, tier, state, source, created, name.';
  static override description =
    "One line per key, tab-separated (--json: one JSON line per key). `source` is `cli` for keys of `mdw keys create`, `file` for those of API_KEYS_FILE (the operator's Secret). No key's text is stored, so none is shown.";
  static override examples = ['mdw keys list', 'mdw keys list --json'];
  static override flags = { json: Flags.boolean({ description: 'one JSON object per line' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    await withKeysAdmin(this, async (cfg, log, { keyList, keyLine }) => {
      for (const k of await keyList(cfg, log))
        this.log(
          flags.json
            ? JSON.stringify({
                id: k.id,
                name: k.name,
                tier: k.tier,
                source: k.source,
                created_at: k.createdAt.toISOString(),
                revoked_at: k.revokedAt?.toISOString() ?? null,
              })
            : keyLine(k),
        );
    });
  }
}
