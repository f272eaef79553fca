# CHECK constraints: FALSE refuses the row (23514), TRUE and NULL pass; a statement that breaks
# one changes nothing.

statement ok
CREATE TABLE item (id INT PRIMARY KEY CHECK (id > 0), qty INT CONSTRAINT qty_ok CHECK (qty >= 0), price DECIMAL(6, 2), discount DECIMAL(6, 2), CHECK (discount < price), CONSTRAINT named_pair CHECK (qty < 1000 OR price IS NULL))

statement ok
INSERT INTO item VALUES (1, 5, 10.00, 1.00), (2, NULL, NULL, 5.00)

statement error 23514 violates check constraint "QTY_OK"
INSERT INTO item VALUES (3, -1, 1.00, 0.50)

statement error 23514 Failing row contains (4, 1, 1.00, 2.00)
INSERT INTO item VALUES (3, 1, 1.00, 0.50), (4, 1, 1.00, 2.00)

query
SELECT COUNT(*) FROM item
----
2

statement error 23514 ITEM_CHECK_1
INSERT INTO item VALUES (0, 1, 1.00, 0.50)

statement error 23514 NAMED_PAIR
UPDATE item SET qty = 5000 WHERE id = 1

statement ok
UPDATE item SET qty = 5000, price = NULL WHERE id = 1

statement error 23514 QTY_OK
INSERT INTO item VALUES (1, -5, 1.00, 0.10) ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty

statement error 42000
CREATE TABLE bad (a INT CHECK (b > 0))

statement error 42804
CREATE TABLE bad (a INT CHECK (a + 1))

statement error 0A000
CREATE TABLE bad (a INT CHECK (a > (SELECT 1 FROM item)))

statement error 42000
SELECT * FROM bad

statement ok
ALTER TABLE item DROP CONSTRAINT named_pair

statement ok
UPDATE item SET qty = 5000, price = 9.00 WHERE id = 2

# Renaming a column renames it in the checks that use it; dropping one drops them.
statement ok
ALTER TABLE item RENAME COLUMN qty TO amount

statement error 23514 QTY_OK
UPDATE item SET amount = -1 WHERE id = 2

statement ok
ALTER TABLE item RENAME COLUMN amount TO "qty"

statement error 23514 QTY_OK
UPDATE item SET "qty" = -1 WHERE id = 2

statement ok
ALTER TABLE item RENAME COLUMN "qty" TO qty

statement ok
ALTER TABLE item DROP COLUMN qty

statement ok
ALTER TABLE item ADD COLUMN note VARCHAR(5)

statement ok
ALTER TABLE item RENAME COLUMN note TO memo

statement ok
ALTER TABLE item RENAME COLUMN price TO cost

statement error 23514 ITEM_CHECK_2
UPDATE item SET discount = 100 WHERE id = 2

statement count 1
UPDATE item SET discount = 1 WHERE id = 2
