import type { PlatformApi } from '../api/platform-api.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { Events } from '../events/names.js';
import type { ClanstreamEvent } from '../events/payloads.js';
import type { GatewayConnection, HandshakeRequester } from '../gateway/connection.js';
import type { Store } from '../state/store.js';
import { asClanstreamError } from './as-clanstream-error.js';
import type { InboundPipeline } from './inbound-pipeline.js';
import type { ClientRuntime } from './runtime.js';
import { collectPages } from './pagination.js';
import { SYNC_DEFAULTS } from './sync.js';

/** What membership tracking needs from the client. */
export interface ClanMembershipDeps {
  clientId(): string | undefined;
  api(): PlatformApi;
  connection(): GatewayConnection;
  store: Store;
  runtime: ClientRuntime;
  pipeline: InboundPipeline;
  report(error: ClanstreamError): void;
  /** A fresh session joins clan "0", the DM space, too (the protocol's `dmSpaceJoin`). */
  joinDmSpace?: boolean;
}

/** The clan id of the DM space (docs/PROTOCOL.md §1.6). */
const DM_SPACE = '0';

/**
 * Which clans the gateway session has joined: all of them on a fresh
 * session, a new one when the bot is added to it, one fewer when removed.
 */
export class ClanMembership {
  private joined = new Set<string>();

  constructor(private readonly deps: ClanMembershipDeps) {}

  /** Joins every clan the bot is in (and the DM space, when the protocol wants it), on a fresh gateway session. */
  async joinAll(request: HandshakeRequester): Promise<void> {
    const listed = await this.deps.pipeline.clanIdsToJoin(() => this.listAllClanIds());
    const clanIds = this.deps.joinDmSpace && !listed.includes(DM_SPACE) ? [...listed, DM_SPACE] : listed;
    this.joined = new Set();
    await Promise.all(
      clanIds.map(async (clanId) => {
        await request('clan_join', { clan_id: clanId });
        this.joined.add(clanId);
      }),
    );
  }

  /** Whether the session joined a clan. */
  has(clanId: string): boolean {
    return this.joined.has(clanId);
  }

  /** Forgets every join (the session is gone). */
  clear(): void {
    this.joined.clear();
  }

  /**
   * An inbound step: when the bot itself is added to a clan, subscribe to that clan's events and load it
   * and its channels, holding the event (and those after it) until then; when removed, forget it.
   */
  track(event: ClanstreamEvent): Promise<void> | undefined {
    const self = this.deps.clientId();
    if (event.type === Events.UserClanRemoved && self !== undefined && event.data.user_ids.includes(self)) {
      this.joined.delete(event.data.clan_id);
      this.deps.runtime.forgetChannelLoads(event.data.clan_id);
      return undefined;
    }
    if (event.type !== Events.AddClanUser || event.data.user.user_id !== self || this.joined.has(event.data.clan_id)) return undefined;
    return this.joinNew(event.data.clan_id).catch((error: unknown) => this.deps.report(asClanstreamError(error)));
  }

  /** A clan the bot was added to: subscribe to its events, and load it and its channels into the caches. */
  async joinNew(clanId: string): Promise<void> {
    if (this.joined.has(clanId)) return;
    this.joined.add(clanId);
    try {
      await this.deps.connection().request('clan_join', { clan_id: clanId });
      this.deps.store.dispatch({ type: 'sync/clans', clans: [await this.deps.api().getClan(clanId)] });
      await this.deps.runtime.loadClanChannels(clanId);
    } catch (error) {
      this.joined.delete(clanId);
      throw error;
    }
  }

  private listAllClanIds(): Promise<string[]> {
    return collectPages(
      (cursor) => this.deps.api().listClans({ limit: SYNC_DEFAULTS.pageSize, ...(cursor ? { cursor } : {}) }),
      (page) => page.clans.map((clan) => clan.clan_id),
      'the clans',
    );
  }
}
