# Views: CREATE [OR REPLACE] VIEW, DROP VIEW; read like tables, expanded in place.

statement ok
CREATE TABLE product (id INT PRIMARY KEY, name VARCHAR(10), price DECIMAL(6, 2), cat INT)

statement ok
INSERT INTO product VALUES (1, 'apple', 1.50, 1), (2, 'pear', 2.00, 1), (3, 'kale', 3.25, 2), (4, 'leek', 0.75, 2)

statement ok
CREATE VIEW cheap AS SELECT * FROM product WHERE price < 2

query
SELECT id, name FROM cheap ORDER BY id
----
1 | apple
4 | leek

statement ok
CREATE VIEW cat_total (cat, n, total) AS SELECT cat, COUNT(*), SUM(price) FROM product GROUP BY cat

query
SELECT cat, n, total FROM cat_total ORDER BY cat
----
1 | 2 | 3.50
2 | 2 | 4.00

# Views join with tables and other views, in subqueries too.
query
SELECT c.name, t.total FROM cheap AS c JOIN cat_total AS t ON c.cat = t.cat ORDER BY c.id
----
apple | 3.50
leek | 4.00

query
SELECT name FROM product WHERE id IN (SELECT id FROM cheap) AND cat = 2
----
leek

statement ok
CREATE VIEW cheap_names AS SELECT UPPER(name) AS shout FROM cheap

query
SELECT shout FROM cheap_names ORDER BY shout
----
APPLE
LEEK

# A view sees the rows of now, and * was expanded when it was created.
statement ok
INSERT INTO product VALUES (5, 'plum', 0.10, 3)

statement ok
ALTER TABLE product ADD COLUMN stock INT DEFAULT 9

query
SELECT * FROM cheap ORDER BY id
----
1 | apple | 1.50 | 1
4 | leek | 0.75 | 2
5 | plum | 0.10 | 3

# What views read cannot go or change shape under them.
statement error 2BP01
DROP TABLE product

statement error 2BP01
ALTER TABLE product DROP COLUMN cat

statement error 2BP01
DROP VIEW cheap

statement error 42P07
CREATE VIEW cheap AS SELECT 1 AS x FROM product

statement error 42P07
CREATE VIEW product AS SELECT 1 AS x FROM product

statement ok
CREATE OR REPLACE VIEW cheap AS SELECT id, name, price, cat, stock FROM product WHERE price < 1

query
SELECT name, stock FROM cheap_names AS x JOIN cheap AS c ON x.shout = UPPER(c.name) ORDER BY name
----
leek | 9
plum | 9

statement error 42000
CREATE OR REPLACE VIEW cheap AS SELECT id FROM product

statement error 42000
CREATE VIEW bad AS SELECT nope FROM product

statement error 42000
CREATE VIEW bad (a, b) AS SELECT id FROM product

statement error 42000
CREATE VIEW bad AS SELECT id, id FROM product

statement error 0A000 views are read-only
INSERT INTO cheap VALUES (9, 'x', 0.5, 1, 1)

statement error 0A000 views are read-only
DELETE FROM cheap WHERE id = 4

statement ok
DROP VIEW cheap CASCADE

statement error 42000
SELECT * FROM cheap_names

statement ok
DROP VIEW IF EXISTS cheap

statement error 42P01
DROP VIEW cheap

statement ok
DROP TABLE product CASCADE

statement error 42000
SELECT * FROM cat_total
