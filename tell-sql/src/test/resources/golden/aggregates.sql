# GROUP BY / HAVING and the aggregate functions, with NULLs and DISTINCT.

statement ok
CREATE TABLE sale (id INTEGER PRIMARY KEY, region VARCHAR(5), qty INTEGER, price DECIMAL(6, 2))

statement ok
INSERT INTO sale VALUES (1, 'n', 2, 1.50), (2, 'n', 3, 2.00), (3, 's', 2, NULL), (4, 's', NULL, 4.00), (5, 'e', 5, 1.00)

query
SELECT COUNT(*), COUNT(qty), COUNT(DISTINCT qty), SUM(qty), MIN(qty), MAX(qty) FROM sale
----
5 | 4 | 3 | 12 | 2 | 5

query
SELECT region, COUNT(*), SUM(qty), MAX(price) FROM sale GROUP BY region ORDER BY region
----
e | 1 | 5 | 1.00
n | 2 | 5 | 2.00
s | 2 | 2 | 4.00

query
SELECT region FROM sale GROUP BY region HAVING COUNT(*) > 1 ORDER BY region
----
n
s

query
SELECT region, SUM(qty * price) FROM sale GROUP BY region ORDER BY region
----
e | 5.00
n | 9.00
s | NULL

# A literal compared inside CASE inside a divided aggregate: lifted to a parameter, the statement
# does not validate in Calcite, so its exact text is planned (CH-benCHmark Q8 has this shape).
query
SELECT SUM(CASE WHEN region = 'n' THEN qty ELSE 0 END) * 100 / SUM(qty) FROM sale
----
41

query
SELECT COUNT(*), SUM(qty), MAX(qty) FROM sale WHERE id > 100
----
0 | NULL | NULL

query
SELECT COUNT(DISTINCT region) FROM sale
----
3

query
SELECT AVG(price) FROM sale WHERE region = 'n'
----
1.75
