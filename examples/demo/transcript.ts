/**
 * Turns the emulator's events into readable transcript lines:
 * who is typing, who said what, in which channel, buttons clicked, tokens sent.
 */
import { Events, TypeMessage, type ChannelMessageContent, type EventPayloadMap } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';

type Lookup = (id: string) => string;
type TypedEvent = { [K in Events]: { type: K; data: EventPayloadMap[K] } }[Events];

type Embed = NonNullable<ChannelMessageContent['embed']>[number];

/** Title, description, fields ("Pizza ██ 2") and footer, on one line. */
function describeEmbed(embed: Embed): string {
  const fields = embed.fields?.map((f) => `${f.name} ${f.value}`).join(' · ');
  return [embed.title, embed.description, fields, embed.footer?.text].filter(Boolean).join(' — ');
}

function describeEvent(event: TypedEvent, name: Lookup, channel: Lookup, dmPeer: (channelId: string, senderId: string) => string): string | undefined {
  const placeOf = (m: { clan_id: string; channel_id: string; sender_id: string }, label = channel(m.channel_id)) => (m.clan_id === '0' ? `DM → ${dmPeer(m.channel_id, m.sender_id)}` : `#${label}`);
  switch (event.type) {
    case Events.MessageTyping:
      // A notice of its own, not a message with no text.
      return `[${placeOf(event.data)}] ${event.data.sender_username} is typing…`;
    case Events.ChannelMessage: {
      const m = event.data;
      const where = placeOf(m, m.channel_label);
      const text = m.content.t ?? '';
      const extra = [
        m.content.embed?.length ? `[embed: ${m.content.embed.map(describeEmbed).join(', ')}]` : '',
        m.content.components?.length
          ? `[buttons: ${m.content.components.flatMap((r) => r.components.map((c) => ('label' in c.component ? c.component.label : c.id))).join(' | ')}]`
          : '',
      ]
        .filter(Boolean)
        .join(' ');
      const body = [text, extra].filter(Boolean).join(' ');
      if (m.code === TypeMessage.ChatUpdate) return `[${where}] ${m.username} edited: ${body}`;
      if (m.code === TypeMessage.ChatRemove) return `[${where}] ${m.username} deleted a message`;
      return `[${where}] ${m.username}: ${body}`;
    }
    case Events.MessageReaction:
      return `[#${channel(event.data.channel_id)}] ${event.data.sender_name} ${event.data.action ? 'removed' : 'reacted'} ${event.data.emoji}`;
    case Events.MessageButtonClicked:
      return `[#${channel(event.data.channel_id)}] ${name(event.data.user_id)} clicked "${event.data.button_id}"`;
    case Events.DropdownBoxSelected:
      return `[#${channel(event.data.channel_id)}] ${name(event.data.user_id)} selected ${event.data.values.join(', ')}`;
    case Events.TokenSend:
      return `[tokens] ${event.data.sender_name ?? '?'} sent ${event.data.amount} to ${name(event.data.receiver_id)}${event.data.note ? ` ("${event.data.note}")` : ''}`;
    case Events.VoiceJoinedEvent:
      return `[voice] ${name(event.data.user_id)} joined #${event.data.voice_channel_label}`;
    case Events.VoiceLeavedEvent:
      return `[voice] ${name(event.data.voice_user_id)} left #${channel(event.data.voice_channel_id)}`;
    case Events.AddClanUser:
      return `[clan] ${event.data.user.username} joined the clan`;
    default:
      return undefined;
  }
}

/** Prints a line for every event the emulator emits; returns a function that stops it. */
export function printTranscript(emu: Emulator, out: (line: string) => void): () => void {
  const name: Lookup = (id) => {
    try {
      return emu.user(id).username;
    } catch {
      return id;
    }
  };
  const channel: Lookup = (id) => {
    try {
      return emu.channel(id).channel_label ?? id;
    } catch {
      return id;
    }
  };
  const dmPeer = (channelId: string, senderId: string) => {
    try {
      return emu.channel(channelId).member_ids.filter((id) => id !== senderId).map(name).join(', ');
    } catch {
      return channelId;
    }
  };
  return emu.onEvent((type, data) => {
    const line = describeEvent({ type, data } as TypedEvent, name, channel, dmPeer);
    if (line) out(line);
  });
}
