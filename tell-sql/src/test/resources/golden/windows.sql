# Window functions: ROW_NUMBER, RANK, DENSE_RANK and aggregates OVER (PARTITION BY … ORDER BY …), with the
# frames SQL gives by default (results as PostgreSQL 15 gives them for the same rows).

statement ok
CREATE TABLE e (id INT PRIMARY KEY, dept VARCHAR(5), sal INT)

statement count 6
INSERT INTO e VALUES (1, 'a', 10), (2, 'a', 20), (3, 'a', 20), (4, 'b', 5), (5, 'b', NULL), (6, 'c', 7)

query
SELECT id, row_number() OVER (PARTITION BY dept ORDER BY sal DESC, id), rank() OVER (PARTITION BY dept ORDER BY sal), dense_rank() OVER (ORDER BY sal), sum(sal) OVER (PARTITION BY dept), sum(sal) OVER (PARTITION BY dept ORDER BY sal), count(*) OVER (ORDER BY sal ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), max(sal) OVER () FROM e ORDER BY id
----
1 | 3 | 1 | 3 | 50 | 10 | 3 | 20
2 | 1 | 2 | 4 | 50 | 50 | 4 | 20
3 | 2 | 2 | 4 | 50 | 50 | 5 | 20
4 | 2 | 1 | 1 | 5 | 5 | 1 | 20
5 | 1 | 2 | 5 | 5 | 5 | 6 | 20
6 | 1 | 1 | 2 | 7 | 7 | 2 | 20

# The first row of each group: a subquery over ROW_NUMBER.
query
SELECT dept, id FROM (SELECT dept, id, row_number() OVER (PARTITION BY dept ORDER BY sal DESC NULLS LAST, id) AS rn FROM e) AS t WHERE rn = 1 ORDER BY dept
----
a | 2
b | 4
c | 6

# A window over an aggregate's groups.
query
SELECT dept, SUM(sal), rank() OVER (ORDER BY SUM(sal) DESC) FROM e GROUP BY dept ORDER BY dept
----
a | 50 | 1
b | 5 | 3
c | 7 | 2

statement error 0A000 window frames that do not start at UNBOUNDED PRECEDING
SELECT sum(sal) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM e

# LAG, LEAD (with offset and default), FIRST_VALUE, LAST_VALUE (to the current row's last peer) and NTILE.
statement count 1
INSERT INTO e VALUES (7, 'a', 30)

query
SELECT id, lag(sal) OVER (PARTITION BY dept ORDER BY id), lead(sal, 2, -1) OVER (ORDER BY id), first_value(sal) OVER (PARTITION BY dept ORDER BY id), last_value(sal) OVER (PARTITION BY dept ORDER BY sal), ntile(3) OVER (ORDER BY id), ntile(2) OVER (PARTITION BY dept ORDER BY id) FROM e ORDER BY id
----
1 | NULL | 20 | 10 | 10 | 1 | 1
2 | 10 | 5 | 10 | 20 | 1 | 1
3 | 20 | NULL | 10 | 20 | 1 | 2
4 | NULL | 7 | 5 | 5 | 2 | 1
5 | 5 | 30 | 5 | NULL | 2 | 2
6 | NULL | -1 | 7 | 7 | 3 | 1
7 | 20 | -1 | 10 | 30 | 3 | 2

# PERCENT_RANK, CUME_DIST (peers count as one), NTH_VALUE within the frame.
query
SELECT id, percent_rank() OVER (PARTITION BY dept ORDER BY sal), cume_dist() OVER (ORDER BY sal), nth_value(sal, 2) OVER (PARTITION BY dept ORDER BY id), nth_value(id, 3) OVER (ORDER BY sal ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM e ORDER BY id
----
1 | 0.0 | 0.42857142857142855 | NULL | 1
2 | 0.3333333333333333 | 0.7142857142857143 | 20 | 1
3 | 0.3333333333333333 | 0.7142857142857143 | 20 | 1
4 | 0.0 | 0.14285714285714285 | NULL | NULL
5 | 1.0 | 1.0 | NULL | 1
6 | 0.0 | 0.2857142857142857 | NULL | NULL
7 | 1.0 | 0.8571428571428571 | 20 | 1
