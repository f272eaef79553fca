# PostgreSQL's functions beyond the standard's (results as PostgreSQL 15 gives them for the same rows).

statement ok
CREATE TABLE a (id INT PRIMARY KEY, x INT, s VARCHAR(20), d DATE, t TIMESTAMP)

statement count 3
INSERT INTO a VALUES (1, 10, 'x', DATE '2024-01-01', TIMESTAMP '2024-05-17 10:11:12'), (2, 20, 'y,z', DATE '2024-02-01', TIMESTAMP '2024-02-29 23:59:59'), (3, NULL, NULL, NULL, NULL)

# greatest and least leave NULLs out.
query
SELECT id, length(s), greatest(x, 15, NULL), least(x, 15), left(s, 1), right(s, -1), repeat(s, 2), reverse(s) FROM a ORDER BY id
----
1 | 1 | 15 | 10 | x |  | xx | x
2 | 3 | 20 | 15 | y | ,z | y,zy,z | z,y
3 | NULL | 15 | 15 | NULL | NULL | NULL | NULL

query
SELECT id, '[' || ltrim('  a ') || ']', '[' || rtrim(' a  ') || ']', starts_with(s, 'y'), concat(s, '-', x, NULL), split_part(s, ',', 2), split_part(s, ',', -1), md5(s) FROM a ORDER BY id
----
1 | [a ] | [ a] | false | x-10 |  | x | 9dd4e461268c8034f5c8564e155c67a6
2 | [a ] | [ a] | true | y,z-20 | z | z | 0c1ef12c1e2845808d48b347e95f12cf
3 | [a ] | [ a] | NULL | - | NULL | NULL | NULL

query
SELECT id, regexp_replace(s, '[a-z]', '#'), regexp_replace(s, '[A-Z]', '#', 'gi'), date_trunc('month', t), date_trunc('week', t), date_trunc('quarter', d), date_trunc('year', t), date_trunc('hour', t) FROM a ORDER BY id
----
1 | # | # | 2024-05-01T00:00 | 2024-05-13T00:00 | 2024-01-01T00:00 | 2024-01-01T00:00 | 2024-05-17T10:00
2 | #,z | #,# | 2024-02-01T00:00 | 2024-02-26T00:00 | 2024-01-01T00:00 | 2024-01-01T00:00 | 2024-02-29T23:00
3 | NULL | NULL | NULL | NULL | NULL | NULL | NULL

query
SELECT string_agg(s, ';'), string_agg(s, '|' ORDER BY s DESC) FROM a
----
x;y,z | y,z|x

query
SELECT s FROM a WHERE s ILIKE 'X%'
----
x

query
SELECT s FROM a WHERE s NOT ILIKE 'X%'
----
y,z

query
SELECT greatest('b', 'a', NULL), least(2, 1.5), greatest(CAST(NULL AS INT), NULL)
----
b | 1.5 | NULL

query
SELECT COUNT(*) FROM a WHERE now() = CURRENT_TIMESTAMP AND now() > TIMESTAMP '2024-01-01 00:00:00'
----
3

statement error 22018 unit "fortnight" not recognized
SELECT date_trunc('fortnight', t) FROM a

statement error 22018 invalid regular expression
SELECT regexp_replace(s, '(', 'x') FROM a

statement error 22018 field position must not be zero
SELECT split_part(s, ',', 0) FROM a

# PostgreSQL's casts, operand::type, on any operand (also in views and CHECK constraints).
query
SELECT x::text, id::smallint, (x + 1)::numeric(5, 2), count(*)::int8, a.x::bigint::text FROM a WHERE x IS NOT NULL GROUP BY x, id, a.x ORDER BY x
----
10 | 1 | 11.00 | 1 | 10
20 | 2 | 21.00 | 1 | 20

statement ok
CREATE TABLE casts (id INT PRIMARY KEY, n VARCHAR(5), CHECK (n::int > 0))

statement error 23514 violates check constraint
INSERT INTO casts VALUES (1, '0')

statement ok
CREATE VIEW cast_view AS SELECT id, n::int + 1 AS m FROM casts

statement count 1
INSERT INTO casts VALUES (2, '41')

query
SELECT m FROM cast_view
----
42

# to_char of dates and times, encode and decode (PostgreSQL 15's results).
query
SELECT to_char(TIMESTAMP '2024-05-07 09:08:07.123', 'YYYY-MM-DD HH24:MI:SS.MS'), to_char(TIMESTAMP '2024-05-07 21:08:07', 'FMDay, DD Mon YYYY HH12:MI pm'), to_char(DATE '2024-05-07', 'Month|MON|dy|D|DDD|Q|"Q"Q|YY'), to_char(TIMESTAMP '2024-01-05 00:00:00', 'FMMonth FMDD, HH12 AM')
----
2024-05-07 09:08:07.123 | Tuesday, 07 May 2024 09:08 pm | May      |MAY|tue|3|128|2|Q2|24 | January 5, 12 AM

query
SELECT encode(X'00ff41', 'hex'), encode(CAST('hello world' AS BYTEA), 'base64'), encode(X'00415c', 'escape'), decode('00ff41', 'hex') = X'00ff41', decode('aGVsbG8=', 'base64') = CAST('hello' AS BYTEA)
----
00ff41 | aGVsbG8gd29ybGQ= | \000A\\ | true | true

statement error 42000 Supported form(s): 'TO_CHAR(<TIMESTAMP>, <STRING>)'
SELECT to_char(id, '999') FROM a

statement error 22018 unrecognized encoding
SELECT encode(X'00', 'base32')
