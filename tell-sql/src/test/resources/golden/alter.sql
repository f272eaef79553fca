# ALTER TABLE: columns added (stored rows read the DEFAULT given), dropped, renamed; defaults and
# NOT NULL; constraints added and dropped. Stored rows are never rewritten; a change the rows
# break fails with the matching SQLState and changes nothing.

statement ok
CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL, dept INT, salary DECIMAL(8, 2))

statement ok
INSERT INTO emp VALUES (1, 'ann', 10, 100.00), (2, 'bob', 20, NULL), (3, 'cy', NULL, 300.00)

statement ok
CREATE INDEX emp_dept ON emp (dept)

statement ok
ALTER TABLE emp ADD COLUMN active BOOLEAN DEFAULT TRUE NOT NULL

statement ok
ALTER TABLE emp ADD note VARCHAR(5)

query
SELECT id, name, active, note FROM emp ORDER BY id
----
1 | ann | true | NULL
2 | bob | true | NULL
3 | cy | true | NULL

# A later DEFAULT changes what new rows get, not what stored rows read.
statement ok
ALTER TABLE emp ALTER COLUMN active SET DEFAULT FALSE

statement ok
INSERT INTO emp (id, name) VALUES (4, 'dee')

query
SELECT id, active FROM emp ORDER BY id
----
1 | true
2 | true
3 | true
4 | false

statement error 42P07
ALTER TABLE emp ADD COLUMN note INT

statement ok
ALTER TABLE emp ADD COLUMN IF NOT EXISTS note INT

# ADD COLUMN ... NOT NULL without DEFAULT on rows: 23502, and the column is not there.
statement error 23502 contains null values
ALTER TABLE emp ADD COLUMN badge INT NOT NULL

statement error 42000
SELECT badge FROM emp

# Dropping a column takes its indexes with it; the slot stays in stored rows.
statement ok
ALTER TABLE emp DROP COLUMN dept

statement error 42000
SELECT dept FROM emp

statement error 42P01
DROP INDEX emp_dept

query
SELECT * FROM emp WHERE id = 2
----
2 | bob | NULL | true | NULL

statement ok
INSERT INTO emp (id, name, salary, note) VALUES (5, 'eve', 50.5, 'x')

query
SELECT id, name, salary, active, note FROM emp ORDER BY id
----
1 | ann | 100.00 | true | NULL
2 | bob | NULL | true | NULL
3 | cy | 300.00 | true | NULL
4 | dee | NULL | false | NULL
5 | eve | 50.50 | false | x

statement ok
ALTER TABLE emp DROP COLUMN IF EXISTS dept

statement error 42000
ALTER TABLE emp DROP COLUMN dept

statement error 0A000 primary key
ALTER TABLE emp DROP COLUMN id

# A new column takes the place of none: stored rows read its DEFAULT.
statement ok
ALTER TABLE emp ADD COLUMN dept INT DEFAULT 7

query
SELECT id, dept FROM emp ORDER BY id
----
1 | 7
2 | 7
3 | 7
4 | 7
5 | 7

statement ok
ALTER TABLE emp RENAME COLUMN name TO full_name

query
SELECT full_name FROM emp WHERE id = 1
----
ann

statement ok
ALTER TABLE emp RENAME TO staff

statement error 42000
SELECT * FROM emp

query
SELECT COUNT(*) FROM staff
----
5

# SET NOT NULL checks the stored rows.
statement error 23502 column SALARY of table STAFF contains null values
ALTER TABLE staff ALTER COLUMN salary SET NOT NULL

statement ok
INSERT INTO staff (id, full_name) VALUES (6, 'fay')

statement ok
UPDATE staff SET salary = 0 WHERE salary IS NULL

statement ok
ALTER TABLE staff ALTER COLUMN salary SET NOT NULL

statement error 23502
INSERT INTO staff (id, full_name) VALUES (7, 'gus')

statement ok
ALTER TABLE staff ALTER salary DROP NOT NULL, ALTER salary SET DEFAULT 1.5

statement ok
INSERT INTO staff (id, full_name) VALUES (7, 'gus')

query
SELECT salary FROM staff WHERE id = 7
----
1.50

statement error 42000
ALTER TABLE staff ALTER COLUMN id DROP NOT NULL

# Constraints: UNIQUE over the rows (23505 when they repeat), foreign keys (23503 for orphans).
statement error 23505
ALTER TABLE staff ADD CONSTRAINT one_dept UNIQUE (dept)

statement ok
ALTER TABLE staff ADD CONSTRAINT one_name UNIQUE (full_name)

