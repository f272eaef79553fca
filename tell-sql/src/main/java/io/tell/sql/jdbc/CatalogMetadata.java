package io.tell.sql.jdbc;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.Names;
import io.tell.sql.SequenceDef;
import io.tell.sql.SqlType;
import io.tell.sql.TableDef;
import io.tell.sql.ViewDef;
import java.math.BigDecimal;
import java.sql.DatabaseMetaData;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.function.Predicate;

/**
 * The {@link DatabaseMetaData} results that describe the catalog, computed from one
 * {@link CatalogSnapshot}. Relations are in their schemas (TABLE_SCHEM) and in no catalog
 * (TABLE_CAT null), so a catalog argument matches only when null or empty. The
 * primary key, which the catalog does not name, is reported as {@code <TABLE>_PK}, after the
 * catalog's own {@code <TABLE>_UNIQUE_n} and {@code <TABLE>_FK_n} names. Foreign keys report their
 * ON UPDATE / ON DELETE rules.
 */
final class CatalogMetadata {
    private static final String[] KEY_COLUMNS = {"PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
            "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ:SMALLINT", "UPDATE_RULE:SMALLINT",
            "DELETE_RULE:SMALLINT", "FK_NAME", "PK_NAME", "DEFERRABILITY:SMALLINT"};

    private final CatalogSnapshot catalog;

    CatalogMetadata(CatalogSnapshot catalog) {
        this.catalog = catalog;
    }

    /** Tables whose catalog, schema and name match (patterns for schema and name). */
    private List<TableDef> tables(String catalogName, String schemaPattern, String tablePattern) {
        Predicate<String> wanted = named(catalogName, schemaPattern, tablePattern);
        return catalog.tables().stream().filter(t -> wanted.test(t.name())).toList();
    }

    /** Which catalog names a catalog, a schema pattern and a name pattern select. */
    private static Predicate<String> named(String catalogName, String schemaPattern, String namePattern) {
        NamePattern schemas = NamePattern.of(schemaPattern);
        NamePattern names = NamePattern.of(namePattern);
        return n -> inCatalog(catalogName) && schemas.matches(Names.schemaOf(n)) && names.matches(Names.local(n));
    }

    /** The tables named exactly {@code table} when catalog and schema (exact names, null for any schema) fit. */
    private List<TableDef> table(String catalogName, String schema, String table) {
        if (!inCatalog(catalogName) || table == null) {
            return List.of();
        }
        return catalog.tables().stream().filter(t -> Names.local(t.name()).equals(table)
                && (schema == null || Names.schemaOf(t.name()).equals(schema))).toList();
    }

    private static boolean inCatalog(String catalogName) {
        return catalogName == null || catalogName.isEmpty();
    }

    /** The schemas of the catalog (those of relations; INFORMATION_SCHEMA is not listed). */
    MetadataTable schemas(String catalogName, String schemaPattern) {
        MetadataTable out = new MetadataTable("TABLE_SCHEM", "TABLE_CATALOG");
        NamePattern schemas = NamePattern.of(schemaPattern);
        catalog.schemas().stream().filter(s -> inCatalog(catalogName) && schemas.matches(s)).forEach(s -> out.add(s, null));
        return out;
    }

