import { LuaScript } from './lua-script.js';

/**
 * Publishes a batch in order, as the lease holder only. An event whose
 * session and seq are not past the resume point is a re-publication and is
 * skipped; the resume point moves with each event added, in the same step,
 * so publishing and checkpointing cannot disagree. A snapshot item records
 * the caches as of the last event added before it, under a new generation
 * name (workers load every snapshot they have not seen whose reason asks
 * for it). A lease that lapsed and nobody took is taken again; an epoch that
 * is not the gateway's means Redis lost the bot's data: nothing is written.
 *
 * KEYS: events, resume, lease, channelSeq, snapshot, stats, epoch
 * ARGV: gatewayId, maxLen, leaseMs, epoch, then items: `e sid seq type ch at data` | `s gen reason state`
 * Reply: {published, skipped}, or an error `LEASE …` when another gateway
 * holds the lease, `LOST …` when the epoch is not the gateway's.
 */
export const PUBLISH = new LuaScript(
  'publish',
  `
if redis.call('GET', KEYS[7]) ~= ARGV[4] then return redis.error_reply('LOST the bot data in Redis is not the one this gateway published to') end
local holder = redis.call('GET', KEYS[3])
if not holder then redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
elseif holder ~= ARGV[1] then return redis.error_reply('LEASE this gateway does not hold the lease') end
local lastSid = redis.call('HGET', KEYS[2], 'sid') or ''
local lastSeq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
local lastId = redis.call('HGET', KEYS[2], 'id') or '0-0'
local published, skipped = 0, 0
local i = 5
while i <= #ARGV do
  if ARGV[i] == 'e' then
    local sid, seq, ch = ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 4]
    if sid == lastSid and seq <= lastSeq then
      skipped = skipped + 1
    else
      local cseq = ''
      if ch ~= '' then cseq = redis.call('HINCRBY', KEYS[4], ch, 1) end
      lastId = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'sid', sid, 'seq', ARGV[i + 2], 'type', ARGV[i + 3], 'ch', ch, 'cseq', cseq, 'at', ARGV[i + 5], 'data', ARGV[i + 6])
      lastSid, lastSeq = sid, seq
      published = published + 1
    end
    i = i + 7
  else
    redis.call('HSET', KEYS[5], 'id', lastId, 'sid', lastSid, 'seq', lastSeq, 'gen', ARGV[i + 1], 'reason', ARGV[i + 2], 'state', ARGV[i + 3])
    i = i + 4
  end
end
if published > 0 then
  redis.call('HSET', KEYS[2], 'sid', lastSid, 'seq', lastSeq, 'id', lastId)
  redis.call('HINCRBY', KEYS[6], 'published', published)
end
if skipped > 0 then redis.call('HINCRBY', KEYS[6], 'republished_skipped', skipped) end
return {published, skipped}
`,
);

/**
 * Takes the lease when it is free, or keeps it when this gateway holds it,
 * and says which epoch the bot's data is (so an idle gateway notices a loss).
 * KEYS: lease, epoch. ARGV: gatewayId, leaseMs. Reply: {1 held | 0 held by another, epoch or ''}.
 */
export const HOLD_LEASE = new LuaScript(
  'hold-lease',
  `
local epoch = redis.call('GET', KEYS[2]) or ''
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return {1, epoch} end
if holder then return {0, epoch} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, epoch}
`,
);

/** Gives the lease up, only when this gateway holds it. KEYS: lease. ARGV: gatewayId. */
export const RELEASE_LEASE = new LuaScript(
  'release-lease',
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
);

/**
 * Acknowledges handled entries in one step: XACK, the per-channel progress
 * (for ordered handling) and the counters.
 * KEYS: events, channelDone, failures, stats. ARGV: group, then triples `id ch cseq`.
 */
export const ACK = new LuaScript(
  'ack',
  `
local acked = 0
for i = 2, #ARGV, 3 do
  acked = acked + redis.call('XACK', KEYS[1], ARGV[1], ARGV[i])
  local ch, cseq = ARGV[i + 1], tonumber(ARGV[i + 2])
  if ch ~= '' and cseq and cseq > tonumber(redis.call('HGET', KEYS[2], ch) or '0') then redis.call('HSET', KEYS[2], ch, cseq) end
  redis.call('HDEL', KEYS[3], ARGV[i])
end
if acked > 0 then redis.call('HINCRBY', KEYS[4], 'acked', acked) end
return acked
`,
);

/** Prefix of an entry's own fields in its dead letter, so no field of the entry can pass for one of the letter's. */
export const LETTER_FIELD_PREFIX = 'field:';
/** Fields of an entry a dead letter keeps. */
export const MAX_LETTER_FIELDS = 1_000;

/**
 * Moves an entry to the dead letters with why, and acknowledges it, in one
 * step (so it is neither lost nor handled again), unless it was acknowledged
 * meanwhile. The entry's fields are copied on the server, each under
 * {@link LETTER_FIELD_PREFIX}: a large entry does not travel to the worker and back
 * (past {@link MAX_LETTER_FIELDS} fields, `fields_dropped` counts the rest).
 * KEYS: events, deadLetters, channelDone, failures, stats.
 * ARGV: group, id, ch, cseq, reason, deliveries, consumer, maxLen.
 */
export const DEAD_LETTER = new LuaScript(
  'dead-letter',
  `
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #pending == 0 then return 0 end
local last = redis.call('HGET', KEYS[4], ARGV[2])
local reason = ARGV[5]
if last then reason = reason .. '; last failure: ' .. last end
local letter = {'XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'entry', ARGV[2], 'reason', reason, 'deliveries', ARGV[6], 'consumer', ARGV[7], 'at', tostring(redis.call('TIME')[1])}
local rows = redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2])
if #rows == 1 then
  local fields = rows[1][2]
  -- unpack() takes a few thousand values at most: a hostile entry's fields past the limit are counted, not kept.
  local kept = math.min(#fields, ${2 * MAX_LETTER_FIELDS})
  for i = 1, kept, 2 do
    letter[#letter + 1] = '${LETTER_FIELD_PREFIX}' .. fields[i]
    letter[#letter + 1] = fields[i + 1]
  end
  if kept < #fields then
    letter[#letter + 1] = 'fields_dropped'
    letter[#letter + 1] = tostring((#fields - kept) / 2)
  end
end
redis.call(unpack(letter))
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
local ch, cseq = ARGV[3], tonumber(ARGV[4])
if ch ~= '' and cseq and cseq > tonumber(redis.call('HGET', KEYS[3], ch) or '0') then redis.call('HSET', KEYS[3], ch, cseq) end
redis.call('HINCRBY', KEYS[5], 'dead_lettered', 1)
return 1
`,
);

/**
 * A token bucket shared by several gateways: takes one token when there is
 * one. KEYS: bucket. ARGV: ratePerSecond, burst. Reply: 0 taken, else ms to wait.
 * Time is the server's (TIME), so the processes' clocks do not matter.
 */
export const TAKE_TOKEN = new LuaScript(
  'take-token',
  `
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or burst)
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or now)
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return wait
`,
);
