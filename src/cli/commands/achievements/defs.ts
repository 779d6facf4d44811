import type { Factory } from '../../../ops/factory.js';
import type { ParentType } from '../../../domain/types.js';
import { optionalInteger, parseKey, parseParentType, printList, resolveGame } from '../../../ops/args.js';
import { DEFINITION_COLUMNS } from '../../../ops/columns/achievements.js';

export interface DefsOptions {
  aid?: string;
  developerId?: string;
  type?: string;
}

export async function run(factory: Factory, args: { gameId?: string }, opts: DefsOptions): Promise<void> {
  const aid = optionalInteger(opts.aid, '--aid', { min: 1 });
  const developerId = opts.developerId === undefined ? undefined : parseKey(opts.developerId, 'developer_id');
  const explicitType = opts.type === undefined ? undefined : parseParentType(opts.type);
  const settings = await factory.settings();
  const gameId = resolveGame(args.gameId, settings, 'pass one');
  const query: { type?: ParentType; aid?: number; developerId?: string } = { type: explicitType ?? settings.type };
  if (aid !== undefined) query.aid = aid;
  if (developerId !== undefined) query.developerId = developerId;

  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin('Fetching achievement definitions', () =>
    client.listAchievementDefinitions(gameId, query),
  );
  await printList(factory, reply, DEFINITION_COLUMNS);
}
