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
