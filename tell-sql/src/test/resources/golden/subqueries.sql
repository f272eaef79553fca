# IN / EXISTS / scalar subqueries, correlated and not.

statement ok
CREATE TABLE cust (id INTEGER PRIMARY KEY, name VARCHAR(10))

statement ok
CREATE TABLE orders (id INTEGER PRIMARY KEY, cust INTEGER, amount INTEGER)

statement ok
INSERT INTO cust VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')

statement ok
INSERT INTO orders VALUES (10, 1, 5), (11, 1, 7), (12, 2, 3)

query
SELECT name FROM cust WHERE id IN (SELECT cust FROM orders) ORDER BY name
----
ann
bob

query
SELECT name FROM cust WHERE id NOT IN (SELECT cust FROM orders) ORDER BY name
----
cy

query
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.amount > 4) ORDER BY name
----
ann

query
SELECT name FROM cust c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id) ORDER BY name
----
cy

query
SELECT name, (SELECT SUM(amount) FROM orders o WHERE o.cust = c.id) AS total FROM cust c ORDER BY id
----
ann | 12
bob | 3
cy | NULL

query
SELECT id FROM orders WHERE amount >= (SELECT AVG(amount) FROM orders) ORDER BY id
----
10
11

query
SELECT name FROM cust WHERE id = (SELECT cust FROM orders WHERE id = 12)
----
bob

statement error 21000
SELECT name FROM cust WHERE id = (SELECT cust FROM orders)

# [NOT] EXISTS in WHERE, its subquery a filter over uncorrelated tables, is a semi or anti join
# (SubqueryJoins): equalities with the outer row are hash keys, the rest is checked per pair.
# Results checked against PostgreSQL 15 on the same rows (NULLs in the keys and in the ranges).
statement ok
CREATE TABLE ev (id INTEGER PRIMARY KEY, grp INTEGER, sub INTEGER, tm INTEGER)

statement ok
INSERT INTO ev VALUES (1, 1, 1, 10), (2, 1, 1, 20), (3, 1, 2, 5), (4, 2, 1, 7), (5, 2, 1, 7), (6, NULL, 1, 3), (7, 2, NULL, 9), (8, 3, 1, NULL)

query
SELECT id FROM ev e1 WHERE NOT EXISTS (SELECT * FROM ev e2 WHERE e2.grp = e1.grp AND e2.sub = e1.sub AND e2.tm > e1.tm) ORDER BY id
----
2
3
4
5
6
7
8

query
EXPLAIN PLAN FOR SELECT id FROM ev e1 WHERE NOT EXISTS (SELECT * FROM ev e2 WHERE e2.grp = e1.grp AND e2.sub = e1.sub AND e2.tm > e1.tm) ORDER BY id
----
TellSort(sort0=[$0], dir0=[ASC])
  TellProject(ID=[$0])
    TellJoin(condition=[AND(=($4, $1), =($5, $2), >($6, $3))], joinType=[anti])
      TellTableScan(table=[[PUBLIC, EV]])
      TellProject(GRP=[$0], SUB=[$1], TM=[$2])
        TellTableScan(table=[[PUBLIC, EV]], columns=[[GRP, SUB, TM]])

query
SELECT id FROM ev e1 WHERE EXISTS (SELECT * FROM ev e2 WHERE e2.grp = e1.grp AND e2.sub = e1.sub AND e2.tm > e1.tm) ORDER BY id
----
1

query
EXPLAIN PLAN FOR SELECT id FROM ev e1 WHERE EXISTS (SELECT * FROM ev e2 WHERE e2.grp = e1.grp AND e2.sub = e1.sub AND e2.tm > e1.tm) ORDER BY id
----
TellSort(sort0=[$0], dir0=[ASC])
  TellProject(ID=[$0])
    TellJoin(condition=[AND(=($4, $1), =($5, $2), >($6, $3))], joinType=[semi])
      TellTableScan(table=[[PUBLIC, EV]])
      TellProject(GRP=[$0], SUB=[$1], TM=[$2])
        TellTableScan(table=[[PUBLIC, EV]], columns=[[GRP, SUB, TM]])

# The outer rows are a join (CH-benCHmark Q21's shape): it is computed once.
query
SELECT c.name, o.id FROM cust c, orders o WHERE o.cust = c.id AND NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.cust = o.cust AND o2.amount > o.amount) ORDER BY c.name
----
ann | 11
bob | 12

query
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id) AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.amount < 4) ORDER BY name
----
ann

query
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM orders o, cust d WHERE o.cust = d.id AND d.id = c.id + 1) ORDER BY name
----
ann

query
SELECT name FROM cust c WHERE id > (SELECT MIN(cust) FROM orders) AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id) ORDER BY name
----
cy

# Under OR, or with a correlation nested deeper, EXISTS stays a correlated subquery.
query
SELECT name FROM cust c WHERE id = 3 OR EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.amount > 6) ORDER BY name
----
ann
cy

query
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND EXISTS (SELECT 1 FROM ev WHERE ev.tm = o.amount + c.id)) ORDER BY name
----
bob

query
SELECT id FROM ev e1 WHERE NOT EXISTS (SELECT * FROM ev e2 WHERE e2.grp = e1.grp AND e2.id <> e1.id) ORDER BY id
----
6
8

query
SELECT id FROM ev e1 WHERE NOT EXISTS (SELECT * FROM ev e2 WHERE e2.tm > e1.tm) ORDER BY id
----
2
8

query
SELECT name FROM cust c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id AND o.amount IS NULL) ORDER BY name
----
ann
bob
cy

statement count 1
UPDATE orders o SET amount = amount + 100 WHERE EXISTS (SELECT 1 FROM cust c WHERE c.id = o.cust AND c.name = 'bob')

query
SELECT id, amount FROM orders ORDER BY id
----
10 | 5
11 | 7
12 | 103

statement count 1
DELETE FROM cust c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust = c.id)

query
SELECT name FROM cust ORDER BY name
----
ann
bob

# A correlated scalar COUNT over a common table expression: Calcite's decorrelator throws on it
# (IndexOutOfBoundsException, was SQLState XX000); the correlated form runs as a nested loop.
# Checked against PostgreSQL 15.
query
WITH r AS (SELECT cust, SUM(amount) AS s FROM orders GROUP BY cust) SELECT a.cust, (SELECT COUNT(*) FROM r b WHERE b.s >= a.s) FROM r a ORDER BY a.cust
----
1 | 2
2 | 1
