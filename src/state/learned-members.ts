import type { EditToken } from './edit-token.js';
import type { PersistentMap } from './persistent-map.js';
import type { MemberState } from './records.js';
import { isLearnedMember } from './reducers/members.js';

type Members = PersistentMap<PersistentMap<MemberState>>;

/**
 * Clan memberships the caches learned from events (a message's sender, a
 * user added to a clan), oldest first. Past the bound the oldest are
 * forgotten again, unless a listing has replaced them since: senders cannot
 * grow the member lists without end, whether a busy clan's or a hostile
 * server's. A forgotten member is fetched when asked for (`clan.users`) and
 * learned again from their next message.
 */
export class LearnedMembers {
  private clanIds: string[] = [];
  private userIds: string[] = [];
  /** Entries before this index were passed already. */
  private head = 0;

  /** Memberships noted and not yet passed (some may have gone another way since). */
  get size(): number {
    return this.clanIds.length - this.head;
  }

  /** Notes a member a reducer added to a clan's list from an event (`ReduceContext.learnedMember`). */
  readonly note = (clanId: string, userId: string): void => {
    this.clanIds.push(clanId);
    this.userIds.push(userId);
  };

  /** Forgets the oldest learned members until at most `limit` are noted; the same map when none goes. */
  evict(members: Members, limit: number, token: EditToken | undefined): Members {
    let next = members;
    while (this.size > limit) {
      const clanId = this.clanIds[this.head]!;
      const userId = this.userIds[this.head]!;
      this.head += 1;
      const clan = next.get(clanId);
      const member = clan?.get(userId);
      if (clan && member && isLearnedMember(member)) next = next.set(clanId, clan.delete(userId, token), token);
    }
    // The passed front is dropped once it is as long as the bound: amortised, and the arrays stay within twice the bound.
    if (this.head >= limit) {
      this.clanIds = this.clanIds.slice(this.head);
      this.userIds = this.userIds.slice(this.head);
      this.head = 0;
    }
    return next;
  }

  clear(): void {
    this.clanIds = [];
    this.userIds = [];
    this.head = 0;
  }
}
