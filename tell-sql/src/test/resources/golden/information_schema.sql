# INFORMATION_SCHEMA: the catalog as the SQL standard's views show it (PostgreSQL's wording).

statement ok
CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL UNIQUE)

statement ok
CREATE TABLE emp (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, dept_id INT REFERENCES dept (id) ON DELETE CASCADE, salary DECIMAL(10, 2) DEFAULT 0 CHECK (salary >= 0), born DATE, token UUID DEFAULT gen_random_uuid())

statement ok
CREATE VIEW rich AS SELECT id, salary FROM emp WHERE salary > 1000

statement ok
CREATE SEQUENCE ticket START WITH 10 INCREMENT BY 5

query
SELECT schema_name FROM information_schema.schemata ORDER BY schema_name
----
INFORMATION_SCHEMA
PUBLIC

query
SELECT table_schema, table_name, table_type FROM information_schema.tables ORDER BY table_name
----
PUBLIC | DEPT | BASE TABLE
PUBLIC | EMP | BASE TABLE
PUBLIC | RICH | VIEW

query
SELECT column_name, ordinal_position, column_default, is_nullable, data_type, character_maximum_length, numeric_precision, numeric_scale, is_identity, identity_generation FROM information_schema.columns WHERE table_name = 'EMP' ORDER BY ordinal_position
----
ID | 1 | NULL | NO | bigint | NULL | 64 | 0 | YES | ALWAYS
DEPT_ID | 2 | NULL | YES | integer | NULL | 32 | 0 | NO | NULL
SALARY | 3 | 0.00 | YES | numeric | NULL | 10 | 2 | NO | NULL
BORN | 4 | NULL | YES | date | NULL | NULL | NULL | NO | NULL
TOKEN | 5 | gen_random_uuid() | YES | uuid | NULL | NULL | NULL | NO | NULL

query
SELECT c.table_name, count(*) FROM information_schema.columns c JOIN information_schema.tables t ON t.table_name = c.table_name GROUP BY c.table_name ORDER BY c.table_name
----
DEPT | 2
EMP | 5
RICH | 2

query
SELECT constraint_type, table_name FROM information_schema.table_constraints ORDER BY table_name, constraint_type
----
PRIMARY KEY | DEPT
UNIQUE | DEPT
CHECK | EMP
FOREIGN KEY | EMP
PRIMARY KEY | EMP

query
SELECT k.table_name, k.column_name, k.ordinal_position, k.position_in_unique_constraint FROM information_schema.key_column_usage k JOIN information_schema.table_constraints c ON c.constraint_name = k.constraint_name WHERE c.constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY') ORDER BY k.table_name, k.column_name
----
DEPT | ID | 1 | NULL
EMP | DEPT_ID | 1 | 1
EMP | ID | 1 | NULL

query
SELECT unique_constraint_name, update_rule, delete_rule FROM information_schema.referential_constraints
----
DEPT_PK | NO ACTION | CASCADE

query
SELECT check_clause FROM information_schema.check_constraints
----
salary >= 0

query
SELECT table_name, view_definition IS NOT NULL FROM information_schema.views
----
RICH | true

query
SELECT sequence_name, data_type, start_value, increment FROM information_schema.sequences WHERE sequence_name = 'TICKET'
----
TICKET | bigint | 10 | 5

statement error 42000
SELECT * FROM information_schema.nothing

statement error 0A000
INSERT INTO information_schema.tables VALUES ('a', 'b', 'c', 'd')
