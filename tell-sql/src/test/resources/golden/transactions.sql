# Explicit transactions: own writes visible, rollback leaves no trace, data errors keep the transaction.

statement ok
CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)

autocommit off

statement ok
INSERT INTO t VALUES (1, 10), (2, 20)

query
SELECT SUM(v) FROM t
----
30

rollback

query
SELECT COUNT(*) FROM t
----
0

statement ok
INSERT INTO t VALUES (1, 10)

statement error 22018
UPDATE t SET v = CAST('x' AS INTEGER) WHERE id = 1

statement ok
UPDATE t SET v = 11 WHERE id = 1

commit

autocommit on

query
SELECT id, v FROM t
----
1 | 11

# ORDER BY the primary key with a LIMIT reads the index in pages: deleted rows are skipped,
# the transaction's own inserts are merged in order.

statement count 20
INSERT INTO t SELECT id + 100, id FROM t UNION ALL SELECT id + 101, 0 FROM t UNION ALL SELECT id + 102, 0 FROM t UNION ALL SELECT id + 103, 0 FROM t UNION ALL SELECT id + 104, 0 FROM t UNION ALL SELECT id + 105, 0 FROM t UNION ALL SELECT id + 106, 0 FROM t UNION ALL SELECT id + 107, 0 FROM t UNION ALL SELECT id + 108, 0 FROM t UNION ALL SELECT id + 109, 0 FROM t UNION ALL SELECT id + 110, 0 FROM t UNION ALL SELECT id + 111, 0 FROM t UNION ALL SELECT id + 112, 0 FROM t UNION ALL SELECT id + 113, 0 FROM t UNION ALL SELECT id + 114, 0 FROM t UNION ALL SELECT id + 115, 0 FROM t UNION ALL SELECT id + 116, 0 FROM t UNION ALL SELECT id + 117, 0 FROM t UNION ALL SELECT id + 118, 0 FROM t UNION ALL SELECT id + 119, 0 FROM t

statement count 18
DELETE FROM t WHERE id > 101 AND id < 120

query
SELECT id FROM t WHERE id > 100 ORDER BY id FETCH FIRST 2 ROWS ONLY
----
101
120

autocommit off

statement ok
INSERT INTO t VALUES (110, 0)

query
SELECT id FROM t WHERE id >= 101 ORDER BY id LIMIT 2
----
101
110

query
EXPLAIN PLAN FOR SELECT id FROM t WHERE id >= 101 ORDER BY id LIMIT 2
----
TellSort(sort0=[$0], dir0=[ASC], fetch=[2])
  TellProject(ID=[$0])
    TellIndexScan(table=[[PUBLIC, T]], index=[PRIMARY KEY], from=[101], columns=[[ID]])

rollback

autocommit on
