# INSERT (multi-row, with column lists, INSERT ... SELECT), UPDATE, DELETE.

statement ok
CREATE TABLE acct (id INTEGER PRIMARY KEY, owner VARCHAR(20) NOT NULL, balance DECIMAL(12, 2) DEFAULT 0, branch INTEGER)

statement count 3
INSERT INTO acct VALUES (1, 'ann', 100.00, 1), (2, 'bob', 50.50, 1), (3, 'cy', 0, 2)

statement count 1
INSERT INTO acct (id, owner) VALUES (4, 'dee')

query
SELECT id, owner, balance, branch FROM acct ORDER BY id
----
1 | ann | 100.00 | 1
2 | bob | 50.50 | 1
3 | cy | 0.00 | 2
4 | dee | 0.00 | NULL

statement count 2
UPDATE acct SET balance = balance + 10 WHERE branch = 1

statement count 1
UPDATE acct SET branch = 3, owner = 'dee2' WHERE id = 4

query
SELECT id, owner, balance, branch FROM acct ORDER BY id
----
1 | ann | 110.00 | 1
2 | bob | 60.50 | 1
3 | cy | 0.00 | 2
4 | dee2 | 0.00 | 3

statement count 0
UPDATE acct SET balance = 1 WHERE id = 99

statement ok
CREATE TABLE archive (id INTEGER PRIMARY KEY, owner VARCHAR(20), balance DECIMAL(12, 2))

statement count 2
INSERT INTO archive SELECT id, owner, balance FROM acct WHERE balance > 50

query
SELECT * FROM archive ORDER BY id
----
1 | ann | 110.00
2 | bob | 60.50

statement count 2
DELETE FROM acct WHERE id IN (SELECT id FROM archive)

query
SELECT id FROM acct ORDER BY id
----
3
4

statement count 2
DELETE FROM acct

query
SELECT COUNT(*) FROM acct
----
0

statement count 1
INSERT INTO acct VALUES (1, 'again', 1, 1)

statement count 1
UPDATE acct SET id = 10 WHERE id = 1

query
SELECT id, owner FROM acct WHERE id = 10
----
10 | again

query
SELECT id FROM acct WHERE id = 1
----
