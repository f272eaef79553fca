# Inner and outer joins, with and without indexes on the join keys.

statement ok
CREATE TABLE dept (id INTEGER PRIMARY KEY, name VARCHAR(10))

statement ok
CREATE TABLE emp (id INTEGER PRIMARY KEY, name VARCHAR(10), dept INTEGER, boss INTEGER)

statement ok
INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'hr')

statement ok
INSERT INTO emp VALUES (1, 'ada', 1, NULL), (2, 'bo', 1, 1), (3, 'cy', 2, 1), (4, 'di', NULL, 3)

query
SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept = d.id ORDER BY e.id
----
ada | eng
bo | eng
cy | ops

query
SELECT e.name, d.name FROM emp e, dept d WHERE e.dept = d.id AND d.name = 'eng' ORDER BY e.id
----
ada | eng
bo | eng

query
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON e.dept = d.id ORDER BY e.id
----
ada | eng
bo | eng
cy | ops
di | NULL

query
SELECT e.name, d.name FROM emp e RIGHT JOIN dept d ON e.dept = d.id ORDER BY d.id, e.id
----
ada | eng
bo | eng
cy | ops
NULL | hr

query sorted
SELECT e.name, d.name FROM emp e FULL JOIN dept d ON e.dept = d.id
----
NULL | hr
ada | eng
bo | eng
cy | ops
di | NULL

query
SELECT e.name, b.name FROM emp e JOIN emp b ON e.boss = b.id ORDER BY e.id
----
bo | ada
cy | ada
di | cy

query
SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept < d.id ORDER BY e.id, d.id
----
ada | ops
ada | hr
bo | ops
bo | hr
cy | hr

query
SELECT d.name, COUNT(e.id) FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.name ORDER BY d.name
----
eng | 2
hr | 0
ops | 1

query
SELECT a.name, b.name, c.name FROM emp a JOIN emp b ON b.boss = a.id JOIN dept c ON c.id = b.dept WHERE a.id = 1 ORDER BY b.id
----
ada | bo | eng
ada | cy | ops

# Projections reach the scans (only the columns used are decoded), through filters and joins.

query
SELECT e.name FROM emp e WHERE e.boss = 1 AND e.dept = 2
----
cy

query
EXPLAIN PLAN FOR SELECT e.name FROM emp e WHERE e.boss = 1 AND e.dept = 2
----
TellProject(NAME=[$0])
  TellFilter(condition=[AND(=($2, 1), =($1, 2))])
    TellTableScan(table=[[PUBLIC, EMP]], columns=[[NAME, DEPT, BOSS]])

# A join on an expression of the outer row's columns computes it below the join and looks it up
# in the inner table's primary key (the CH-benCHmark joins stock to supplier on
# MOD(S_W_ID * S_I_ID, 10000)).
query
SELECT e.name, d.name FROM emp e, dept d WHERE MOD(e.id * 3, 4) = d.id ORDER BY e.id
----
ada | hr
bo | ops
cy | eng

query
EXPLAIN PLAN FOR SELECT e.name, d.name FROM emp e, dept d WHERE MOD(e.id * 3, 4) = d.id ORDER BY e.id
----
TellProject(NAME=[$0], NAME1=[$1])
  TellSort(sort0=[$2], dir0=[ASC])
    TellProject(NAME=[$1], NAME0=[$4], ID=[$0])
      TellCorrelate(correlation=[$cor0], joinType=[inner], requiredColumns=[{2}])
        TellProject(ID=[$0], NAME=[$1], $f4=[MOD(*($0, 3), 4)])
          TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME]])
        TellIndexScan(table=[[PUBLIC, DEPT]], index=[PRIMARY KEY], key=[[$cor0.$f4]])

# A join with no index on either side is a hash join, not a nested loop that scans the inner
# table once per outer row (the nested loop's cost counts its inner side's best plan once per
# outer row).
query
SELECT e.name, f.name FROM emp e, emp f WHERE e.dept = f.boss ORDER BY e.id, f.id
----
ada | bo
ada | cy
bo | bo
bo | cy

