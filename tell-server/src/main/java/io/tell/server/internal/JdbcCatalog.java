package io.tell.server.internal;

import io.tell.sql.ColumnDef;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.TableDef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The PostgreSQL JDBC driver's {@code DatabaseMetaData} queries answered from Tell's catalog:
 * getTables, getColumns (the raw pg_attribute rows the driver turns into its result itself),
 * getPrimaryKeys, getIndexInfo, getImportedKeys/getExportedKeys (and the max_index_keys setting
 * they read first), getSchemas, getCatalogs and the pg_type rows getTypeInfo reads. The name
 * filters come as {@code $n} parameters or as literals; both are read.
 */
final class JdbcCatalog {
    private JdbcCatalog() {
    }

    static List<PgColumn> columns(CatalogQuery q) {
        return switch (q.shape()) {
            case JDBC_TABLES -> CatalogAnswers.columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
                    "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
            case JDBC_COLUMNS -> CatalogAnswers.columns("current_database", "nspname", "relname", "attname", "atttypid:int4",
                    "attnotnull:bool", "atttypmod:int4", "attlen:int2", "typtypmod:int4", "attnum:int8", "attidentity",
                    "attgenerated", "adsrc", "description", "typbasetype:int4", "typtype");
            case JDBC_PRIMARY_KEYS -> CatalogAnswers.columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
                    "KEY_SEQ:int4", "PK_NAME");
            case JDBC_INDEX_INFO -> CatalogAnswers.columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE:bool",
                    "INDEX_QUALIFIER", "INDEX_NAME", "TYPE:int4", "ORDINAL_POSITION:int4", "COLUMN_NAME", "ASC_OR_DESC",
                    "CARDINALITY:float4", "PAGES:int4", "FILTER_CONDITION", "REMARKS");
            case JDBC_KEYS -> CatalogAnswers.columns("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
                    "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ:int4", "UPDATE_RULE:int4",
                    "DELETE_RULE:int4", "FK_NAME", "PK_NAME", "DEFERRABILITY:int4");
            case JDBC_INDEX_KEYS_SETTING -> CatalogAnswers.columns("setting");
            case JDBC_SCHEMAS -> CatalogAnswers.columns("TABLE_SCHEM", "TABLE_CATALOG");
            case JDBC_CATALOGS -> CatalogAnswers.columns("TABLE_CAT");
            case JDBC_FIELDS -> CatalogAnswers.columns("oid:int4", "attnum:int2", "attname", "relname", "nspname",
                    "attnotnull:bool", "autoincrement:bool");
            case JDBC_TYPES -> CatalogAnswers.columns("typname", "oid:int4");
            case JDBC_TYPE_KINDS -> CatalogAnswers.columns("is_array:bool", "typtype", "typname", "oid:int4");
            default -> throw new IllegalArgumentException(q.shape().name());
        };
    }

    static List<Object[]> rows(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        String db = view.database;
        return switch (q.shape()) {
            case JDBC_TABLES -> relations(q, view, parameters);
            case JDBC_COLUMNS -> columnRows(q, view, parameters);
            case JDBC_PRIMARY_KEYS -> tables(q, view, parameters, "ct.relname = ").stream().flatMap(t -> {
                List<String> pk = t.primaryKey();
                return IntStream.range(0, pk.size()).mapToObj(i -> new Object[] {db, PgCatalogView.schema(t.name()),
                        PgCatalogView.relation(t.name()), PgCatalogView.name(pk.get(i)), i + 1,
                        PgCatalogView.relation(t.name()) + "_pkey"});
            }).toList();
            case JDBC_INDEX_INFO -> indexRows(q, view, parameters);
            case JDBC_KEYS -> keyRows(q, view, parameters);
            case JDBC_INDEX_KEYS_SETTING -> List.<Object[]>of(new Object[] {"32"});
            case JDBC_SCHEMAS -> view.schemas().stream().map(n -> new Object[] {n, db}).toList();
            case JDBC_CATALOGS -> List.<Object[]>of(new Object[] {db});
            case JDBC_FIELDS -> fields(q, view);
            case JDBC_TYPES -> types(false);
            case JDBC_TYPE_KINDS -> types(true);
            default -> throw new IllegalArgumentException(q.shape().name());
        };
    }

    /** getTables: tables and indexes (the TABLE and INDEX types; no types given means all) by name pattern. */
    private static List<Object[]> relations(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        boolean anyType = !q.has("and (false");
        boolean tables = anyType || q.has("c.relkind = 'r' and n.nspname !~ '^pg_'");
        boolean indexes = anyType || q.has("c.relkind = 'i' and n.nspname !~ '^pg_'");
        Pattern name = CatalogQuery.like(q.argument("c.relname like ", parameters));
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : tables(q, view, parameters, true, null)) { // the name pattern is the table's or the index's
            if (tables && name.matcher(PgCatalogView.relation(t.name())).matches()) {
                out.add(relation(view, t, PgCatalogView.relation(t.name()), "TABLE"));
            }
            for (PgCatalogView.Index ix : indexes ? view.indexes(t) : List.<PgCatalogView.Index>of()) {
                if (name.matcher(ix.name()).matches()) {
                    out.add(relation(view, t, ix.name(), "INDEX"));
                }
            }
        }
        out.sort(Comparator.comparing((Object[] r) -> (String) r[3]).thenComparing(r -> (String) r[1])
                .thenComparing(r -> (String) r[2]));
        return out;
    }

    private static Object[] relation(PgCatalogView view, TableDef t, String name, String type) {
        return new Object[] {view.database, PgCatalogView.schema(t.name()), name, type, null, "", "", "", "", ""};
    }

    /**
     * The tables whose names match the comparison after {@code before}: LIKE (getTables, getColumns)
     * or = (the others), and so their schema's ({@code n.nspname LIKE} or {@code =}).
     */
    private static List<TableDef> tables(CatalogQuery q, PgCatalogView view, List<Object> parameters, String before) {
        return tables(q, view, parameters, before.contains("like"), before);
    }

    /** As above, but {@code before} null for no name filter. */
    private static List<TableDef> tables(CatalogQuery q, PgCatalogView view, List<Object> parameters, boolean like,
                                         String before) {
        String schema = q.argument(like ? "n.nspname like " : "n.nspname = ", parameters);
        Pattern s = like ? CatalogQuery.like(schema) : null;
        String name = before == null ? null : q.argument(before, parameters);
        Pattern p = like ? CatalogQuery.like(name) : null;
        return view.tables().stream().filter(t -> schema == null
                || (s != null ? s.matcher(PgCatalogView.schema(t.name())).matches()
                : PgCatalogView.schema(t.name()).equalsIgnoreCase(schema))).filter(t -> name == null
                || (p != null ? p.matcher(PgCatalogView.relation(t.name())).matches()
                : PgCatalogView.relation(t.name()).equalsIgnoreCase(name))).toList();
    }

    private static List<Object[]> columnRows(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        Pattern column = CatalogQuery.like(q.argument("attname like ", parameters));
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : tables(q, view, parameters, "c.relname like ")) {
            for (int i = 0; i < t.columns().size(); i++) {
                ColumnDef c = t.columns().get(i);
                String name = PgCatalogView.name(c.name());
                if (column.matcher(name).matches()) {
                    PgType type = PgCatalogView.type(c.type());
                    out.add(new Object[] {view.database, PgCatalogView.schema(t.name()), PgCatalogView.relation(t.name()), name, type.oid(),
                            !c.nullable(), PgCatalogView.typeModifier(c.type()), (short) type.size(), -1, (long) i + 1, null,
                            null, PgCatalogView.defaultExpression(c), null, 0, "b"});
                }
            }
        }
        return out;
    }

    private static List<Object[]> indexRows(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        boolean uniqueOnly = q.has("and i.indisunique");
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : tables(q, view, parameters, "ct.relname = ")) {
            for (PgCatalogView.Index ix : view.indexes(t)) {
                if (uniqueOnly && !ix.unique()) {
                    continue;
                }
                for (int i = 0; i < ix.columns().size(); i++) {
                    out.add(new Object[] {view.database, PgCatalogView.schema(t.name()), PgCatalogView.relation(t.name()), !ix.unique(),
                            null, ix.name(), 3, i + 1, PgCatalogView.name(ix.columns().get(i)), "A", 0f, 0, null, null});
                }
            }
        }
        out.sort(Comparator.comparing((Object[] r) -> (Boolean) r[3]).thenComparing(r -> (String) r[5])
                .thenComparing(r -> (Integer) r[7]));
        return out;
    }

    /** Imported keys (filtered by the referencing table, {@code fkc}) or exported ones (by the referenced, {@code pkc}). */
    private static List<Object[]> keyRows(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        String referencing = q.argument("fkc.relname = ", parameters);
        String referenced = q.argument("pkc.relname = ", parameters);
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : view.tables()) {
            String fkTable = PgCatalogView.relation(t.name());
            for (ForeignKeyDef fk : t.foreignKeys()) {
                String pkTable = PgCatalogView.relation(fk.refTable());
                if ((referencing != null && !referencing.equalsIgnoreCase(fkTable))
                        || (referenced != null && !referenced.equalsIgnoreCase(pkTable))) {
                    continue;
                }
                String pkName = view.table(fk.refTable()).flatMap(r -> view.keyIndex(r, fk.refColumns()))
                        .map(PgCatalogView.Index::name).orElse(null);
                for (int i = 0; i < fk.columns().size(); i++) {
                    out.add(new Object[] {view.database, PgCatalogView.schema(fk.refTable()), pkTable,
                            PgCatalogView.name(fk.refColumns().get(i)), view.database, PgCatalogView.schema(t.name()), fkTable,
                            PgCatalogView.name(fk.columns().get(i)), i + 1, fk.onUpdate().jdbcRule(), fk.onDelete().jdbcRule(),
                            PgCatalogView.relation(fk.name()), pkName,
                            java.sql.DatabaseMetaData.importedKeyNotDeferrable});
                }
            }
        }
        int table = q.has("order by fkn.nspname") ? 6 : 2; // exported keys sort by the referencing table
        out.sort(Comparator.comparing((Object[] r) -> (String) r[table]).thenComparing(r -> (String) r[11])
                .thenComparing(r -> (Integer) r[8]));
        return out;
    }

    /**
     * ResultSetMetaData's question about the columns RowDescription named by table OID and number,
     * listed as {@code JOIN (SELECT oid AS oid , n AS attnum UNION ALL SELECT oid, n …) vals}.
     */
    private static List<Object[]> fields(CatalogQuery q, PgCatalogView view) {
        String text = q.text();
        int from = text.indexOf("join (select ");
        int to = text.indexOf(") vals", from);
        List<Object[]> out = new ArrayList<>();
        if (from < 0 || to < 0) {
            return out;
        }
        for (String pair : text.substring(from + "join (select ".length(), to).split(" union all select ")) {
            String[] parts = pair.replace("as oid", "").replace("as attnum", "").split(",");
            long oid = Long.parseLong(parts[0].strip());
            int attnum = Integer.parseInt(parts[1].strip());
            view.tableByOid(oid).filter(t -> attnum >= 1 && attnum <= t.columns().size()).ifPresent(t -> {
                ColumnDef c = t.columns().get(attnum - 1);
                out.add(new Object[] {(int) oid, (short) attnum, PgCatalogView.name(c.name()), PgCatalogView.relation(t.name()),
                        PgCatalogView.schema(t.name()), !c.nullable(), false});
            });
        }
        return out;
    }

    private static List<Object[]> types(boolean kinds) {
        List<Object[]> out = new ArrayList<>();
        for (PgType t : PgType.values()) {
            String name = PgCatalogView.typeName(t);
            out.add(kinds ? new Object[] {false, "b", name, t.oid()} : new Object[] {name, t.oid()});
        }
        return out;
    }
}
