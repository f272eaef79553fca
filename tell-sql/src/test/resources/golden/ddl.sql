# CREATE/DROP TABLE and INDEX, IF [NOT] EXISTS, all column types, constraints, defaults.

statement ok
CREATE TABLE all_types (
  id INTEGER PRIMARY KEY,
  b BIGINT,
  s SMALLINT,
  d DECIMAL(10, 2) DEFAULT 1.5,
  f DOUBLE,
  r REAL,
  v VARCHAR(10) NOT NULL DEFAULT 'none',
  c CHAR(3),
  ok BOOLEAN DEFAULT TRUE,
  born DATE,
  ts TIMESTAMP
)

statement error 42P07
CREATE TABLE all_types (id INTEGER PRIMARY KEY)

statement ok
CREATE TABLE IF NOT EXISTS all_types (id INTEGER PRIMARY KEY)

statement count 1
INSERT INTO all_types (id) VALUES (1)

query
SELECT id, b, d, v, ok FROM all_types
----
1 | NULL | 1.50 | none | true

statement count 1
INSERT INTO all_types VALUES (2, 9000000000, 7, 12.345, 0.5, 0.25, 'x', 'ab', FALSE, DATE '2024-02-29', TIMESTAMP '2024-02-29 10:11:12')

query
SELECT b, s, d, f, r, v, c, ok, born, ts FROM all_types WHERE id = 2
----
9000000000 | 7 | 12.35 | 0.5 | 0.25 | x | ab  | false | 2024-02-29 | 2024-02-29T10:11:12

statement ok
CREATE TABLE parent (a INTEGER, b VARCHAR(5), name VARCHAR(20) UNIQUE, PRIMARY KEY (a, b))

statement ok
CREATE TABLE child (id INTEGER PRIMARY KEY, pa INTEGER, pb VARCHAR(5), FOREIGN KEY (pa, pb) REFERENCES parent (a, b))

statement ok
INSERT INTO parent VALUES (1, 'x', 'one'), (1, 'y', 'two'), (2, 'x', 'three')

statement ok
CREATE INDEX parent_name_b ON parent (b, name)

query
SELECT a, name FROM parent WHERE b = 'x' ORDER BY a
----
1 | one
2 | three

statement error 23505
CREATE UNIQUE INDEX parent_b ON parent (b)

statement ok
CREATE UNIQUE INDEX parent_ab ON parent (name, a)

statement error 42P07
CREATE INDEX parent_name_b ON parent (a)

statement ok
CREATE INDEX IF NOT EXISTS parent_name_b ON parent (a)

statement ok
DROP INDEX parent_name_b

statement error 42P01
DROP INDEX parent_name_b

statement ok
DROP INDEX IF EXISTS parent_name_b

statement error 42000
DROP TABLE parent

statement ok
DROP TABLE child

statement ok
DROP TABLE parent

statement error 42P01
DROP TABLE parent

statement ok
DROP TABLE IF EXISTS parent

statement error 42000
SELECT * FROM parent

statement ok
CREATE TABLE parent (a INTEGER PRIMARY KEY)

query
SELECT COUNT(*) FROM parent
----
0

# TEXT and CLOB are VARCHARs of the longest length Tell stores (1 MiB).
statement ok
CREATE TABLE notes_t (id INT PRIMARY KEY, body TEXT, extra CLOB)

statement ok
INSERT INTO notes_t VALUES (1, 'a long story', 'more')

query
SELECT CHAR_LENGTH(body), extra FROM notes_t
----
12 | more

# DESC index columns are accepted (and reported by DatabaseMetaData); Tell keeps indexes in
# ascending order and reads them for lookups and ranges, which work either way.
statement ok
CREATE INDEX notes_desc ON notes_t (body DESC, id ASC)

query
SELECT id FROM notes_t WHERE body = 'a long story'
----
1

# DEFAULT CURRENT_TIMESTAMP / CURRENT_DATE / LOCALTIMESTAMP / NOW(): the inserting statement's time.
statement ok
CREATE TABLE stamped (id INT PRIMARY KEY, made TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, d1 DATE DEFAULT CURRENT_DATE, t2 TIMESTAMP DEFAULT NOW())

statement ok
INSERT INTO stamped (id) VALUES (1), (2)

query
SELECT COUNT(*) FROM stamped WHERE made = t2 AND CAST(made AS DATE) = d1 AND made > TIMESTAMP '2020-01-01 00:00:00'
----
2

statement ok
ALTER TABLE stamped ADD COLUMN since TIMESTAMP DEFAULT LOCALTIMESTAMP

query
SELECT COUNT(*) FROM stamped WHERE since >= made
----
2

statement ok
ALTER TABLE stamped ALTER COLUMN d1 SET DEFAULT DATE '2000-01-01'

statement ok
INSERT INTO stamped (id) VALUES (3)

query
SELECT d1 FROM stamped WHERE id = 3
----
2000-01-01

statement error 42000
CREATE TABLE bad (x INT DEFAULT CURRENT_TIMESTAMP)
