// An audit bot written with the platform's official SDK, as public bots are:
// it listens to every event the SDK's on* methods expose, and to typing, and
// writes each one down (as a JSON line on stdout, which the compat tests read).
import { MezonClient } from 'mezon-sdk';

const client = new MezonClient({ botId: process.env.BOT_ID, token: process.env.BOT_TOKEN });
const report = (kind) => (data) => console.log(JSON.stringify({ kind, data }));

client
  .onChannelMessage(report('channel_message'))
  .onMessageReaction(report('message_reaction_event'))
  .onMessageButtonClicked(report('message_button_clicked'))
  .onDropdownBoxSelected(report('dropdown_box_selected'))
  .onChannelCreated(report('channel_created_event'))
  .onChannelUpdated(report('channel_updated_event'))
  .onChannelDeleted(report('channel_deleted_event'))
  .onAddClanUser(report('add_clan_user_event'))
  .onUserClanRemoved(report('user_clan_removed_event'))
  .onUserChannelAdded(report('user_channel_added_event'))
  .onUserChannelRemoved(report('user_channel_removed_event'))
  .onRoleEvent(report('role_event'))
  .onRoleAssign(report('role_assign_event'))
  .onVoiceStartedEvent(report('voice_started_event'))
  .onVoiceEndedEvent(report('voice_ended_event'))
  .onVoiceJoinedEvent(report('voice_joined_event'))
  .onVoiceLeavedEvent(report('voice_leaved_event'))
  .onStreamingJoinedEvent(report('streaming_joined_event'))
  .onStreamingLeavedEvent(report('streaming_leaved_event'))
  .onWebrtcSignalingFwd(report('webrtc_signaling_fwd'))
  .onTokenSend(report('token_sent_event'))
  .onGiveCoffee(report('give_coffee_event'))
  .onClanEventCreated(report('clan_event_created'))
  .onNotification(report('notifications'))
  .onQuickMenuEvent(report('quick_menu_event'));

client
  .login()
  .then(() => {
    // The SDK decodes typing notices but offers no on* listener for them: bots listen on its socket.
    client.socketManager.getSocket().socketEvents.on('message_typing_event', report('message_typing_event'));
    report('ready')({ clientId: client.clientId });
  })
  .catch((error) => report('login_failed')({ message: error instanceof Error ? error.message : String(error) }));
