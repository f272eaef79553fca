# Scalar expressions and functions, three-valued logic, casts.

query
VALUES (1 + 2 * 3, 7 / 2, 7 % 3, -(4))
----
7 | 3 | 1 | -4

query
VALUES (UPPER('abc'), LOWER('AbC'), CHAR_LENGTH('hello'), SUBSTRING('hello' FROM 2 FOR 3), TRIM('  x  '), 'a' || 'b')
----
ABC | abc | 5 | ell | x | ab

query
VALUES (COALESCE(NULL, 2), NULLIF(3, 3), ABS(-5), CAST('42' AS INTEGER))
----
2 | NULL | 5 | 42

query
VALUES (EXTRACT(YEAR FROM DATE '2024-03-05'), EXTRACT(MONTH FROM DATE '2024-03-05'), CAST('2024-01-02' AS DATE))
----
2024 | 3 | 2024-01-02

query
VALUES (CASE WHEN CAST(NULL AS INTEGER) = 1 THEN 'yes' ELSE 'no' END, CASE WHEN 1 IS NOT NULL AND NOT (2 < 1) THEN 'ok' END)
----
no | ok

statement error 22012
VALUES (1 / 0)

statement error 22018
VALUES (CAST('x' AS INTEGER))
