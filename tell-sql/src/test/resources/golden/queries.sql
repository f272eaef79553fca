# SELECT with WHERE, ORDER BY, LIMIT/OFFSET, FETCH FIRST, DISTINCT, UNION, index ranges.

statement ok
CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20), price DECIMAL(8, 2), cat INTEGER, sub INTEGER)

statement ok
CREATE INDEX item_cat ON item (cat, sub)

statement ok
INSERT INTO item VALUES (1, 'apple', 1.20, 1, 1), (2, 'pear', 2.00, 1, 2), (3, 'plum', 0.80, 1, 2), (4, 'kale', 3.10, 2, 1), (5, 'leek', 1.90, 2, 2), (6, 'nut', NULL, NULL, NULL)

query
SELECT name FROM item WHERE id = 3
----
plum

query
SELECT name FROM item WHERE id > 2 AND id <= 5 ORDER BY id
----
plum
kale
leek

query
SELECT name FROM item WHERE id < 3 ORDER BY id DESC
----
pear
apple

query
SELECT name FROM item WHERE cat = 1 AND sub = 2 ORDER BY name
----
pear
plum

query
SELECT name FROM item WHERE cat = 1 AND sub >= 2 ORDER BY name
----
pear
plum

query
SELECT name FROM item WHERE cat < 2 ORDER BY id
----
apple
pear
plum

query
SELECT name FROM item WHERE cat IS NULL
----
nut

query
SELECT name FROM item ORDER BY price DESC NULLS LAST, id LIMIT 3
----
kale
pear
leek

query
SELECT name FROM item ORDER BY id LIMIT 2 OFFSET 3
----
kale
leek

query
SELECT name FROM item ORDER BY id OFFSET 1 ROWS FETCH FIRST 2 ROWS ONLY
----
pear
plum

query
SELECT DISTINCT cat FROM item WHERE cat IS NOT NULL ORDER BY cat
----
1
2

query sorted
SELECT name FROM item WHERE cat = 1 UNION SELECT name FROM item WHERE price > 1.5
----
apple
kale
leek
pear
plum

query
SELECT cat FROM item WHERE cat = 1 UNION ALL SELECT cat FROM item WHERE cat = 2 ORDER BY 1
----
1
1
1
2
2

# INTERSECT and EXCEPT, as multisets: ALL keeps copies (the fewest any input holds; those beyond
# what the others hold), without ALL each row once; NULLs are equal; INTERSECT binds tighter.
query
SELECT cat FROM item INTERSECT SELECT cat FROM item WHERE price > 1.5 ORDER BY 1
----
1
2

query
SELECT cat FROM item INTERSECT ALL SELECT cat FROM item WHERE price > 1.5 ORDER BY 1
----
1
2
2

query
SELECT cat FROM item EXCEPT SELECT cat FROM item WHERE price > 2 ORDER BY 1
----
1
NULL

query
SELECT cat FROM item EXCEPT ALL SELECT cat FROM item WHERE price > 1.5 ORDER BY 1
----
1
1
NULL

query
SELECT cat FROM item EXCEPT ALL SELECT cat FROM item WHERE id = 1 EXCEPT ALL SELECT cat FROM item WHERE id = 4 ORDER BY 1
----
1
1
2
NULL

query
SELECT sub FROM item WHERE id = 6 INTERSECT SELECT cat FROM item WHERE id = 6
----
NULL

query sorted
SELECT name FROM item WHERE cat = 1 UNION SELECT name FROM item WHERE cat = 2 EXCEPT SELECT name FROM item WHERE price < 1.5
----
kale
leek
pear

query sorted
SELECT name FROM item WHERE cat = 2 UNION SELECT name FROM item WHERE cat = 1 INTERSECT SELECT name FROM item WHERE price > 1.0
----
apple
kale
leek
pear

query
SELECT cat, COUNT(*) FROM (SELECT cat, sub FROM item EXCEPT SELECT cat, sub FROM item WHERE sub = 1) AS t GROUP BY cat ORDER BY cat
----
1 | 1
2 | 1
NULL | 1

query
SELECT name, CASE WHEN price > 2 THEN 'high' WHEN price > 1 THEN 'mid' ELSE 'low' END AS band FROM item ORDER BY id
----
apple | mid
pear | mid
plum | low
kale | high
leek | mid
nut | low

query
SELECT id FROM item WHERE name LIKE 'p%' ORDER BY id
----
2
3

query
SELECT id FROM item WHERE id IN (1, 5, 7) ORDER BY id
----
1
5

query
SELECT id FROM item WHERE price BETWEEN 1 AND 2 ORDER BY id
----
1
2
5

query
SELECT * FROM item WHERE 1 = 0
----

query
SELECT id FROM item WHERE id = 1 FOR UPDATE
----
1

query
EXPLAIN PLAN FOR SELECT name FROM item WHERE cat = 1 AND sub = 2
----
TellProject(NAME=[$0])
  TellIndexScan(table=[[PUBLIC, ITEM]], index=[ITEM_CAT], key=[[1, 2]], columns=[[NAME]])

query
EXPLAIN PLAN FOR SELECT name FROM item WHERE id = 3
----
TellProject(NAME=[$0])
  TellIndexScan(table=[[PUBLIC, ITEM]], index=[PRIMARY KEY], key=[[3]], columns=[[NAME]])
