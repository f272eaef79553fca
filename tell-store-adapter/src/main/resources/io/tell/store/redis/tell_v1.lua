#!lua name=tell_v1
--[[
Conditional writes of Tell's record store (io.tell.store.redis.RedisRecordStore).

A record is one string: an 8-byte big-endian version followed by the value bytes.
KEYS[1] is the record, KEYS[2] the version counter of the record's cluster slot (the Java
side picks a counter key that hashes to the same slot, so both are always on one node).

Versions are max(counter + 1, server time in microseconds): strictly increasing per slot,
and therefore per key, also across delete and re-insert since the counter outlives records.
The clock floor means that after a fail-over that lost some unreplicated counter increments
the new primary still hands out higher versions than the old one did, unless the clocks are
further apart than the fail-over took. Versions stay below 2^53 so Lua's doubles hold them
exactly; the clock is ignored beyond 2^52 microseconds (the year 2112).

The library name carries its version: a changed protocol gets a new name, so clients of
different versions can share a server.
]]

local TWO_POW_52 = 4503599627370496
local TWO_POW_53 = 9007199254740992

local function encode_version(v)
  local bytes = {}
  for i = 8, 1, -1 do
    bytes[i] = v % 256
    v = math.floor(v / 256)
  end
  return string.char(unpack(bytes))
end

local function next_version(counter)
  local v = redis.call('INCR', counter)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
  if now > v and now < TWO_POW_52 then
    v = now
    redis.call('SET', counter, string.format('%d', v))
  end
  if v >= TWO_POW_53 then
    return nil
  end
  return v
end

-- ARGV[1]: the expectation: 'A' any state, 'N' absent, 'V' exactly the version in ARGV[2]
--          (8 bytes, as stored). ARGV[3]: the new value; without it the write is a delete.
-- Returns 'W' .. new version (8 bytes) when written, 'C' .. current version (8 bytes, or
-- nothing when absent) on a conflict, which changes nothing.
redis.register_function('tell_v1_write', function(keys, args)
  local current = redis.call('GETRANGE', keys[1], 0, 7)
  local expect = args[1]
  if (expect == 'N' and current ~= '') or (expect == 'V' and current ~= args[2]) then
    return 'C' .. current
  end
  local v = next_version(keys[2])
  if not v then
    return redis.error_reply('ERR tell: version counter exhausted for ' .. keys[2])
  end
  local encoded = encode_version(v)
  if #args >= 3 then
    redis.call('SET', keys[1], encoded .. args[3])
  else
    redis.call('DEL', keys[1])
  end
  return 'W' .. encoded
end)
