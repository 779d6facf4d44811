/** 4.7 Game achievements (definitions) and 4.3 User achievements. */
import { ENDPOINTS } from '../../domain/endpoints.js';
import type { ParentType } from '../../domain/types.js';
import { apiRoute, endpoint, namedParent, ok, type ApiRoute, type HandlerContext } from '../http/endpoint.js';
import { fail, shown } from '../http/failure.js';
import type { DefinitionRecord, QuestDefinition } from '../repositories/achievements.js';
import type { GameRecord } from '../repositories/games.js';
import { presentDefinition, presentUpdate, presentUserAchievement } from '../present.js';
import {
  definitionsParams,
  userAchievementParams,
  userAchievementPutParams,
  userAchievementsListParams,
  type UserAchievementParams,
} from '../schemas.js';

const unknownParent = (type: ParentType, id: string) => fail.notFound(`${type === 'Game' ? 'game' : 'website'} ${id}`);

function parentOrFail({ repos }: HandlerContext, type: ParentType, id: string): GameRecord {
  const parent = repos.games.findParent(type, id);
  if (!parent) throw unknownParent(type, id);
  return parent;
}

/** Inactive definitions are hidden from users: they answer like unknown ones. */
function visible<T extends QuestDefinition>(def: T | undefined, type: ParentType, parentId: string): T | undefined {
  return def && def.state === 'Active' && def.parentType === type && def.parentId === parentId ? def : undefined;
}

const unknownAchievement = (type: ParentType, parentId: string, developerId: string) =>
  fail.notFound(`achievement ${shown(developerId)} of ${type === 'Game' ? 'game' : 'website'} ${parentId}`);

function definitionOrFail(
  ctx: HandlerContext,
  type: ParentType,
  parentId: string,
  developerId: string,
): DefinitionRecord {
  const def = visible(ctx.repos.achievements.definitionByDeveloperId(type, parentId, developerId), type, parentId);
  if (!def) throw unknownAchievement(type, parentId, developerId);
  return def;
}

/** As definitionOrFail, with only what a user's quest needs (no tags, no completion count). */
function questOrFail(ctx: HandlerContext, type: ParentType, parentId: string, developerId: string): QuestDefinition {
  const def = visible(ctx.repos.achievements.questByDeveloperId(type, parentId, developerId), type, parentId);
  if (!def) throw unknownAchievement(type, parentId, developerId);
  return def;
}

const unknownUser = (uid: string) => fail.notFound(`user ${uid}`);

function userOrFail({ repos }: HandlerContext, uid: string): void {
  if (!repos.users.findByUid(uid)) throw unknownUser(uid);
}

/** The user, the parent and the definition a user-achievement request names, checked in that order. */
function resolve({ repos }: HandlerContext, p: UserAchievementParams): QuestDefinition {
  const found = repos.achievements.questOf(p.uid, p.parentType, p.parentId, p.developerId);
  if (!found.userKnown) throw unknownUser(p.uid);
  if (!found.parentKnown) throw unknownParent(p.parentType, p.parentId);
  const quest = visible(found.quest, p.parentType, p.parentId);
  if (!quest) throw unknownAchievement(p.parentType, p.parentId, p.developerId);
  return quest;
}

const definitionsRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.listAchievementDefinitions,
    params: definitionsParams,
    parentOf: namedParent,
    handle(ctx, p) {
      parentOrFail(ctx, p.parentType, p.parentId);
      const { achievements } = ctx.repos;
      switch (p.select) {
        case 'all':
          return ok(achievements.definitionsOf(p.parentType, p.parentId).map(presentDefinition));
        case 'aid': {
          const def = visible(achievements.definitionById(p.aid), p.parentType, p.parentId);
          if (!def)
            throw fail.notFound(
              `achievement ${p.aid} of ${p.parentType === 'Game' ? 'game' : 'website'} ${p.parentId}`,
            );
          return ok([presentDefinition(def)]);
        }
        case 'developer_id':
          return ok([presentDefinition(definitionOrFail(ctx, p.parentType, p.parentId, p.developerId))]);
      }
    },
  }),
);

const userAchievementsRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.listUserAchievements,
    params: userAchievementsListParams,
    parentOf: (p) => (p.parentId === undefined ? undefined : { type: p.parentType, id: p.parentId }),
    handle(ctx, p) {
      const parentId = p.parentId ?? ctx.apiKey.gameId;
      userOrFail(ctx, p.uid);
      parentOrFail(ctx, p.parentType, parentId);
      if (p.developerId !== undefined) questOrFail(ctx, p.parentType, parentId, p.developerId);
      return ok(ctx.repos.achievements.list({ ...p, parentId }).map(presentUserAchievement));
    },
  }),
  endpoint({
    row: ENDPOINTS.changeUserAchievement,
    params: userAchievementPutParams,
    parentOf: namedParent,
    handle(ctx, p) {
      const def = resolve(ctx, p);
      const result = ctx.repos.achievements.change(p.uid, def, p.change, ctx.now);
      if (result === 'revoked') throw fail.revokedQuest(p.developerId);
      return ok(presentUpdate(result));
    },
  }),
  endpoint({
    row: ENDPOINTS.deleteUserAchievement,
    params: userAchievementParams,
    parentOf: namedParent,
    handle(ctx, p) {
      const def = resolve(ctx, p);
      const removed = ctx.repos.achievements.remove(p.uid, def.id);
      if (!removed) throw fail.notFound(`user achievement ${shown(p.developerId)} of user ${p.uid}`);
      return ok(presentUserAchievement(removed));
    },
  }),
);

/** This module's routes, in the order /openapi.json lists them (routes/index.ts reads them). */
export const ROUTES: readonly ApiRoute[] = [definitionsRoute, userAchievementsRoute];
