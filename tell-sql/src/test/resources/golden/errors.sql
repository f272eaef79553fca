# Bad SQL and bad values give clear errors with the right SQLState; nothing is changed.

statement ok
CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(3) NOT NULL, n SMALLINT, u INTEGER UNIQUE)

statement error 42601
SELEC * FROM t

statement error 42601
SELECT * FROM t WHERE

statement error 42000
SELECT nope FROM t

statement error 42000
SELECT * FROM missing

statement error 42601
CREATE TABLE bad (id FOO)

statement error 22001
INSERT INTO t VALUES (1, 'toolong', 1, 1)

statement error 22003
INSERT INTO t VALUES (1, 'ok', 40000, 1)

statement error 23502
INSERT INTO t (id, n) VALUES (1, 1)

statement ok
INSERT INTO t VALUES (1, 'a', 1, 1)

statement error 23505 duplicate key value violates unique constraint "T_PK"
INSERT INTO t VALUES (1, 'b', 2, 2)

statement error 23505 Key (U)=(1) already exists.
INSERT INTO t VALUES (2, 'b', 2, 1)

statement ok
CREATE TABLE pair (a VARCHAR(5), b INT, CONSTRAINT pair_ab UNIQUE (a, b))

statement ok
INSERT INTO pair VALUES ('x', 1)

statement error 23505 unique constraint "PAIR_AB"
INSERT INTO pair VALUES ('y', 2), ('x', 1)

statement error 23505 Key (A, B)=(x, 1) already exists.
INSERT INTO pair VALUES ('x', 1)

statement error 23502
UPDATE t SET name = NULL WHERE id = 1

statement error 22001
INSERT INTO t VALUES (3, 'c', 3, 3), (4, 'dddd', 4, 4)

query
SELECT id, name, n, u FROM t ORDER BY id
----
1 | a | 1 | 1

# Statements Calcite takes but Tell does not run fail naming the feature (0A000).
statement error 0A000 ROLLUP
SELECT n, COUNT(*) FROM t GROUP BY ROLLUP (n)

statement error 0A000 WITH RECURSIVE
WITH RECURSIVE r (x) AS (VALUES (1) UNION ALL SELECT x + 1 FROM r WHERE x < 3) SELECT x FROM r

statement error 0A000 UNNEST
SELECT * FROM UNNEST(ARRAY[1, 2])

statement error 0A000 window frames
SELECT id, SUM(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM t

statement error 21000 MERGE command cannot affect row a second time
MERGE INTO t USING (VALUES (1), (1)) AS s (x) ON t.id = s.x WHEN MATCHED THEN UPDATE SET n = 1
