import type { ApiClanMember, ApiClanMemberList, PageQuery } from '../core.js';

/**
 * clanstream's pages of a clan's members over production's member list,
 * which has no pages (ListClanUsers answers every member at once): members
 * in id order, at most `limit` of them, and a cursor naming the last one
 * handed out when more follow. The rest of the answer is held per clan, so
 * paging through a listing asks the platform once; a cursor with nothing
 * held for it (another listing since, or the end handed out) asks again and
 * goes on after the member it names.
 */
export class MemberPages {
  /** Per clan: the members after the cursor last handed out, and that cursor. */
  private readonly held = new Map<string, { cursor: string; rest: ApiClanMember[] }>();

  async page(clanId: string, query: PageQuery, load: () => Promise<ApiClanMember[]>): Promise<ApiClanMemberList> {
    const kept = this.held.get(clanId);
    this.held.delete(clanId);
    const members = query.cursor && kept?.cursor === query.cursor ? kept.rest : after(query.cursor, (await load()).sort(byId));
    const limit = query.limit && query.limit > 0 ? query.limit : members.length;
    const page = members.slice(0, limit);
    const last = page.at(-1);
    if (members.length <= limit || !last) return { clan_id: clanId, members: page };
    const cursor = last.user.id;
    this.held.set(clanId, { cursor, rest: members.slice(limit) });
    return { clan_id: clanId, members: page, cursor };
  }

  /** Forgets every held listing (the session ended). */
  clear(): void {
    this.held.clear();
  }
}

/** Ids in the platform's order: decimal ids by value (shorter is smaller), any others by text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

const byId = (a: ApiClanMember, b: ApiClanMember): number => compareIds(a.user.id, b.user.id);

/** The members after the one `cursor` names (all of them without one). */
function after(cursor: string | undefined, sorted: ApiClanMember[]): ApiClanMember[] {
  return cursor ? sorted.filter((m) => compareIds(m.user.id, cursor) > 0) : sorted;
}