query
EXPLAIN PLAN FOR SELECT e.name, f.name FROM emp e, emp f WHERE e.dept = f.boss ORDER BY e.id, f.id
----
TellProject(NAME=[$0], NAME1=[$1])
  TellSort(sort0=[$2], sort1=[$3], dir0=[ASC], dir1=[ASC])
    TellProject(NAME=[$1], NAME0=[$4], ID=[$0], ID0=[$3])
      TellJoin(condition=[=($2, $5)], joinType=[inner])
        TellProject(ID=[$0], NAME=[$1], DEPT=[$2])
          TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME, DEPT]])
        TellProject(ID=[$0], NAME=[$1], BOSS=[$2])
          TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME, BOSS]])

# An equi-join on an expression is a hash join too: the expression is computed below the join
# (f.boss + 1 as a column of f), so it is a key, not a condition tried on every pair.
query
SELECT e.name, f.name FROM emp e, emp f WHERE e.dept = f.boss + 1 ORDER BY e.id, f.id
----
cy | bo
cy | cy

query
EXPLAIN PLAN FOR SELECT e.name, f.name FROM emp e, emp f WHERE e.dept = f.boss + 1 ORDER BY e.id, f.id
----
TellProject(NAME=[$0], NAME1=[$1])
  TellSort(sort0=[$2], sort1=[$3], dir0=[ASC], dir1=[ASC])
    TellProject(NAME=[$1], NAME0=[$4], ID=[$0], ID0=[$3])
      TellJoin(condition=[=($2, $5)], joinType=[inner])
        TellProject(ID=[$0], NAME=[$1], DEPT=[$2])
          TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME, DEPT]])
        TellProject(ID=[$0], NAME=[$1], $f4=[+($2, 1)])
          TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME, BOSS]])

# A comma join written so that its first two tables have no condition between them is joined
# in another order (JoinOrder): each next table one that a condition connects, never a cross
# product that a later condition could have avoided (here no equality links e and f, so
# nothing else can infer one; written order gave TellJoin(condition=[true]) of EMP and EMP).
query
SELECT e.name, f.name FROM emp e, emp f, dept d WHERE e.dept = d.id AND f.id > d.id AND d.name = 'ops' ORDER BY e.id, f.id
----
cy | cy
cy | di

query
EXPLAIN PLAN FOR SELECT e.name, f.name FROM emp e, emp f, dept d WHERE e.dept = d.id AND f.id > d.id AND d.name = 'ops' ORDER BY e.id, f.id
----
TellProject(NAME=[$0], NAME1=[$1])
  TellSort(sort0=[$2], sort1=[$3], dir0=[ASC], dir1=[ASC])
    TellProject(NAME=[$1], NAME0=[$6], ID=[$0], ID0=[$5])
      TellCorrelate(correlation=[$cor1], joinType=[inner], requiredColumns=[{3}])
        TellCorrelate(correlation=[$cor0], joinType=[inner], requiredColumns=[{2}])
          TellProject(ID=[$0], NAME=[$1], DEPT=[$2])
            TellTableScan(table=[[PUBLIC, EMP]], columns=[[ID, NAME, DEPT]])
          TellFilter(condition=[=($1, 'ops')])
            TellIndexScan(table=[[PUBLIC, DEPT]], index=[PRIMARY KEY], key=[[$cor0.DEPT]])
        TellProject(ID=[$0], NAME=[$1])
          TellIndexScan(table=[[PUBLIC, EMP]], index=[PRIMARY KEY], after=[$cor1.ID0], columns=[[ID, NAME]])

# A join written as a disjunction whose every branch repeats the join's equality (TPC-H and
# CH-benCHmark Q19; generated SQL): the equality is pulled out of the OR and becomes the join's
# key, and what the branches ask of each table alone filters that table first (Disjunctions).
# Before, this was a nested loop over the cross product.
statement ok
CREATE TABLE part (id INTEGER PRIMARY KEY, kind VARCHAR(5), price INTEGER)

statement ok
CREATE TABLE line (id INTEGER PRIMARY KEY, part INTEGER, qty INTEGER, wh INTEGER)

