# Foreign keys are enforced: a referencing row needs its parent (23503); deleting or re-keying
# a referenced row follows ON DELETE / ON UPDATE (NO ACTION, RESTRICT, CASCADE, SET NULL).

statement ok
CREATE TABLE dept (id INT PRIMARY KEY, code VARCHAR(5) UNIQUE, name VARCHAR(10))

statement ok
CREATE TABLE emp (id INT PRIMARY KEY, dept INT REFERENCES dept ON DELETE CASCADE ON UPDATE CASCADE, boss INT REFERENCES emp (id) ON DELETE SET NULL, dcode VARCHAR(5), CONSTRAINT emp_dcode FOREIGN KEY (dcode) REFERENCES dept (code))

statement ok
INSERT INTO dept VALUES (1, 'ops', 'Ops'), (2, 'dev', 'Dev'), (3, 'hr', 'HR')

statement ok
INSERT INTO emp VALUES (10, 1, NULL, 'ops'), (11, 1, 10, NULL), (12, 2, 10, 'dev'), (13, NULL, NULL, NULL)

statement error 23503 Key (DEPT)=(9) is not present in table "DEPT"
INSERT INTO emp VALUES (14, 9, NULL, NULL)

statement error 23503 violates foreign key constraint "EMP_DCODE"
UPDATE emp SET dcode = 'xx' WHERE id = 13

statement ok
UPDATE emp SET dcode = 'hr' WHERE id = 13

statement error 23503 Key (CODE)=(hr) is still referenced from table "EMP"
DELETE FROM dept WHERE id = 3

statement error 23503
UPDATE dept SET code = 'hx' WHERE id = 3

# Cascading first, a row's other references are checked on what is left (as PostgreSQL does).
statement ok
INSERT INTO dept VALUES (4, 'tmp', 'Tmp')

statement ok
INSERT INTO emp VALUES (15, 4, NULL, 'tmp')

statement ok
DELETE FROM dept WHERE id = 4

statement ok
UPDATE emp SET dcode = NULL WHERE id = 13

# ON UPDATE CASCADE moves the references along; ON DELETE CASCADE takes them with it.
statement ok
UPDATE dept SET id = 5 WHERE id = 1

query
SELECT id, dept FROM emp ORDER BY id
----
10 | 5
11 | 5
12 | 2
13 | NULL

statement ok
UPDATE emp SET dcode = NULL WHERE id = 10

statement ok
DELETE FROM dept WHERE id = 5

# Deleting emp 10 with its department cleared emp 12's boss (SET NULL), a cascade of cascades.
query
SELECT id, dept, boss FROM emp ORDER BY id
----
12 | 2 | NULL
13 | NULL | NULL

# ON DELETE SET NULL clears the references; a statement's own new rows count as parents.
statement ok
INSERT INTO emp VALUES (20, 3, NULL, NULL), (21, 3, 20, NULL), (22, 3, 21, NULL)

statement ok
DELETE FROM emp WHERE id = 21

query
SELECT id, boss FROM emp WHERE id >= 20 ORDER BY id
----
20 | NULL
22 | NULL

statement error 42000 no primary key or unique constraint
CREATE TABLE bad (x INT REFERENCES dept (name))

statement error 0A000
CREATE TABLE bad (x INT REFERENCES dept ON DELETE SET DEFAULT)
