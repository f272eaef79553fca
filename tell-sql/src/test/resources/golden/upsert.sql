# INSERT ... ON CONFLICT: DO NOTHING, DO UPDATE with EXCLUDED and WHERE, RETURNING.

statement ok
CREATE TABLE counter (k VARCHAR(10) PRIMARY KEY, n INT NOT NULL, note VARCHAR(10), code INT UNIQUE)

statement count 2
INSERT INTO counter VALUES ('a', 1, 'first', 10), ('b', 1, 'first', 20)

statement count 1
INSERT INTO counter VALUES ('a', 5, 'again', 11), ('c', 1, 'new', 30) ON CONFLICT DO NOTHING

query
SELECT k, n, note, code FROM counter ORDER BY k
----
a | 1 | first | 10
b | 1 | first | 20
c | 1 | new | 30

# Without a target every unique key counts: code 20 is taken by 'b'.
statement count 0
INSERT INTO counter VALUES ('d', 1, 'x', 20) ON CONFLICT DO NOTHING

statement error 23505 Key (CODE)=(20) already exists
INSERT INTO counter VALUES ('d', 1, 'x', 20) ON CONFLICT (k) DO NOTHING

statement count 2
INSERT INTO counter (k, n, note) VALUES ('a', 5, 'up'), ('e', 1, 'fresh') ON CONFLICT (k) DO UPDATE SET n = counter.n + EXCLUDED.n, note = EXCLUDED.note

query
SELECT k, n, note FROM counter WHERE k IN ('a', 'e') ORDER BY k
----
a | 6 | up
e | 1 | fresh

# Bare names are the row already there; WHERE can leave it alone.
statement count 0
INSERT INTO counter (k, n) VALUES ('a', 100) ON CONFLICT (k) DO UPDATE SET n = n + 1 WHERE n > 50

query
INSERT INTO counter (k, n) VALUES ('a', 100), ('f', 7) ON CONFLICT ON CONSTRAINT counter_pk DO UPDATE SET n = n + 1 WHERE n < 50 RETURNING k, n
----
a | 7
f | 7

statement ok
ALTER TABLE counter ADD CONSTRAINT counter_note UNIQUE (note)

statement count 1
INSERT INTO counter (k, n, note) VALUES ('z', 0, 'fresh') ON CONFLICT (note) DO UPDATE SET n = -1

query
SELECT n FROM counter WHERE k = 'e'
----
-1

statement error 21000
INSERT INTO counter (k, n) VALUES ('g', 1), ('g', 2) ON CONFLICT (k) DO UPDATE SET n = EXCLUDED.n

statement count 1
INSERT INTO counter (k, n) VALUES ('h', 1), ('h', 2) ON CONFLICT (k) DO NOTHING

query
SELECT n FROM counter WHERE k = 'h'
----
1

statement error 42000
INSERT INTO counter (k, n) VALUES ('a', 1) ON CONFLICT (n) DO NOTHING

statement error 42000
INSERT INTO counter (k, n) VALUES ('a', 1) ON CONFLICT DO UPDATE SET n = 2

statement error 42P01
INSERT INTO counter (k, n) VALUES ('a', 1) ON CONFLICT ON CONSTRAINT nope DO NOTHING

statement error 42601
INSERT INTO counter (k, n) VALUES ('a', 1) ON CONFLICT (k) DO SOMETHING

statement error 42000
INSERT INTO counter (k, n) VALUES ('a', 1) ON CONFLICT (k) DO UPDATE SET nope = 1
