# TIME, VARBINARY (BYTEA, BLOB) and UUID: stored, keyed, compared, cast, and refused clearly.

statement ok
CREATE TABLE things (
  id UUID PRIMARY KEY,
  seen TIME,
  seen6 TIME(6) WITHOUT TIME ZONE DEFAULT TIME '08:00',
  data VARBINARY(4),
  doc BYTEA,
  pic BLOB,
  owner UUID DEFAULT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'
)

statement count 3
INSERT INTO things (id, seen, data, doc) VALUES
  (CAST('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AS UUID), TIME '10:11:12.5', X'00ff', X''),
  (CAST('{ffffffff-0000-0000-0000-000000000001}' AS UUID), TIME '23:59:59', X'00', X'c0ffee'),
  (CAST('00000000000000000000000000000002' AS UUID), NULL, NULL, NULL)

query
SELECT id, seen, seen6, data, doc, pic, owner FROM things ORDER BY id
----
00000000-0000-0000-0000-000000000002 | NULL | 08:00 | NULL | NULL | NULL | a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 | 10:11:12.500 | 08:00 | \x00ff | \x | NULL | a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11
ffffffff-0000-0000-0000-000000000001 | 23:59:59 | 08:00 | \x00 | \xc0ffee | NULL | a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11

query
SELECT seen FROM things WHERE seen > TIME '10:00:00' ORDER BY seen DESC
----
23:59:59
10:11:12.500

query
SELECT id FROM things WHERE id = CAST('A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' AS UUID)
----
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11

query
SELECT data FROM things WHERE data < X'00ff' ORDER BY data
----
\x00

query
SELECT CAST(id AS VARCHAR(36)), CAST(doc AS VARCHAR(20)), CAST(seen AS VARCHAR(20)) FROM things WHERE data = X'00'
----
ffffffff-0000-0000-0000-000000000001 | \xc0ffee | 23:59:59

query
SELECT count(*), count(DISTINCT data), count(DISTINCT owner) FROM things
----
3 | 2 | 1

statement ok
CREATE INDEX things_data ON things (data, seen)

query
SELECT id FROM things WHERE data = X'00ff'
----
a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11

statement ok
CREATE UNIQUE INDEX things_at ON things (seen)

statement error 23505
INSERT INTO things (id, seen) VALUES (CAST('00000000-0000-0000-0000-000000000003' AS UUID), TIME '23:59:59')

statement error 23505
INSERT INTO things (id) VALUES (CAST('00000000-0000-0000-0000-000000000002' AS UUID))

statement count 1
UPDATE things SET data = X'01020304', doc = CAST('e' AS BYTEA) WHERE seen = TIME '23:59:59'

statement error 22001
UPDATE things SET data = X'0102030405' WHERE seen = TIME '23:59:59'

query
SELECT data, doc FROM things WHERE seen = TIME '23:59:59'
----
\x01020304 | \x65


statement error 22018 invalid UUID value
SELECT CAST('not-a-uuid' AS UUID) FROM things

statement error 0A000 BINARY(n)
CREATE TABLE fixed (b BINARY(16))


statement error 42601 Bad binary literal
CREATE TABLE badhex (b VARBINARY(2) DEFAULT X'abc')

query
SELECT CAST('中é' AS VARCHAR(5)), CAST(CAST('中é' AS VARCHAR(5)) AS BYTEA), CAST('é' AS BYTEA) FROM things WHERE seen = TIME '23:59:59'
----
中é | \xe4b8adc3a9 | \xc3a9

statement ok
CREATE TABLE vc (id INT PRIMARY KEY, s VARCHAR(3), b VARBINARY(2))

statement ok
INSERT INTO vc VALUES (1, 'abc', X'01')

statement error 22001
UPDATE vc SET s = 'abcdef' WHERE id = 1

statement error 22001
INSERT INTO vc VALUES (2, 'a', X'010203')

statement count 1
INSERT INTO vc VALUES (2, 'a', X'0102')

statement count 1
INSERT INTO things (id) VALUES ('00000000-0000-0000-0000-000000000009')

query
SELECT id FROM things WHERE id = '00000000-0000-0000-0000-000000000009'
----
00000000-0000-0000-0000-000000000009

# gen_random_uuid(): in expressions and as a DEFAULT, a new version-4 UUID every time.
statement ok
CREATE TABLE tokens (id UUID PRIMARY KEY DEFAULT gen_random_uuid(), label VARCHAR(10))

statement count 3
INSERT INTO tokens (label) VALUES ('a'), ('b'), ('c')

statement count 1
INSERT INTO tokens VALUES (gen_random_uuid(), 'd')

query
SELECT count(DISTINCT id), count(*) FROM tokens
----
4 | 4

query
SELECT count(*) FROM tokens WHERE CAST(id AS VARCHAR(36)) LIKE '________-____-4___-____-____________'
----
4

statement error 42000 needs a UUID column
CREATE TABLE badtok (id INT DEFAULT gen_random_uuid())

statement error 0A000 does not rewrite rows
ALTER TABLE tokens ADD COLUMN other UUID DEFAULT gen_random_uuid()

statement ok
ALTER TABLE tokens ADD COLUMN other UUID

statement ok
ALTER TABLE tokens ALTER COLUMN other SET DEFAULT gen_random_uuid()

statement count 1
INSERT INTO tokens (label) VALUES ('e')

query
SELECT count(other) FROM tokens
----
1

# Byte strings through the string functions, counted in bytes.
query
SELECT X'01' || X'02', SUBSTRING(X'0a0b0c' FROM 2 FOR 1), SUBSTRING(X'0a0b0c' FROM 2), POSITION(X'0c' IN X'0a0b0c'), OCTET_LENGTH(X'0a0b'), OCTET_LENGTH('é'), CHAR_LENGTH('é') FROM tokens WHERE label = 'a'
----
\x0102 | \x0b | \x0b0c | 3 | 2 | 2 | 1

query
SELECT label, OCTET_LENGTH(doc) FROM things JOIN tokens ON label = 'a' WHERE doc IS NOT NULL ORDER BY 2
----
a | 0
a | 1

query
SELECT MIN(id), MAX(id), MIN(data), MAX(seen) FROM things
----
00000000-0000-0000-0000-000000000002 | ffffffff-0000-0000-0000-000000000001 | \x00ff | 23:59:59

# TIMESTAMP WITH TIME ZONE (TIMESTAMPTZ): an instant, shown at UTC (the session's time zone) with +00.
statement ok
CREATE TABLE events (id INT PRIMARY KEY, happened TIMESTAMP(6) WITH TIME ZONE, seen TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP, local_at TIMESTAMP)

statement count 3
INSERT INTO events (id, happened, local_at) VALUES (1, '2024-05-06 09:08:09.5+02', '2024-05-06 07:00:00'), (2, '2024-05-06 07:08:09Z', NULL), (3, '2024-05-06 03:00:00-05:30', NULL)

query
SELECT id, CAST(happened AS VARCHAR(40)), seen IS NOT NULL FROM events ORDER BY happened
----
2 | 2024-05-06 07:08:09+00 | true
1 | 2024-05-06 07:08:09.5+00 | true
3 | 2024-05-06 08:30:00+00 | true

query
SELECT id FROM events WHERE happened = '2024-05-06 10:08:09.5+03:00'
----
1

query
SELECT id, CAST(happened AS TIMESTAMP), EXTRACT(HOUR FROM happened) FROM events WHERE happened > CAST(local_at AS TIMESTAMP WITH LOCAL TIME ZONE) ORDER BY id
----
1 | 2024-05-06T07:08:09.500 | 7

statement ok
CREATE INDEX events_at ON events (happened)

query
SELECT id FROM events WHERE happened BETWEEN '2024-05-06 07:00:00+00' AND '2024-05-06 08:00:00+00' ORDER BY id
----
1
2

statement error 22018
INSERT INTO events (id, happened) VALUES (4, '2024-05-06 25:00:00+02')


statement error 0A000 TIME WITH TIME ZONE
CREATE TABLE zoned_time (t TIME WITH TIME ZONE)
