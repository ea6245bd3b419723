/**
 * One person logged in from the page: a real clanstream client (the browser
 * bundle) as that account, the channels it sees, a timeline per channel,
 * who is typing, and what the person does: send, reply, react, click,
 * choose, submit. Clicks and choices go through the console's API, which
 * makes the emulator emit exactly the event the platform would.
 */
import type { ConsoleAccount, ConsoleWorld, FormValue } from '../contract.js';
import { Changes } from './changes.js';
import { ChannelType, Events, ServiceClient, TypeMessage, type ChannelMessage, type ConnectionStatus, type MessageTypingEvent, type TextChannel } from './clanstream.js';
import { consoleApi, reasonOf } from './console-api.js';
import { findMentions } from './mentions.js';
import { Timeline } from './timeline.js';

export const SESSION_DEFAULTS = {
  /** Lines of the "every channel" feed. */
  activity: 200,
  /** A "typing…" notice lasts this long unless the person sends first. */
  typingMs: 6000,
  /** The person's own typing is announced at most this often (others' notices last typingMs). */
  typingEveryMs: 3000,
  /** Messages per history page. */
  page: 50,
} as const;

export interface ActivityLine {
  id: string;
  where: string;
  who: string;
  text: string;
}

const VOICE_TYPES = new Set<ChannelType>([ChannelType.CHANNEL_TYPE_GMEET_VOICE, ChannelType.CHANNEL_TYPE_SERVICE_VOICE]);

export class ChatSession {
  readonly changes = new Changes();
  readonly client: ServiceClient;
  status: ConnectionStatus | 'error' = 'connecting';
  /** The last thing that went wrong, shown in the status line. */
  problem: string | undefined;
  selected: string | undefined;
  /** The open channel once its first page of history is drawn. */
  shown: string | undefined;
  /** The message the next send answers. */
  replyingTo: ChannelMessage | undefined;
  readonly activity: ActivityLine[] = [];
  private readonly timelines = new Map<string, Timeline>();
  private readonly typing = new Map<string, Map<string, { name: string; timer: ReturnType<typeof setTimeout> }>>();
  /** When this person's own typing was last announced (Date.now()). */
  private lastTypingAt = 0;
  private readonly dmPeers = new Map<string, string>();
  private readonly loading = new Set<string>();

  constructor(
    readonly account: ConsoleAccount,
    private readonly accounts: readonly ConsoleAccount[],
    private world: ConsoleWorld | undefined,
  ) {
    const secure = location.protocol === 'https:';
    this.client = new ServiceClient({
      botId: account.id,
      token: account.token,
      host: location.hostname,
      port: location.port || (secure ? '443' : '80'),
      useSSL: secure,
      mmnApiUrl: `${location.origin}/mmn`,
      zkApiUrl: `${location.origin}/zk`,
    });
    // Subscribed before login, so nothing of the first moments is missed.
    this.client.stream(Events.ChannelMessage).subscribe((m) => this.onMessage(m));
    this.client.stream(Events.MessageTyping).subscribe((t) => this.onTyping(t));
    this.client.stream(Events.MessageReaction).subscribe((r) => {
      if (this.timelines.get(r.channel_id)?.react(r)) this.changes.changed();
    });
    this.client.status$.subscribe((status) => {
      this.status = status;
      this.changes.changed();
    });
  }

  async login(): Promise<void> {
    try {
      await this.client.login();
    } catch (error) {
      this.status = 'error';
      this.problem = `login failed: ${reasonOf(error)}`;
      this.changes.changed();
      return;
    }
    this.client.select((state) => state.channels).subscribe(() => this.changes.changed());
    this.client.select((state) => state.clans).subscribe(() => this.changes.changed());
    const start = this.client.clans.first()?.welcome_channel_id ?? this.client.channels.first()?.id;
    if (start) await this.open(start);
  }

  destroy(): void {
    for (const people of this.typing.values()) for (const { timer } of people.values()) clearTimeout(timer);
    this.client.destroy();
  }

  setWorld(world: ConsoleWorld): void {
    this.world = world;
    this.changes.changed();
  }

  // ---------------- what is shown ----------------

  timeline(channelId: string): Timeline {
    let timeline = this.timelines.get(channelId);
    if (!timeline) this.timelines.set(channelId, (timeline = new Timeline()));
    return timeline;
  }

