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