    MetadataTable tables(String catalogName, String schemaPattern, String tablePattern, String[] types) {
        MetadataTable out = new MetadataTable("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
                "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
        Predicate<String> names = named(catalogName, schemaPattern, tablePattern);
        Predicate<String> wanted = type -> types == null || List.of(types).contains(type);
        if (wanted.test("SEQUENCE")) {
            catalog.sequences().stream().map(SequenceDef::name).filter(names).forEach(n -> addRelation(out, n, "SEQUENCE"));
        }
        if (wanted.test("TABLE")) {
            catalog.tables().stream().map(TableDef::name).filter(names).forEach(n -> addRelation(out, n, "TABLE"));
        }
        if (wanted.test("VIEW")) {
            catalog.views().stream().map(ViewDef::name).filter(names).forEach(n -> addRelation(out, n, "VIEW"));
        }
        return out.sortBy("TABLE_TYPE", "TABLE_SCHEM", "TABLE_NAME");
    }

    private static void addRelation(MetadataTable out, String name, String type) {
        out.add(null, Names.schemaOf(name), Names.local(name), type, null, null, null, null, null, null);
    }

    MetadataTable columns(String catalogName, String schemaPattern, String tablePattern, String columnPattern) {
        MetadataTable out = new MetadataTable("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE:INTEGER",
                "TYPE_NAME", "COLUMN_SIZE:INTEGER", "BUFFER_LENGTH:INTEGER", "DECIMAL_DIGITS:INTEGER", "NUM_PREC_RADIX:INTEGER",
                "NULLABLE:INTEGER", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE:INTEGER", "SQL_DATETIME_SUB:INTEGER",
                "CHAR_OCTET_LENGTH:INTEGER", "ORDINAL_POSITION:INTEGER", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA",
                "SCOPE_TABLE", "SOURCE_DATA_TYPE:SMALLINT", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN");
        NamePattern names = NamePattern.of(columnPattern);
        java.util.TreeMap<String, List<ColumnDef>> relations = new java.util.TreeMap<>();
        for (TableDef t : tables(catalogName, schemaPattern, tablePattern)) {
            relations.put(t.name(), t.columns());
        }
        Predicate<String> viewNames = named(catalogName, schemaPattern, tablePattern);
        catalog.views().stream().filter(v -> viewNames.test(v.name())).forEach(v -> relations.put(v.name(), v.columns()));
        for (var relation : relations.entrySet()) {
            for (int i = 0; i < relation.getValue().size(); i++) {
                ColumnDef c = relation.getValue().get(i);
                if (!names.matches(c.name())) {
                    continue;
                }
                ColumnType type = c.type();
                boolean text = type.type() == SqlType.VARCHAR || type.type() == SqlType.CHAR;
                out.add(null, Names.schemaOf(relation.getKey()), Names.local(relation.getKey()), c.name(), JdbcTypes.jdbcType(type.type()), type.type().name(),
                        JdbcTypes.columnSize(type), null, JdbcTypes.decimalDigits(type), JdbcTypes.radix(type.type()),
                        c.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls, null,
                        columnDefault(c), null, null, text ? 4 * type.length() : null, i + 1,
                        c.nullable() ? "YES" : "NO", null, null, null, null, c.sequence() != null ? "YES" : "NO", "NO");
            }
        }
        return out.sortBy("TABLE_SCHEM", "TABLE_NAME", "ORDINAL_POSITION");
    }

    /** COLUMN_DEF: the default's SQL text; none for identity columns, whose values are generated. */
    private static String columnDefault(ColumnDef c) {
        if (c.defaultFunction() != null) {
            return c.defaultFunctionSql();
        }
        if (c.sequence() != null) {
            return c.identity() == ColumnDef.Identity.NONE ? "nextval('" + Names.shown(c.sequence()) + "')" : null;
        }
        return literal(c.defaultValue());
    }

    /** A column default as SQL text (COLUMN_DEF): strings and UUIDs quoted, dates and times as typed literals, bytes as X'…'. */
    static String literal(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> "'" + s.replace("'", "''") + "'";
            case BigDecimal d -> d.toPlainString();
            case Boolean b -> b ? "TRUE" : "FALSE";
            case LocalDate d -> "DATE '" + d + "'";
            case LocalDateTime t -> "TIMESTAMP '" + DateTimes.format(t) + "'";
            case LocalTime t -> "TIME '" + DateTimes.format(t) + "'";
            case java.time.OffsetDateTime t -> "TIMESTAMP WITH TIME ZONE '" + io.tell.sql.exec.Values.formatInstant(t) + "'";
            case byte[] b -> "X'" + java.util.HexFormat.of().formatHex(b) + "'";
            case java.util.UUID u -> "'" + u + "'";
            default -> value.toString();
        };
    }

    MetadataTable primaryKeys(String catalogName, String schema, String table) {
        MetadataTable out = new MetadataTable("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ:SMALLINT",
                "PK_NAME");
        for (TableDef t : table(catalogName, schema, table)) {
            for (int i = 0; i < t.primaryKey().size(); i++) {
                out.add(null, Names.schemaOf(t.name()), Names.local(t.name()), t.primaryKey().get(i), i + 1,
                        Names.local(t.primaryKeyName()));
            }
        }
        return out.sortBy("COLUMN_NAME");
    }


    /** The primary-key index (unique), then UNIQUE constraints and secondary indexes; all B+trees, ascending. */
    MetadataTable indexInfo(String catalogName, String schema, String table, boolean unique) {
        MetadataTable out = new MetadataTable("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE:BOOLEAN",
                "INDEX_QUALIFIER", "INDEX_NAME", "TYPE:SMALLINT", "ORDINAL_POSITION:SMALLINT", "COLUMN_NAME", "ASC_OR_DESC",
                "CARDINALITY:BIGINT", "PAGES:BIGINT", "FILTER_CONDITION");
        for (TableDef t : table(catalogName, schema, table)) {
            addIndex(out, t, t.primaryKeyName(), t.primaryKey(), true, List.of());
            for (IndexDef ix : t.indexes()) {
                if ((ix.unique() || !unique) && !ix.writeOnly()) {
                    addIndex(out, t, ix.name(), ix.columns(), ix.unique(), ix.descending());
                }
            }
        }
        return out.sortBy("NON_UNIQUE", "TYPE", "INDEX_NAME", "ORDINAL_POSITION");
    }

    private static void addIndex(MetadataTable out, TableDef t, String name, List<String> columns, boolean unique,
                                 List<String> descending) {
        for (int i = 0; i < columns.size(); i++) {
            out.add(null, Names.schemaOf(t.name()), Names.local(t.name()), !unique, null, Names.local(name),
                    DatabaseMetaData.tableIndexOther, i + 1, columns.get(i),
                    descending.contains(columns.get(i)) ? "D" : "A", null, null, null);
        }
    }

    /** Foreign keys of {@code table}, by the table they reference. */
    MetadataTable importedKeys(String catalogName, String schema, String table) {
        MetadataTable out = new MetadataTable(KEY_COLUMNS);
        for (TableDef t : table(catalogName, schema, table)) {
            addKeys(out, t, fk -> true);
        }
        return out.sortBy("PKTABLE_SCHEM", "PKTABLE_NAME", "KEY_SEQ", "FK_NAME");
    }

    /** Foreign keys that reference {@code table}, by the table that has them. */
    MetadataTable exportedKeys(String catalogName, String schema, String table) {
        MetadataTable out = new MetadataTable(KEY_COLUMNS);
        for (TableDef parent : table(catalogName, schema, table)) {
            for (TableDef t : catalog.tables()) {
                addKeys(out, t, fk -> fk.refTable().equals(parent.name()));
            }
        }
        return out.sortBy("FKTABLE_SCHEM", "FKTABLE_NAME", "KEY_SEQ", "FK_NAME");
    }

    /** Foreign keys of {@code foreignTable} that reference {@code parentTable}. */
    MetadataTable crossReference(String parentCatalog, String parentSchema, String parentTable,
                                 String foreignCatalog, String foreignSchema, String foreignTable) {
        MetadataTable out = new MetadataTable(KEY_COLUMNS);
        for (TableDef parent : table(parentCatalog, parentSchema, parentTable)) {
            for (TableDef t : table(foreignCatalog, foreignSchema, foreignTable)) {
                addKeys(out, t, fk -> fk.refTable().equals(parent.name()));
            }
        }
        return out.sortBy("FKTABLE_NAME", "KEY_SEQ", "FK_NAME");
    }

    private void addKeys(MetadataTable out, TableDef t, Predicate<ForeignKeyDef> which) {
        for (ForeignKeyDef fk : t.foreignKeys()) {
            if (!which.test(fk)) {
                continue;
            }
            String pkName = catalog.table(fk.refTable()).map(ref -> ref.keyName(fk.refColumns())).orElse(null);
            for (int i = 0; i < fk.columns().size(); i++) {
                out.add(null, Names.schemaOf(fk.refTable()), Names.local(fk.refTable()), fk.refColumns().get(i), null,
                        Names.schemaOf(t.name()), Names.local(t.name()), fk.columns().get(i), i + 1,
                        fk.onUpdate().jdbcRule(), fk.onDelete().jdbcRule(), Names.local(fk.name()),
                        pkName == null ? null : Names.local(pkName), DatabaseMetaData.importedKeyNotDeferrable);
            }
        }
    }

    /** The primary key, the best (and only) unique row identifier a table has for the session. */
    MetadataTable bestRowIdentifier(String catalogName, String schema, String table) {
        MetadataTable out = new MetadataTable("SCOPE:SMALLINT", "COLUMN_NAME", "DATA_TYPE:INTEGER", "TYPE_NAME",
                "COLUMN_SIZE:INTEGER", "BUFFER_LENGTH:INTEGER", "DECIMAL_DIGITS:SMALLINT", "PSEUDO_COLUMN:SMALLINT");
        for (TableDef t : table(catalogName, schema, table)) {
            for (String name : t.primaryKey()) {
                ColumnType type = t.columns().get(t.columnIndex(name)).type();
                out.add(DatabaseMetaData.bestRowSession, name, JdbcTypes.jdbcType(type.type()), type.type().name(),
                        JdbcTypes.columnSize(type), null, JdbcTypes.decimalDigits(type), DatabaseMetaData.bestRowNotPseudo);
            }
        }
        return out;
    }
}