statement ok
INSERT INTO part VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, NULL, 40)

statement ok
INSERT INTO line VALUES (1, 1, 3, 1), (2, 1, 9, 2), (3, 2, 4, 3), (4, 2, 9, 1), (5, 3, 1, 1), (6, NULL, 2, 1), (7, 4, 9, 2), (8, 5, 1, 1)

query
SELECT l.id, p.id FROM line l, part p WHERE (l.part = p.id AND p.kind = 'a' AND l.qty <= 5) OR (l.part = p.id AND p.kind = 'b' AND l.wh IN (1, 2)) ORDER BY l.id
----
1 | 1
4 | 2

query
EXPLAIN PLAN FOR SELECT l.id, p.id FROM line l, part p WHERE (l.part = p.id AND p.kind = 'a' AND l.qty <= 5) OR (l.part = p.id AND p.kind = 'b' AND l.wh IN (1, 2)) ORDER BY l.id
----
TellSort(sort0=[$0], dir0=[ASC])
  TellProject(ID=[$0], ID0=[$4])
    TellCorrelate(correlation=[$cor0], joinType=[inner], requiredColumns=[{1, 2, 3}])
      TellFilter(condition=[OR(<=($2, 5), =($3, 1), =($3, 2))])
        TellTableScan(table=[[PUBLIC, LINE]])
      TellProject(ID=[$0], KIND=[$1])
        TellFilter(condition=[AND(OR(=($1, 'a'), =($1, 'b')), OR(AND(=($1, 'a'), <=($cor0.QTY, 5)), AND(=($1, 'b'), OR(=($cor0.WH, 1), =($cor0.WH, 2)))))])
          TellIndexScan(table=[[PUBLIC, PART]], index=[PRIMARY KEY], key=[[$cor0.PART]], columns=[[ID, KIND]])

# A branch that asks nothing of a table implies nothing for it: only the equality is pulled out.
query
SELECT l.id, p.kind FROM line l, part p WHERE (l.part = p.id AND p.kind = 'a') OR (l.part = p.id AND l.qty > 8) ORDER BY l.id
----
1 | a
2 | a
4 | b
7 | NULL

query
SELECT l.id, p.kind FROM line l LEFT JOIN part p ON (l.part = p.id AND p.kind = 'a') OR (l.part = p.id AND p.price > 25) ORDER BY l.id
----
1 | a
2 | a
3 | NULL
4 | NULL
5 | c
6 | NULL
7 | NULL
8 | NULL

# No equality to pull out: each table is still filtered by what the branches ask of it.
query
SELECT l.id, p.id FROM line l, part p WHERE (p.kind = 'a' AND l.qty = 3) OR (p.kind = 'c' AND l.qty = 1) ORDER BY l.id, p.id
----
1 | 1
5 | 3
8 | 3

query
EXPLAIN PLAN FOR SELECT l.id, p.id FROM line l, part p WHERE (p.kind = 'a' AND l.qty = 3) OR (p.kind = 'c' AND l.qty = 1) ORDER BY l.id, p.id
----
TellSort(sort0=[$0], sort1=[$1], dir0=[ASC], dir1=[ASC])
  TellProject(ID=[$0], ID0=[$2])
    TellJoin(condition=[OR(AND(=($3, 'a'), =($1, 3)), AND(=($3, 'c'), =($1, 1)))], joinType=[inner])
      TellProject(ID=[$0], QTY=[$1])
        TellFilter(condition=[SEARCH($1, Sarg[1, 3])])
          TellTableScan(table=[[PUBLIC, LINE]], columns=[[ID, QTY]])
      TellProject(ID=[$0], KIND=[$1])
        TellFilter(condition=[SEARCH($1, Sarg['a':VARCHAR(5) CHARACTER SET "UTF-8", 'c':VARCHAR(5) CHARACTER SET "UTF-8"]:VARCHAR(5) CHARACTER SET "UTF-8")])
          TellTableScan(table=[[PUBLIC, PART]], columns=[[ID, KIND]])