statement error 23505 unique constraint "ONE_NAME"
INSERT INTO staff (id, full_name) VALUES (8, 'ann')

statement ok
CREATE TABLE dept (id INT PRIMARY KEY, title VARCHAR(10))

statement error 23503 Key (DEPT)=(7) is not present in table "DEPT"
ALTER TABLE staff ADD CONSTRAINT staff_dept FOREIGN KEY (dept) REFERENCES dept

statement ok
INSERT INTO dept VALUES (7, 'ops')

statement ok
ALTER TABLE staff ADD CONSTRAINT staff_dept FOREIGN KEY (dept) REFERENCES dept (id)

# Several actions apply together or not at all.
statement error 42000
ALTER TABLE dept RENAME COLUMN title TO name, DROP COLUMN nope

query
SELECT title FROM dept
----
ops

statement ok
ALTER TABLE dept RENAME COLUMN id TO dept_id, ADD COLUMN code INT DEFAULT 1

statement ok
ALTER TABLE dept ADD CONSTRAINT dept_code UNIQUE (code)

statement ok
ALTER TABLE staff ADD COLUMN dept_code INT

statement ok
ALTER TABLE staff ADD CONSTRAINT staff_code FOREIGN KEY (dept_code) REFERENCES dept (code)

# A column another table's foreign key references goes only with CASCADE, which drops that key.
statement error 2BP01 STAFF_CODE
ALTER TABLE dept DROP COLUMN code

statement ok
ALTER TABLE dept DROP COLUMN code CASCADE

statement error 42P01
ALTER TABLE staff DROP CONSTRAINT staff_code

statement ok
ALTER TABLE staff DROP CONSTRAINT staff_dept, DROP CONSTRAINT one_name

statement ok
INSERT INTO staff (id, full_name, dept) VALUES (8, 'ann', 99)

statement error 42P01
ALTER TABLE staff DROP CONSTRAINT staff_dept

statement ok
ALTER TABLE staff DROP CONSTRAINT IF EXISTS staff_dept

statement ok
ALTER TABLE IF EXISTS nothing_here ADD COLUMN x INT

statement error 42P01
ALTER TABLE nothing_here ADD COLUMN x INT

statement error 0A000
ALTER TABLE staff ALTER COLUMN salary TYPE BIGINT

statement error 0A000
ALTER TABLE staff ADD PRIMARY KEY (id)

statement error 0A000
ALTER TABLE staff ADD COLUMN serial_no SERIAL

statement error 23514 is violated by some row
ALTER TABLE staff ADD CONSTRAINT pos CHECK (salary > 0)

statement ok
ALTER TABLE staff ADD CONSTRAINT pos CHECK (salary >= 0)

statement error 23514 violates check constraint "POS"
UPDATE staff SET salary = -1 WHERE id = 1

statement ok
ALTER TABLE staff DROP CONSTRAINT pos

statement error 0A000
ALTER TABLE staff ADD COLUMN x INT NOT NULL, ADD COLUMN y INT

# TRUNCATE empties tables at once (fresh storage; the old is swept like a dropped table's).
statement ok
CREATE TABLE log_entry (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, msg VARCHAR(10) UNIQUE)

statement ok
CREATE INDEX log_msg ON log_entry (msg, id)

statement ok
INSERT INTO log_entry (msg) VALUES ('a'), ('b'), ('c')

statement ok
TRUNCATE TABLE log_entry

query
SELECT COUNT(*) FROM log_entry
----
0

# Keys of the truncated rows are free again; the identity goes on unless RESTART IDENTITY.
statement ok
INSERT INTO log_entry (msg) VALUES ('a')

query
SELECT id, msg FROM log_entry WHERE msg = 'a'
----
4 | a

statement ok
TRUNCATE log_entry RESTART IDENTITY

statement ok
INSERT INTO log_entry (msg) VALUES ('b')

query
SELECT id, msg FROM log_entry
----
1 | b

statement ok
CREATE TABLE parent_t (id INT PRIMARY KEY)

statement ok
CREATE TABLE child_t (id INT PRIMARY KEY, p INT REFERENCES parent_t)

statement ok
INSERT INTO parent_t VALUES (1)

statement ok
INSERT INTO child_t VALUES (1, 1)

statement error 0A000 CHILD_T
TRUNCATE parent_t

statement ok
TRUNCATE parent_t CASCADE

query
SELECT (SELECT COUNT(*) FROM parent_t) + (SELECT COUNT(*) FROM child_t) FROM (VALUES (1)) AS t(x)
----
0

