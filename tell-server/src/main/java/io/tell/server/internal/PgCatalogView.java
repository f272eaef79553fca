package io.tell.server.internal;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.IndexDef;
import io.tell.sql.Names;
import io.tell.sql.SchemaPath;
import io.tell.sql.TableDef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Tell's catalog as PostgreSQL's catalogs would show it: every table in its schema (PUBLIC as {@code public}),
 * names folded to lower case as PostgreSQL folds unquoted identifiers (Tell folds to upper case),
 * the primary key as an index {@code <table>_pkey}, and stable OIDs derived from definition ids:
 * a table is {@code 16384 + 1024 * id}, its primary key index that plus 1, and each other index
 * that plus 2 plus the number its B+tree carries ({@code <rows>.i<n>}), which never changes.
 */
final class PgCatalogView {
    static final String OWNER = "tell";
    private static final int FIRST_OID = 16384;
    private static final int OIDS_PER_TABLE = 1024;

    /** An index as PostgreSQL lists it: the primary key's or one of {@link TableDef#indexes()}. */
    record Index(TableDef table, String name, int oid, List<String> columns, boolean primary, boolean unique,
                 boolean constraint) {
    }

    private final CatalogSnapshot snapshot;
    final String database;
    private final SchemaPath path;

    PgCatalogView(CatalogSnapshot snapshot, String database, SchemaPath path) {
        this.snapshot = snapshot;
        this.database = database;
        this.path = path;
    }

    /** current_schema(): the first schema of the session's path that exists, null when none does. */
    String currentSchema() {
        return path.schemas().stream().filter(snapshot::hasSchema).findFirst().map(PgCatalogView::name).orElse(null);
    }

    /** pg_table_is_visible: whether the session finds the table by its bare name (its schema comes first in the path). */
    boolean visible(TableDef t) {
        return path.relation(snapshot, Names.local(t.name())).equals(t.name());
    }

    List<TableDef> tables() {
        return snapshot.tables().stream().sorted(Comparator.comparing((TableDef t) -> schema(t.name()))
                .thenComparing(t -> relation(t.name()))).toList();
    }

    Optional<TableDef> tableByOid(long oid) {
        return snapshot.tables().stream().filter(t -> oid(t) == oid).findFirst();
    }

    Optional<Index> indexByOid(long oid) {
        return snapshot.tables().stream().flatMap(t -> indexes(t).stream()).filter(i -> i.oid() == oid).findFirst();
    }

    Optional<TableDef> table(String name) {
        return snapshot.table(name.toUpperCase(Locale.ROOT)).or(() -> snapshot.table(name));
    }

    /** The schema of a relation (by catalog name) as PostgreSQL would show it. */
    static String schema(String catalogName) {
        return name(Names.schemaOf(catalogName));
    }

    /** A relation's, index's or constraint's own name (its catalog name without the schema) as PostgreSQL would show it. */
    static String relation(String catalogName) {
        return name(Names.local(catalogName));
    }

    /** Every schema, as PostgreSQL would show them. */
    List<String> schemas() {
        return snapshot.schemas().stream().map(PgCatalogView::name).sorted().toList();
    }

    /** A Tell name as PostgreSQL would show it: upper-case (unquoted) names in lower case, others as they are. */
    static String name(String tellName) {
        return tellName.equals(tellName.toUpperCase(Locale.ROOT)) ? tellName.toLowerCase(Locale.ROOT) : tellName;
    }

    static int oid(TableDef t) {
        return Math.toIntExact(FIRST_OID + OIDS_PER_TABLE * t.id());
    }

    List<Index> indexes(TableDef t) {
        List<Index> out = new ArrayList<>();
        if (!t.primaryKey().isEmpty()) {
            out.add(new Index(t, relation(t.name()) + "_pkey", oid(t) + 1, t.primaryKey(), true, true, true));
        }
        for (IndexDef ix : t.indexes()) {
            String tree = ix.treeName();
            int no = Integer.parseInt(tree.substring(tree.lastIndexOf(".i") + 2));
            out.add(new Index(t, relation(ix.name()), oid(t) + 2 + no % (OIDS_PER_TABLE - 2), ix.columns(), false, ix.unique(),
                    ix.constraint()));
        }
        return out;
    }

