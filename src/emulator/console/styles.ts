/** The console's stylesheet: a 1280×800 three-column layout, one column at a time below 800 px wide. */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; --line: #8884; --soft: #8882; --accent: #4b6bfb; }
* { box-sizing: border-box; }
body { margin: 0; height: 100vh; display: grid; grid-template-rows: auto auto 1fr; }
#app { display: contents; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 1rem; margin: 0; }
#status { margin-left: auto; opacity: .8; }
body[data-status="ready"] #status { color: #2a2; opacity: 1; }
body[data-status="reconnecting"] #status { color: #c80; opacity: 1; }
body[data-status="error"] #status { color: #d33; opacity: 1; }
.views { display: none; gap: .25rem; padding: .25rem 1rem; border-bottom: 1px solid var(--line); }
.views button[aria-pressed="true"] { font-weight: 700; }
/* Placed by row: the views bar is hidden on wide screens, and the layout must still take the last, stretching row. */
header.top { grid-row: 1; } .views { grid-row: 2; }
.layout { grid-row: 3; display: grid; grid-template-columns: 14rem minmax(0, 1fr) 24rem; min-height: 0; }
.column { min-height: 0; overflow: auto; }
.channels-column { padding: .5rem; border-right: 1px solid var(--line); }
.inspect-column { border-left: 1px solid var(--line); display: grid; grid-template-rows: auto 1fr; }
.inspect-column > [role="tabpanel"] { overflow: auto; padding: .5rem; min-height: 0; }
h2 { font-size: .8rem; text-transform: uppercase; opacity: .7; margin: .75rem 0 .25rem; }
h3 { font-size: .9rem; margin: .75rem 0 .25rem; }
ul, ol { list-style: none; margin: 0; padding: 0; }
#channels button { all: unset; cursor: pointer; display: block; width: 100%; padding: .15rem .4rem; border-radius: .25rem; }
#channels button:focus-visible { outline: 2px solid var(--accent); }
#channels button[aria-current="true"] { background: var(--soft); font-weight: 600; }
#channels .thread button { padding-left: 1.2rem; }
.chat-column { display: grid; grid-template-rows: auto 1fr auto; overflow: hidden; }
.chat-column > h2 { margin: 0; padding: .5rem 1rem; font-size: 1rem; text-transform: none; opacity: 1; border-bottom: 1px solid var(--line); }
.message-pane { overflow: auto; padding: .25rem 1rem; min-height: 0; }
.message { padding: .35rem 0; border-bottom: 1px solid var(--soft); overflow-wrap: anywhere; }
.message header { display: flex; gap: .5rem; align-items: baseline; }
.message header time, .edited, small { opacity: .65; font-size: .8rem; }
.message .tools { margin-left: auto; }
.message.deleted { opacity: .6; }
.message.ephemeral { background: #fc02; }
.message.notice .text { font-style: italic; }
.who { font-weight: 600; margin-right: .4rem; }
.where { opacity: .6; margin-right: .4rem; }
.text { white-space: pre-wrap; }
.text code, .body { font-family: ui-monospace, monospace; background: var(--soft); padding: 0 .2rem; border-radius: .2rem; }
.code-block { white-space: pre-wrap; background: var(--soft); padding: .4rem; border-radius: .3rem; margin: .25rem 0; }
.mention { background: #4b6bfb33; border-radius: .2rem; padding: 0 .15rem; }
.mention.self { background: #fb4b4b44; }
.hashtag { all: unset; cursor: pointer; color: var(--accent); }
.badge { font-size: .75rem; border: 1px solid var(--line); border-radius: .6rem; padding: 0 .4rem; }
.reference { margin: .2rem 0; padding-left: .5rem; border-left: 3px solid var(--line); opacity: .8; font-size: .9rem; }
.attachments img, .embed-image { max-width: min(100%, 24rem); max-height: 16rem; border-radius: .3rem; display: block; }
.embed { display: flex; gap: .75rem; border-left: 4px solid var(--line); background: var(--soft); padding: .5rem .75rem; margin: .3rem 0; border-radius: .3rem; max-width: 36rem; }
.embed-main { flex: 1; min-width: 0; }
.embed-title { margin: .1rem 0; font-size: 1rem; }
.embed-description { white-space: pre-wrap; margin: .2rem 0; }
.embed-fields { display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin: .3rem 0; }
.embed-fields .field { flex: 1 1 100%; }
.embed-fields .field.inline { flex: 1 1 28%; }
.embed-fields dt { font-weight: 600; }
.embed-fields dd { margin: 0; white-space: pre-wrap; }
.embed-thumbnail { width: 4rem; height: 4rem; object-fit: cover; border-radius: .3rem; }
.embed-footer { font-size: .8rem; opacity: .75; margin-top: .3rem; }
.icon { width: 1.2rem; height: 1.2rem; border-radius: 50%; vertical-align: middle; margin-right: .3rem; }
.action-row { display: flex; flex-wrap: wrap; gap: .4rem; margin: .3rem 0; }
.btn { padding: .3rem .8rem; border-radius: .3rem; border: 1px solid transparent; cursor: pointer; font: inherit; text-decoration: none; }
.btn[disabled] { opacity: .45; cursor: not-allowed; }
.btn-primary { background: #4b6bfb; color: white; }
.btn-secondary { background: #8884; color: inherit; }
.btn-success { background: #2a8a3a; color: white; }
.btn-danger { background: #c83737; color: white; }
.btn-link { background: transparent; color: var(--accent); text-decoration: underline; }
.radios { border: 0; padding: 0; margin: .2rem 0; display: flex; flex-wrap: wrap; gap: .3rem; }
.radio { display: inline-flex; gap: .3rem; align-items: center; padding: .15rem .5rem; border-radius: .3rem; }
.animation { margin: .3rem 0; } .animation img { max-width: 8rem; }
.grid { display: grid; gap: .25rem; } .grid li { border: 1px solid var(--line); padding: .2rem; text-align: center; }
.form-problem { color: #d33; margin: .2rem 0; }
.reactions { display: flex; flex-wrap: wrap; gap: .25rem; margin-top: .25rem; }
.reaction { border: 1px solid var(--line); background: transparent; border-radius: 1rem; padding: 0 .5rem; cursor: pointer; font: inherit; }
.reaction[aria-pressed="true"] { background: #4b6bfb33; border-color: var(--accent); }
.message:not(:hover):not(:focus-within) .add-reaction { opacity: 0; }
.reaction.add { opacity: .5; } .reaction.add:hover, .reaction.add:focus-visible { opacity: 1; }
.tool, .more { font: inherit; font-size: .8rem; background: transparent; border: 1px solid var(--line); border-radius: .3rem; cursor: pointer; padding: 0 .4rem; }
.more { display: block; margin: .4rem auto; }
.more-row { display: flex; justify-content: center; gap: .5rem; }
.typing { min-height: 1.2em; margin: .2rem 0; font-size: .8rem; opacity: .7; }
#send { padding: .5rem 1rem; border-top: 1px solid var(--line); }
.compose-row { display: flex; gap: .5rem; }
#text { flex: 1; padding: .4rem; font: inherit; resize: vertical; min-height: 2.2rem; }
.replying { margin: 0 0 .3rem; font-size: .85rem; }
.tabs { display: flex; border-bottom: 1px solid var(--line); }
.tabs button { flex: 1; font: inherit; background: transparent; border: 0; padding: .4rem; cursor: pointer; border-bottom: 2px solid transparent; }
.tabs button[aria-selected="true"] { border-bottom-color: var(--accent); font-weight: 600; }
#activity li { margin: .2rem 0; overflow-wrap: anywhere; }
.filters { display: flex; flex-wrap: wrap; gap: .4rem; margin-bottom: .4rem; }
.filters label { display: grid; font-size: .8rem; }
.wire-lines li { font-size: .8rem; border-bottom: 1px solid var(--soft); padding: .15rem 0; overflow-wrap: anywhere; }
.wire-lines .body { display: block; max-height: 4.5em; overflow: hidden; }
.wire-lines [data-direction="out"] .arrow { color: #2a8a3a; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .15rem .3rem; border-bottom: 1px solid var(--soft); }
.number { text-align: right; font-variant-numeric: tabular-nums; }
.bot[data-state="reconnecting"] .state { color: #c80; font-weight: 600; }
.bot[data-state="recovered"] .state, .bot[data-state="online"] .state { color: #2a8a3a; font-weight: 600; }
.bot[data-state="offline"] .state { color: #d33; }
.fault-buttons li { margin: .3rem 0; }
.role-dot { display: inline-block; width: .7rem; height: .7rem; border-radius: 50%; background: var(--line); }
.warning { color: #c80; }
.hint { opacity: .7; padding: .5rem; }
@media (max-width: 800px) {
  .views { display: flex; }
  .layout { grid-template-columns: minmax(0, 1fr); }
  .layout > .column { display: none; border: 0; }
  .layout[data-view="channels"] > .channels-column, .layout[data-view="inspect"] > .inspect-column { display: block; }
  .layout[data-view="chat"] > .chat-column { display: grid; }
  #status { margin-left: 0; width: 100%; }
}
`;