statement error 42P01
TRUNCATE nothing_here

# ALTER COLUMN ... TYPE: widening the stored form allows, without rewriting rows.
statement ok
CREATE TABLE widen (id INT PRIMARY KEY, n SMALLINT, s VARCHAR(3) UNIQUE, d DECIMAL(4, 2), b VARBINARY(2), k INT)

statement ok
CREATE INDEX widen_k ON widen (k)

statement count 1
INSERT INTO widen VALUES (1, 32767, 'abc', 99.99, X'0102', 5)

statement error 22003
INSERT INTO widen VALUES (2, 32768, 'x', 1, X'', 6)

statement ok
ALTER TABLE widen ALTER COLUMN n TYPE BIGINT

statement ok
ALTER TABLE widen ALTER COLUMN s SET DATA TYPE VARCHAR(10)

statement ok
ALTER TABLE widen ALTER d TYPE DECIMAL(10, 2), ALTER COLUMN b TYPE BYTEA

statement count 1
INSERT INTO widen VALUES (2, 9000000000, 'longer one', 12345678.5, X'010203', 6)

query
SELECT id, n, s, d, b FROM widen ORDER BY id
----
1 | 32767 | abc | 99.99 | \x0102
2 | 9000000000 | longer one | 12345678.50 | \x010203

query
SELECT id FROM widen WHERE s = 'longer one'
----
2

statement error 0A000 would rewrite its rows
ALTER TABLE widen ALTER COLUMN s TYPE VARCHAR(2)

statement error 0A000 would rewrite its rows
ALTER TABLE widen ALTER COLUMN d TYPE DECIMAL(12, 3)

statement error 0A000 would rewrite its rows
ALTER TABLE widen ALTER COLUMN n TYPE INT

statement error 0A000 is in a key, an index or a foreign key
ALTER TABLE widen ALTER COLUMN k TYPE BIGINT

statement error 0A000 is in a key, an index or a foreign key
ALTER TABLE widen ALTER COLUMN id TYPE BIGINT

statement error 0A000 USING
ALTER TABLE widen ALTER COLUMN n TYPE BIGINT USING n + 1

statement ok
ALTER TABLE widen ALTER COLUMN n TYPE BIGINT

# A column added later (read from its fill in older rows) widens too.
statement ok
ALTER TABLE widen ADD COLUMN extra INT DEFAULT 7

statement ok
ALTER TABLE widen ALTER COLUMN extra TYPE BIGINT

query
SELECT id, extra FROM widen ORDER BY id
----
1 | 7
2 | 7

statement ok
CREATE VIEW widen_v AS SELECT id, s FROM widen

statement error 2BP01 view WIDEN_V reads it
ALTER TABLE widen ALTER COLUMN s TYPE VARCHAR(20)

# RENAME CONSTRAINT: UNIQUE (with its index), FOREIGN KEY and CHECK; the primary key keeps its name.
statement ok
CREATE TABLE rc_parent (id INT PRIMARY KEY, code VARCHAR(5) CONSTRAINT rc_code UNIQUE)

statement ok
CREATE TABLE rc_child (id INT PRIMARY KEY, p INT CONSTRAINT rc_fk REFERENCES rc_parent (id), n INT CONSTRAINT rc_pos CHECK (n > 0))

statement ok
ALTER TABLE rc_parent RENAME CONSTRAINT rc_code TO rc_code_unique

statement ok
ALTER TABLE rc_child RENAME CONSTRAINT rc_fk TO rc_child_parent, RENAME CONSTRAINT rc_pos TO rc_positive

statement ok
INSERT INTO rc_parent VALUES (1, 'a')

statement error 23505 RC_CODE_UNIQUE
INSERT INTO rc_parent VALUES (2, 'a')

statement error 23503 RC_CHILD_PARENT
INSERT INTO rc_child VALUES (1, 9, 1)

statement error 23514 RC_POSITIVE
INSERT INTO rc_child VALUES (1, 1, 0)

statement error 42P07
ALTER TABLE rc_child RENAME CONSTRAINT rc_positive TO rc_child_parent

statement error 42P01
ALTER TABLE rc_child RENAME CONSTRAINT nothing TO other

statement error 0A000 cannot be renamed
ALTER TABLE rc_child RENAME CONSTRAINT rc_child_pk TO other

statement ok
ALTER TABLE rc_parent DROP CONSTRAINT rc_code_unique

statement count 1
INSERT INTO rc_parent VALUES (2, 'a')
