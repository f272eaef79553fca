"""A psycopg2 program against a PN server (PgPythonIT runs it): a transaction with %s parameters,
a rolled-back one, rows read back and checked, and bytea, uuid and time values. Usage:
psycopg2_client.py PORT; prints OK."""
import datetime
import decimal
import sys
import uuid

import psycopg2
import psycopg2.extras

psycopg2.extras.register_uuid()

D = decimal.Decimal
conn = psycopg2.connect(host="127.0.0.1", port=int(sys.argv[1]), user="tell", dbname="tell",
                        application_name="psycopg2-test")
cur = conn.cursor()
cur.execute("CREATE TABLE py_account (id INTEGER PRIMARY KEY, owner VARCHAR(40) NOT NULL,"
            " balance DECIMAL(12,2), opened DATE, seen TIMESTAMP, active BOOLEAN, score DOUBLE)")
conn.commit()

rows = [(1, "Ann", D("100.50"), datetime.date(2024, 5, 6), datetime.datetime(2024, 5, 6, 7, 8, 9, 123000), True, 1.5),
        (2, "O'Brien \\ Sons", D("20.00"), None, None, False, None)]
cur.executemany("INSERT INTO py_account (id, owner, balance, opened, seen, active, score)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)", rows)
cur.execute("UPDATE py_account SET balance = balance - %s WHERE id = %s", (D("10.25"), 1))
cur.execute("UPDATE py_account SET balance = balance + %(amount)s WHERE id = %(id)s", {"amount": D("10.25"), "id": 2})
conn.commit()

cur.execute("DELETE FROM py_account WHERE id = %s", (1,))
assert cur.rowcount == 1, cur.rowcount
conn.rollback()

conn.set_session(isolation_level="SERIALIZABLE")
cur.execute("SELECT id, owner, balance, opened, seen, active, score FROM py_account WHERE balance > %s ORDER BY id",
            (D("0"),))
got = cur.fetchall()
expected = [(1, "Ann", D("90.25"), datetime.date(2024, 5, 6), datetime.datetime(2024, 5, 6, 7, 8, 9, 123000), True, 1.5),
            (2, "O'Brien \\ Sons", D("30.25"), None, None, False, None)]
assert got == expected, got
# Tell folds unquoted names to upper case, so the labels are ID, OWNER…; the types are PostgreSQL's OIDs
assert [d.name.lower() for d in cur.description] == ["id", "owner", "balance", "opened", "seen", "active", "score"]
assert [d.type_code for d in cur.description] == [23, 1043, 1700, 1082, 1114, 16, 701], cur.description
conn.commit()

# bytes, UUIDs and times: psycopg2 inlines them as '\\x…'::bytea, '…'::uuid and '…'::time
cur.execute("CREATE TABLE py_file (id UUID PRIMARY KEY, body BYTEA, due TIME)")
files = [(uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), bytes(range(256)), datetime.time(9, 30, 15, 250000)),
         (uuid.UUID("00000000-0000-0000-0000-000000000001"), b"", None)]
cur.executemany("INSERT INTO py_file VALUES (%s, %s, %s)", files)
conn.commit()
cur.execute("SELECT id, body, due FROM py_file WHERE id = %s", (files[0][0],))
fid, body, due = cur.fetchone()
assert (fid, bytes(body), due) == files[0], (fid, body, due)
assert [d.type_code for d in cur.description] == [2950, 17, 1083], cur.description
cur.execute("SELECT id FROM py_file ORDER BY id")
assert [r[0] for r in cur.fetchall()] == [files[1][0], files[0][0]]
conn.commit()

conn.autocommit = True
cur.execute("SHOW DateStyle")
assert cur.fetchone()[0].startswith("ISO"), "DateStyle"
cur.execute("SELECT count(*) FROM py_account WHERE owner LIKE %s", ("O'%",))
assert cur.fetchone()[0] == 1
conn.close()
print("OK", len(got), "rows")