  /** Clans with their channels (threads under their parent), then direct messages. */
  sections(): Array<{ title: string; channels: TextChannel[] }> {
    const byName = (a: TextChannel, b: TextChannel) => (a.name ?? '').localeCompare(b.name ?? '');
    const sections = [...this.client.clans.values()].map((clan) => ({
      title: clan.name,
      channels: this.client.channels.filter((c) => c.clan_id === clan.id && !c.isDirect).sort(byName),
    }));
    const direct = this.client.channels.filter((c) => c.isDirect).sort(byName);
    if (direct.length > 0) sections.push({ title: 'Direct messages', channels: direct });
    return sections;
  }

  label(channel: TextChannel | undefined, fallbackId = ''): string {
    if (!channel) return fallbackId;
    if (channel.isDirect) {
      const others = (channel.record.user_ids ?? []).filter((id) => id !== this.account.id).map((id) => this.nameOf(id));
      return `@ ${others.join(', ') || this.dmPeers.get(channel.id) || channel.name || channel.id}`;
    }
    const type: ChannelType = channel.channel_type ?? 0;
    const kind = VOICE_TYPES.has(type) ? ' (voice)' : type === ChannelType.CHANNEL_TYPE_STREAMING ? ' (stream)' : '';
    return `# ${channel.name ?? channel.id}${kind}`;
  }

  /** The parent of a thread, when the channel is one. */
  parentOf(channel: TextChannel): string | undefined {
    const parent = channel.record.parent_id;
    return parent && parent !== '0' ? parent : undefined;
  }

  nameOf(userId: string): string {
    return this.accounts.find((a) => a.id === userId)?.username ?? this.world?.accounts.find((a) => a.id === userId)?.username ?? userId;
  }

  roleName(roleId: string): string {
    return this.world?.clans.flatMap((c) => c.roles).find((r) => r.id === roleId)?.title ?? roleId;
  }

  channelName(channelId: string): string {
    return this.client.channels.get(channelId)?.name ?? this.world?.clans.flatMap((c) => c.channels).find((c) => c.id === channelId)?.name ?? channelId;
  }

  /** What a select of users, roles or channels offers: from the clan of the message. */
  directory(clanId: string): { users: Array<{ id: string; name: string }>; roles: Array<{ id: string; name: string }>; channels: Array<{ id: string; name: string }> } {
    const clan = this.world?.clans.find((c) => c.id === clanId) ?? this.world?.clans[0];
    return {
      users: (clan?.member_ids ?? this.accounts.map((a) => a.id)).map((id) => ({ id, name: this.nameOf(id) })),
      roles: (clan?.roles ?? []).map((r) => ({ id: r.id, name: r.title })),
      channels: (clan?.channels ?? []).map((c) => ({ id: c.id, name: c.name })),
    };
  }

  /** Who is typing in a channel now (not counting this person). */
  typingIn(channelId: string): string[] {
    return [...(this.typing.get(channelId)?.values() ?? [])].map((t) => t.name);
  }

  // ---------------- what the person does ----------------

  async open(channelId: string): Promise<void> {
    this.selected = channelId;
    this.replyingTo = undefined;
    this.changes.changed();
    const timeline = this.timeline(channelId);
    if (timeline.size === 0) await this.loadOlder(channelId);
    if (this.selected === channelId) this.shown = channelId;
    this.changes.changed();
  }

  /** Fetches the page of history before the oldest message kept. */
  async loadOlder(channelId: string): Promise<void> {
    const timeline = this.timeline(channelId);
    if (!timeline.hasOlder || this.loading.has(channelId)) return;
    this.loading.add(channelId);
    try {
      const before = timeline.oldestId;
      const page = await this.client.api.listMessages(channelId, { limit: SESSION_DEFAULTS.page, ...(before ? { before } : {}) });
      timeline.prepend(page.messages, page.messages.length >= SESSION_DEFAULTS.page);
    } catch (error) {
      this.problem = `could not load the history: ${reasonOf(error)}`;
    } finally {
      this.loading.delete(channelId);
      this.changes.changed();
    }
  }

  /** Moves the drawn window up, fetching older history once the kept messages run out. */
  async showOlder(channelId: string): Promise<void> {
    const timeline = this.timeline(channelId);
    if (!timeline.olderKept) await this.loadOlder(channelId);
    timeline.showOlder();
    this.changes.changed();
  }

  reply(message: ChannelMessage | undefined): void {
    this.replyingTo = message;
    this.changes.changed();
  }

