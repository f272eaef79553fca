# Schemas: CREATE SCHEMA, DROP SCHEMA, qualified names. PUBLIC is the schema of names written without one
# (the session's schema path; JDBC setSchema and the server's SET search_path change it).

statement ok
CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(10))

statement ok
INSERT INTO public.item VALUES (1, 'pen'), (2, 'ink')

query
SELECT item.name FROM PUBLIC.item WHERE public.item.id = 1 OR item.id = 2 ORDER BY item.id
----
pen
ink

statement ok
CREATE SCHEMA shop

statement error 42P07 schema SHOP already exists
CREATE SCHEMA shop

statement ok
CREATE SCHEMA IF NOT EXISTS shop

# The same name in two schemas names two tables.
statement ok
CREATE TABLE shop.item (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, sku VARCHAR(8) UNIQUE, part INT REFERENCES public.item, qty INT CHECK (qty > 0))

statement ok
INSERT INTO shop.item (sku, part, qty) VALUES ('a-1', 1, 5), ('a-2', 2, 7)

query
SELECT s.id, s.sku, p.name, s.qty FROM shop.item AS s JOIN item AS p ON s.part = p.id ORDER BY s.id
----
1 | a-1 | pen | 5
2 | a-2 | ink | 7

query
SELECT COUNT(*) FROM item
----
2

# Constraint errors name the table and constraint without the schema, as PostgreSQL does.
statement error 23505 duplicate key value violates unique constraint "ITEM_UNIQUE_1"
INSERT INTO shop.item (sku, part, qty) VALUES ('a-1', 1, 1)

statement error 23503 insert or update on table "ITEM" violates foreign key constraint "ITEM_FK_1"
INSERT INTO shop.item (sku, part, qty) VALUES ('b-1', 9, 1)

statement error 23514 violates check constraint "ITEM_CHECK_1"
INSERT INTO shop.item (sku, part, qty) VALUES ('b-1', 1, 0)

statement error 23503 is still referenced from table "ITEM"
DELETE FROM item WHERE id = 1

# Upsert, RETURNING and MERGE find the target by its qualified name.
statement ok
INSERT INTO shop.item (sku, part, qty) VALUES ('a-1', 1, 3) ON CONFLICT (sku) DO UPDATE SET qty = shop.item.qty + EXCLUDED.qty

statement count 0
INSERT INTO shop.item (sku, part, qty) VALUES ('a-1', 1, 1) ON CONFLICT ON CONSTRAINT item_unique_1 DO NOTHING

statement count 1
INSERT INTO shop.item (sku, part, qty) VALUES ('a-3', 1, 1) ON CONFLICT ON CONSTRAINT item_pk DO NOTHING

statement ok
DELETE FROM shop.item WHERE sku = 'a-3'

query
UPDATE shop.item SET qty = qty + 1 WHERE sku = 'a-1' RETURNING sku, qty
----
a-1 | 9

statement count 1
MERGE INTO shop.item AS t USING (VALUES ('a-2', 1)) AS s (sku, q) ON t.sku = s.sku WHEN MATCHED THEN UPDATE SET qty = t.qty + s.q

query
SELECT sku, qty FROM shop.item ORDER BY sku
----
a-1 | 9
a-2 | 8

# Indexes, views and sequences live in a schema too; an index goes to its table's schema.
statement ok
CREATE INDEX item_qty ON shop.item (qty)

statement ok
CREATE INDEX item_qty ON item (name)

statement ok
CREATE SEQUENCE shop.ticket START WITH 100

query
SELECT NEXT VALUE FOR shop.ticket, nextval('shop.ticket')
----
100 | 101

statement error 42P01 sequence TICKET does not exist
SELECT nextval('ticket')

statement ok
ALTER TABLE shop.item ADD COLUMN note VARCHAR(20) DEFAULT 'none'

statement ok
ALTER TABLE shop.item RENAME TO goods

query
SELECT sku, note FROM shop.goods WHERE qty = 9
----
a-1 | none

statement error 42000 Object 'ITEM' not found within 'SHOP'
SELECT * FROM shop.item

statement ok
CREATE VIEW shop.stock AS SELECT sku, qty FROM shop.goods WHERE qty > 8

query
SELECT * FROM shop.stock
----
a-1 | 9

statement ok
DROP INDEX shop.item_qty

statement ok
DROP INDEX item_qty

# Names with more parts, dots in names, and schemas that do not exist.
statement error 42601 at most two parts
CREATE TABLE a.b.c (x INT)

statement error 42601 cannot contain '.'
CREATE TABLE "a.b" (x INT)

statement error 3F000 schema NOWHERE does not exist
CREATE TABLE nowhere.t (x INT)

statement error 3F000 schema NOWHERE does not exist
DROP SCHEMA nowhere

statement ok
DROP SCHEMA IF EXISTS nowhere

statement error 0A000 cannot be dropped
DROP SCHEMA public

# A schema that holds anything goes only with CASCADE; a foreign key from another schema keeps it.
statement ok
CREATE SCHEMA other

statement ok
CREATE TABLE other.ref (id INT PRIMARY KEY, g INT REFERENCES shop.goods)

statement error 2BP01 what it holds
DROP SCHEMA shop

statement error 2BP01 foreign key
DROP SCHEMA shop CASCADE

statement ok
TRUNCATE other.ref

statement ok
DROP SCHEMA other CASCADE

statement ok
CREATE VIEW shop_stock AS SELECT * FROM shop.stock

statement ok
DROP SCHEMA shop CASCADE

statement error 42000 Object 'SHOP' not found
SELECT * FROM shop.goods

statement error 42P01 view SHOP_STOCK does not exist
DROP VIEW shop_stock

query
SELECT COUNT(*) FROM item
----
2

query
SELECT SCHEMA_NAME FROM INFORMATION_SCHEMA.SCHEMATA ORDER BY SCHEMA_NAME
----
INFORMATION_SCHEMA
PUBLIC
