/** @module Every mdw command, by name (oclif's explicit command discovery). */
import Root from './commands/root.ts';
import Migrate from './commands/migrate.ts';
import Devnode from './commands/devnode.ts';
import Dev from './commands/dev.ts';
import Operator from './commands/operator.ts';
import Manifests from './commands/manifests.ts';
import Reload from './commands/reload.ts';
import Status from './commands/status.ts';
import DbUsage from './commands/db/usage.ts';
import SnapshotExport from './commands/snapshot/export.ts';
import SnapshotFetch from './commands/snapshot/fetch.ts';
import SnapshotImport from './commands/snapshot/import.ts';
import KeysCreate from './commands/keys/create.ts';
import KeysList from './commands/keys/list.ts';
import KeysRevoke from './commands/keys/revoke.ts';
import WebhooksList from './commands/webhooks/list.ts';
import WebhooksShow from './commands/webhooks/show.ts';
import WebhooksDisable from './commands/webhooks/disable.ts';
import WebhooksDelete from './commands/webhooks/delete.ts';

export const COMMANDS = {
  run: Root,
  migrate: Migrate,
  devnode: Devnode,
  dev: Dev,
  operator: Operator,
  manifests: Manifests,
  reload: Reload,
  status: Status,
  'db:usage': DbUsage,
  'snapshot:export': SnapshotExport,
  'snapshot:fetch': SnapshotFetch,
  'snapshot:import': SnapshotImport,
  'keys:create': KeysCreate,
  'keys:list': KeysList,
  'keys:revoke': KeysRevoke,
  'webhooks:list': WebhooksList,
  'webhooks:show': WebhooksShow,
  'webhooks:disable': WebhooksDisable,
  'webhooks:delete': WebhooksDelete,
};