  /** Sends text as this person, with its @mentions and the reply reference; false when it failed (the text is kept). */
  async send(text: string): Promise<boolean> {
    const channelId = this.selected;
    if (!channelId || !text.trim()) return false;
    const roles = (this.world?.clans.flatMap((c) => c.roles) ?? []).map((r) => ({ id: r.id, title: r.title }));
    const { mentions, everyone } = findMentions(text, { users: this.accounts, roles });
    const options = { ...(mentions.length > 0 ? { mentions } : {}), ...(everyone ? { mention_everyone: true } : {}) };
    const replyingTo = this.replyingTo?.channel_id === channelId ? this.replyingTo : undefined;
    try {
      if (replyingTo) await this.client.replyTo(replyingTo, text, options);
      else await this.client.sendMessage(channelId, text, options);
      this.replyingTo = undefined;
      this.timeline(channelId).follow();
      this.changes.changed();
      return true;
    } catch (error) {
      return this.fail('not sent', error);
    }
  }

  async toggleReaction(message: ChannelMessage, emoji: string): Promise<void> {
    const mine = message.reactions.find((r) => r.emoji_id === emoji)?.sender_ids.includes(this.account.id) ?? false;
    try {
      await this.client.reactTo(message, { emoji, emoji_id: emoji, action_delete: mine });
    } catch (error) {
      this.fail('reaction not sent', error);
    }
  }

  /** The person is typing in the selected channel: the others are told, at most every typingEveryMs. */
  typed(): void {
    const channelId = this.selected;
    const now = Date.now();
    if (!channelId || now - this.lastTypingAt < SESSION_DEFAULTS.typingEveryMs) return;
    this.lastTypingAt = now;
    // A lost notice matters to nobody: it is not reported as a problem.
    consoleApi.act({ kind: 'typing', userId: this.account.id, channelId }).catch(() => undefined);
  }

  async click(message: ChannelMessage, buttonId: string, form: Record<string, FormValue> | undefined): Promise<boolean> {
    try {
      await consoleApi.act({ kind: 'click', userId: this.account.id, messageId: message.message_id, buttonId, ...(form ? { form } : {}) });
      return true;
    } catch (error) {
      return this.fail(`click on ${buttonId} refused`, error);
    }
  }

  async choose(message: ChannelMessage, selectId: string, values: string[]): Promise<boolean> {
    try {
      await consoleApi.act({ kind: 'select', userId: this.account.id, messageId: message.message_id, selectId, values });
      return true;
    } catch (error) {
      return this.fail(`choice in ${selectId} refused`, error);
    }
  }

  private fail(what: string, error: unknown): false {
    this.problem = `${what}: ${reasonOf(error)}`;
    this.changes.changed();
    return false;
  }

  private onMessage(message: ChannelMessage): void {
    if (message.clan_id === '0' && message.sender_id !== this.account.id && !this.dmPeers.has(message.channel_id)) this.dmPeers.set(message.channel_id, message.username);
    this.stopTyping(message.channel_id, message.sender_id);
    this.timeline(message.channel_id).apply(message);
    if (message.code !== TypeMessage.ChatRemove && message.code !== TypeMessage.Indicator) {
      const channel = this.client.channels.get(message.channel_id);
      this.activity.unshift({
        id: `${message.message_id}:${message.code}:${message.update_time_seconds}`,
        where: channel ? this.label(channel) : message.channel_label || message.channel_id,
        who: message.username,
        text: message.content.t || (message.content.embed?.[0]?.title ?? '') || '[no text]',
      });
      this.activity.length = Math.min(this.activity.length, SESSION_DEFAULTS.activity);
    }
    this.changes.changed();
  }

  private onTyping(notice: MessageTypingEvent): void {
    if (notice.sender_id === this.account.id) return;
    this.stopTyping(notice.channel_id, notice.sender_id);
    let people = this.typing.get(notice.channel_id);
    if (!people) this.typing.set(notice.channel_id, (people = new Map<string, { name: string; timer: ReturnType<typeof setTimeout> }>()));
    const timer = setTimeout(() => {
      this.stopTyping(notice.channel_id, notice.sender_id);
      this.changes.changed();
    }, SESSION_DEFAULTS.typingMs);
    people.set(notice.sender_id, { name: notice.sender_display_name || notice.sender_username || this.nameOf(notice.sender_id), timer });
    this.changes.changed();
  }

  private stopTyping(channelId: string, userId: string): void {
    const entry = this.typing.get(channelId)?.get(userId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.typing.get(channelId)?.delete(userId);
  }
}
