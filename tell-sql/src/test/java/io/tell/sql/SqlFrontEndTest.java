package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStores;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Parsing and validation against the catalog in the store, with positioned errors. */
class SqlFrontEndTest {
    private static SqlFrontEnd sql;

    @BeforeAll
    static void catalog() {
        Catalog catalog = new Catalog(RecordStores.open("mem:"));
        catalog.createTable(TableSpec.builder("CUSTOMER")
                .notNull("C_ID", ColumnType.INTEGER)
                .notNull("C_LAST", ColumnType.varchar(16))
                .column("C_BALANCE", ColumnType.decimal(12, 2))
                .column("C_SINCE", ColumnType.TIMESTAMP)
                .primaryKey("C_ID").build(), false);
        catalog.createTable(TableSpec.builder("ORDERS")
                .notNull("O_ID", ColumnType.BIGINT)
                .notNull("O_C_ID", ColumnType.INTEGER)
                .column("O_ENTRY_D", ColumnType.DATE)
                .primaryKey("O_ID").build(), false);
        sql = new SqlFrontEnd(catalog.snapshot(), SchemaPath.DEFAULT);
    }

    private static TellException failure(String text) {
        return assertThrows(TellException.class, () -> sql.validate(text), text);
    }

    @Test
    void queriesValidateWithRowAndParameterTypes() {
        SqlFrontEnd.Validated v = sql.validate("select c_last, c_balance from customer where c_id = ?");
        assertEquals("[C_LAST, C_BALANCE]", v.rowType().getFieldNames().toString());
        assertSame(SqlTypeName.DECIMAL, v.rowType().getFieldList().get(1).getType().getSqlTypeName());
        assertEquals(1, v.parameterTypes().getFieldCount());
        assertSame(SqlTypeName.INTEGER, v.parameterTypes().getFieldList().get(0).getType().getSqlTypeName());
    }

    @Test
    void theUsualStatementFormsValidate() {
        for (String text : new String[] {
                "select c.c_last, count(distinct o.o_id) from customer c left join orders o on o.o_c_id = c.c_id "
                        + "group by c.c_last having count(*) > 1 order by 2 desc limit 10 offset 5",
                "select * from customer where c_id in (select o_c_id from orders) union all select * from customer",
                "select case when c_balance > 0 then 'credit' else 'debit' end from customer fetch first 3 rows only",
                "insert into orders (o_id, o_c_id, o_entry_d) values (?, ?, current_date)",
                "update customer set c_balance = c_balance - ? where c_id = ?",
                "delete from orders where o_id between 1 and 100",
                "explain plan for select * from orders"}) {
            sql.validate(text);
        }
    }

    @Test
    void syntaxErrorsSayWhere() {
        TellException e = failure("select c_last fromm customer");
        assertSame(ErrorCode.SQL_SYNTAX, e.code());
        assertEquals("42601", SqlStates.of(e.code()));
        assertTrue(e.getMessage().contains("line 1, column"), e.getMessage());
    }

    @Test
    void unknownTablesAndColumnsSayWhere() {
        TellException table = failure("select * from nosuch");
        assertSame(ErrorCode.SQL_INVALID, table.code());
        assertTrue(table.getMessage().contains("NOSUCH") && table.getMessage().contains("line 1, column 15"), table.getMessage());
        TellException column = failure("select c_lastt from customer");
        assertTrue(column.getMessage().contains("C_LASTT") && column.getMessage().contains("column 8"), column.getMessage());
        assertEquals("42000", SqlStates.of(column.code()));
    }

    @Test
    void quotedIdentifiersKeepTheirCase() {
        TellException e = failure("select \"c_last\" from customer");
        assertSame(ErrorCode.SQL_INVALID, e.code());
        sql.validate("select \"C_LAST\" from \"CUSTOMER\"");
    }

    @Test
    void notNullAndTypesComeFromTheCatalog() {
        SqlFrontEnd.Validated v = sql.validate("select c_id, c_balance, c_since from customer");
        assertTrue(!v.rowType().getFieldList().get(0).getType().isNullable());
        assertTrue(v.rowType().getFieldList().get(1).getType().isNullable());
        assertEquals(12, v.rowType().getFieldList().get(1).getType().getPrecision());
        assertEquals(2, v.rowType().getFieldList().get(1).getType().getScale());
        assertSame(SqlTypeName.TIMESTAMP, v.rowType().getFieldList().get(2).getType().getSqlTypeName());
    }
}
