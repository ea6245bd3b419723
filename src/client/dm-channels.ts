import type { PlatformApi } from '../api/platform-api.js';
import { ApiError } from '../errors/api-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ApiChannelDescription } from '../model/api.js';
import type { Store } from '../state/store.js';

/**
 * Opens DM channels: the cached one when there is one, else one request per
 * user however many callers ask at once, so sends that wait on it go out in
 * call order.
 */
export class DmChannels {
  private readonly opening = new Map<string, Promise<ApiChannelDescription | null>>();

  constructor(
    private readonly store: Store,
    private readonly api: () => PlatformApi,
    private readonly selfId: () => string | undefined,
  ) {}

  /** The DM channel with a user; null when the server gives no channel description (an unknown user included). */
  open(userId: string): Promise<ApiChannelDescription | null> {
    if (typeof userId !== 'string' || userId === '') return Promise.reject(new ValidationError([{ path: 'userId', message: 'is required', code: 'invalid' }], 'DM channel'));
    const known = this.store.current.dmChannels.get(userId);
    const cached = known ? this.store.current.channels.get(known) : undefined;
    if (cached) return Promise.resolve(cached);
    let opening = this.opening.get(userId);
    if (!opening) {
      opening = this.request(userId).finally(() => this.opening.delete(userId));
      this.opening.set(userId, opening);
    }
    return opening;
  }

  private async request(userId: string): Promise<ApiChannelDescription | null> {
    let channel: ApiChannelDescription;
    try {
      channel = await this.api().createDmChannel([userId]);
    } catch (error) {
      // No channel description (an unknown user) resolves null, as in the platform's SDK: not a failure.
      if (error instanceof ApiError && error.isNotFound) return null;
      throw error;
    }
    if (typeof channel !== 'object' || channel === null || typeof channel.channel_id !== 'string' || channel.channel_id === '') return null;
    const withPeers: ApiChannelDescription = { ...channel, user_ids: channel.user_ids ?? [userId, this.selfId() ?? ''] };
    this.store.dispatch({ type: 'sync/dm-channels', channels: [withPeers] });
    return this.store.current.channels.get(channel.channel_id) ?? withPeers;
  }
}
