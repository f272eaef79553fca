#!lua name=tell_v5
--[[
Conditional writes of Tell's record store (io.tell.store.redis.RedisRecordStore), the checks
that ride with them, and reads that follow a pointer record to the record it names.

A record is one string: an 8-byte big-endian version followed by the value bytes.
One call applies any number of conditional writes, each on its own (one may conflict while the
others are written), all atomically with respect to other clients. For write i (from 1):
KEYS[2i-1] is the record, KEYS[2i] a version counter on the same node: in a cluster the one of
the record's slot (the Java side picks a counter key that hashes to that slot; all keys of one
call share one slot), on a standalone server one counter for every write, so a call reads and
saves it once.

Versions are max(counter + 1, server time in microseconds, the record's current version + 1):
strictly increasing per counter and per key, also across delete and re-insert since the
counter outlives records, and whichever counter wrote a key before.
The clock floor means that after a fail-over that lost some unreplicated counter increments
the new primary still hands out higher versions than the old one did, unless the clocks are
further apart than the fail-over took. One call reads the clock once, and writes each counter
it used once, at the end. Versions stay below 2^53 so Lua's doubles hold them exactly; the
clock is ignored beyond 2^52 microseconds (the year 2112).

The library name carries its version: a changed protocol gets a new name, so clients of
different versions can share a server (tell_v3 added checks to tell_v2, tell_v4 chained writes
and the record's own version as a floor, tell_v5 the pointer-following read).
]]

local TWO_POW_52 = 4503599627370496
local TWO_POW_53 = 9007199254740992
local UPPER = {A = 'A', N = 'N', V = 'V', a = 'A', n = 'N', v = 'V'}
-- The most inserts one MSETNX takes (two arguments each, well inside Lua's stack for unpack).
local MAX_RUN = 1000

local function encode_version(v)
  return struct.pack('>l', v)
end

local function save_counters(drawn)
  for counter, v in pairs(drawn) do
    redis.call('SET', counter, string.format('%d', v))
  end
end

-- For write i: ARGV[3i-2] the expectation: 'A' any state, 'N' absent, 'V' exactly the version
-- in ARGV[3i-1] (8 bytes, as stored); in upper case the write puts ARGV[3i], in lower case
-- ('a', 'n', 'v') it deletes the record, followed by '?' ('N?', 'V?') it only checks the
-- expectation and writes nothing, and followed by '!' ('V!', 'a!') it is chained: made only if
-- every unchained write and check before it in this call succeeded. Returns one reply per write: 'W' ..
-- new version (8 bytes) when written, 'C' .. current version (8 bytes, or nothing when absent)
-- on a conflict or a broken chain, which changes nothing; a check answers 'W' .. current
-- version (nothing when absent) or 'C' .. the same.
-- The version write i takes (see above), or nil when the counter would pass 2^53.
local function draw(drawn, counter, now, current)
  local v = drawn[counter]
  if v then
    v = v + 1
  else
    v = tonumber(redis.call('GET', counter) or '0') + 1
  end
  if now > v then
    v = now
  end
  if current ~= '' then
    local stored = struct.unpack('>l', current)
    if stored >= v then
      v = stored + 1
    end
  end
  if v >= TWO_POW_53 then
    return nil
  end
  return v
end

-- Writes i .. j, all plain inserts ('N'), with one MSETNX when none of their records exists
-- and no key repeats: a bulk load's rows, claims and new tree nodes cost one command instead of
-- one each. Otherwise it changes nothing (the versions it drew are given back) and the caller
-- makes them one by one, with the same outcome as if this had not been tried.
local function insert_run(keys, args, i, j, drawn, now, replies)
  local before, seen, kv, encoded = {}, {}, {}, {}
  for k = i, j do
    local record, counter = keys[2 * k - 1], keys[2 * k]
    if seen[record] then
      break
    end
    seen[record] = true
    if before[counter] == nil then
      before[counter] = drawn[counter] or false
    end
    local v = draw(drawn, counter, now, '')
    if v == nil then
      break
    end
    drawn[counter] = v
    encoded[k] = encode_version(v)
    kv[#kv + 1] = record
    kv[#kv + 1] = encoded[k] .. args[3 * k]
  end
  if #kv == 2 * (j - i + 1) and redis.call('MSETNX', unpack(kv)) == 1 then
    for k = i, j do
      replies[k] = 'W' .. encoded[k]
    end
    return
  end
  for counter, v in pairs(before) do
    drawn[counter] = v or nil
  end
end

redis.register_function('tell_v5_write', function(keys, args)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  if now >= TWO_POW_52 then
    now = 0
  end
  local drawn = {}
  local replies = {}
  local intact = true
  local n = #keys / 2
  local run_end = 0
  for i = 1, n do
    if i > run_end and args[3 * i - 2] == 'N' then
      run_end = i
      while run_end < n and run_end - i < MAX_RUN - 1 and args[3 * run_end + 1] == 'N' do
        run_end = run_end + 1
      end
      if run_end > i then
        insert_run(keys, args, i, run_end, drawn, now, replies)
      end
    end
    if replies[i] == nil then
      local record, counter = keys[2 * i - 1], keys[2 * i]
      local expect, expected = args[3 * i - 2], args[3 * i - 1]
      local kind = UPPER[string.sub(expect, 1, 1)]
      if kind == nil then
        save_counters(drawn)
        return redis.error_reply('ERR tell: unknown write kind ' .. expect)
      end
      local suffix = string.sub(expect, 2, 2)
      if expect == 'N' or (expect == 'N!' and intact) then
        -- An insert: SET NX is the check of absence, so the record is read only on a conflict.
        local v = draw(drawn, counter, now, '')
        if v == nil then
          save_counters(drawn)
          return redis.error_reply('ERR tell: version counter exhausted for ' .. counter)
        end
        local encoded = encode_version(v)
        if redis.call('SET', record, encoded .. args[3 * i], 'NX') then
          drawn[counter] = v
          replies[i] = 'W' .. encoded
        else
          replies[i] = 'C' .. redis.call('GETRANGE', record, 0, 7)
          if suffix ~= '!' then
            intact = false
          end
        end
      else
        local current = redis.call('GETRANGE', record, 0, 7)
        if (suffix == '!' and not intact) or (kind == 'N' and current ~= '') or (kind == 'V' and current ~= expected) then
          replies[i] = 'C' .. current
          if suffix ~= '!' then
            intact = false
          end
        elseif suffix == '?' then
          replies[i] = 'W' .. current
        else
          local v = draw(drawn, counter, now, current)
          if v == nil then
            save_counters(drawn)
            return redis.error_reply('ERR tell: version counter exhausted for ' .. counter)
          end
          drawn[counter] = v
          local encoded = encode_version(v)
          if string.sub(expect, 1, 1) == kind then
            redis.call('SET', record, encoded .. args[3 * i])
          else
            redis.call('DEL', record)
          end
          replies[i] = 'W' .. encoded
        end
      end
    end
  end
  save_counters(drawn)
  return replies
end)

-- Reads every key (false where absent) and then the record whose key is ARGV[1] followed by the
-- value bytes of the first key's record (its bytes after the version), or false when that record
-- is absent: a unique key's claim and the row it names in one call. Standalone servers only: the
-- followed key is not among KEYS, so in a cluster it may live on another node.
redis.register_function{function_name = 'tell_v5_follow', flags = {'no-writes'}, callback = function(keys, args)
  local replies = {}
  for i = 1, #keys do
    replies[i] = redis.call('GET', keys[i])
  end
  local pointer = replies[1]
  if pointer and #pointer > 8 then
    replies[#keys + 1] = redis.call('GET', args[1] .. string.sub(pointer, 9))
  else
    replies[#keys + 1] = false
  end
  return replies
end}