    /** The index whose columns a foreign key's referenced columns are (the primary key, or a unique one). */
    Optional<Index> keyIndex(TableDef t, List<String> columns) {
        return indexes(t).stream().filter(i -> i.unique() && i.columns().equals(columns)).findFirst();
    }

    static String columnList(List<String> columns) {
        return String.join(", ", columns.stream().map(PgCatalogView::name).toList());
    }

    /** pg_get_indexdef's text. */
    static String indexDefinition(Index i) {
        return "CREATE " + (i.unique() ? "UNIQUE " : "") + "INDEX " + i.name() + " ON " + schema(i.table().name()) + "."
                + relation(i.table().name()) + " USING btree (" + columnList(i.columns()) + ")";
    }

    /** pg_get_constraintdef's text for a primary key or UNIQUE constraint; null for a plain index. */
    static String constraintDefinition(Index i) {
        if (i.primary()) {
            return "PRIMARY KEY (" + columnList(i.columns()) + ")";
        }
        return i.constraint() ? "UNIQUE (" + columnList(i.columns()) + ")" : null;
    }

    /** The PostgreSQL type a column has. */
    static PgType type(ColumnType t) {
        return switch (t.type()) {
            case SMALLINT -> PgType.INT2;
            case INTEGER -> PgType.INT4;
            case BIGINT -> PgType.INT8;
            case DECIMAL -> PgType.NUMERIC;
            case REAL -> PgType.FLOAT4;
            case DOUBLE -> PgType.FLOAT8;
            case BOOLEAN -> PgType.BOOL;
            case VARCHAR -> PgType.VARCHAR;
            case CHAR -> PgType.BPCHAR;
            case DATE -> PgType.DATE;
            case TIMESTAMP -> PgType.TIMESTAMP;
            case TIME -> PgType.TIME;
            case VARBINARY -> PgType.BYTEA;
            case UUID -> PgType.UUID;
            case TIMESTAMPTZ -> PgType.TIMESTAMPTZ;
        };
    }

    /** pg_attribute.atttypmod. */
    static int typeModifier(ColumnType t) {
        return switch (t.type()) {
            case VARCHAR, CHAR -> t.length() + 4;
            case DECIMAL -> ((t.precision() << 16) | t.scale()) + 4;
            default -> -1;
        };
    }

    /** pg_type.typname. */
    static String typeName(PgType t) {
        return t.name().toLowerCase(Locale.ROOT);
    }

    /** format_type's text, as psql shows it. */
    static String formatType(ColumnType t) {
        return switch (t.type()) {
            case SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DECIMAL -> "numeric(" + t.precision() + "," + t.scale() + ")";
            case REAL -> "real";
            case DOUBLE -> "double precision";
            case BOOLEAN -> "boolean";
            case VARCHAR -> "character varying(" + t.length() + ")";
            case CHAR -> "character(" + t.length() + ")";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp without time zone";
            case TIME -> "time without time zone";
            case VARBINARY -> "bytea";
            case UUID -> "uuid";
            case TIMESTAMPTZ -> "timestamp with time zone";
        };
    }

    /** pg_get_expr of a column's default: numbers and booleans plain, other values as quoted literals. */
    static String defaultExpression(ColumnDef c) {
        if (c.defaultFunction() != null) {
            return c.defaultFunctionSql();
        }
        Object v = c.defaultValue();
        if (v == null) {
            return null;
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v instanceof Boolean b ? b.toString() : TextValues.format(v);
        }
        return "'" + TextValues.format(v).replace("'", "''") + "'::" + formatType(c.type()).replaceAll("\\(.*", "");
    }
}
