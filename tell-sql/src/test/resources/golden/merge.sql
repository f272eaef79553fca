# MERGE INTO target USING source ON condition WHEN MATCHED THEN UPDATE / WHEN NOT MATCHED THEN INSERT.

statement ok
CREATE TABLE stock (item INT PRIMARY KEY, qty INT NOT NULL CHECK (qty >= 0), note VARCHAR(10))

statement ok
CREATE TABLE delivery (item INT, qty INT, note VARCHAR(20))

statement count 2
INSERT INTO stock VALUES (1, 10, 'old'), (2, 20, 'old')

statement count 3
INSERT INTO delivery VALUES (1, 5, 'd1'), (3, 7, 'd3'), (4, 1, 'd4')

# Both clauses: 1 is updated, 3 and 4 inserted, 2 untouched.
statement count 3
MERGE INTO stock AS s USING delivery AS d ON s.item = d.item
WHEN MATCHED THEN UPDATE SET qty = s.qty + d.qty, note = 'topped'
WHEN NOT MATCHED THEN INSERT (item, qty, note) VALUES (d.item, d.qty, d.note)

query
SELECT item, qty, note FROM stock ORDER BY item
----
1 | 15 | topped
2 | 20 | old
3 | 7 | d3
4 | 1 | d4

# Only WHEN NOT MATCHED: the rows that match are left alone.
statement count 1
MERGE INTO stock USING (VALUES (1, 99), (5, 2)) AS v (item, qty) ON stock.item = v.item
WHEN NOT MATCHED THEN INSERT VALUES (v.item, v.qty, 'new')

query
SELECT item, qty, note FROM stock WHERE item IN (1, 5) ORDER BY item
----
1 | 15 | topped
5 | 2 | new

# Only WHEN MATCHED, with parameters-free literals and a subquery as the source.
statement count 2
MERGE INTO stock USING (SELECT item, qty FROM delivery WHERE item <> 4) AS d ON stock.item = d.item
WHEN MATCHED THEN UPDATE SET qty = stock.qty - d.qty

query
SELECT item, qty FROM stock WHERE item IN (1, 3) ORDER BY item
----
1 | 10
3 | 0

# A CHECK failing on one row changes nothing.
statement error 23514
MERGE INTO stock USING delivery AS d ON stock.item = d.item WHEN MATCHED THEN UPDATE SET qty = stock.qty - 8

query
SELECT sum(qty) FROM stock
----
33

# Two source rows matching one target row: 21000, nothing changed.
statement ok
INSERT INTO delivery VALUES (1, 1, 'again')

statement error 21000
MERGE INTO stock USING delivery AS d ON stock.item = d.item WHEN MATCHED THEN UPDATE SET qty = stock.qty + 1

query
SELECT qty FROM stock WHERE item = 1
----
10

# An insert with a key the table holds (the ON condition did not look at it): 23505.
statement error 23505
MERGE INTO stock USING (VALUES (2, 1)) AS v (item, qty) ON stock.note = 'nothing'
WHEN NOT MATCHED THEN INSERT VALUES (v.item, v.qty, 'dup')

statement ok
CREATE TABLE plain (a INT, b INT)

statement error 0A000 needs a table with a primary key
MERGE INTO plain USING delivery AS d ON plain.a = d.item WHEN MATCHED THEN UPDATE SET b = d.qty

# An ON condition that needs a cast (CHAR(1) against VARCHAR), updating the key itself.
statement ok
CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, n INT NOT NULL)

statement count 2
INSERT INTO kv VALUES ('a', 1), ('b', 2)

statement count 2
MERGE INTO kv USING (VALUES ('a', 10), ('c', 30)) AS v (k, n) ON kv.k = v.k
WHEN MATCHED THEN UPDATE SET k = 'z', n = kv.n + v.n
WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.n)

query
SELECT k, n FROM kv ORDER BY k
----
b | 2
c | 30
z | 11

# The cast on the target's side this time (the source's key is the wider type).
statement count 2
MERGE INTO kv USING (VALUES (CAST('b' AS VARCHAR(30)), 100), (CAST('q' AS VARCHAR(30)), 7)) AS v (k, n) ON kv.k = v.k
WHEN MATCHED THEN UPDATE SET n = kv.n + v.n
WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.n)

query
SELECT k, n FROM kv WHERE k IN ('b', 'q') ORDER BY k
----
b | 102
q | 7
