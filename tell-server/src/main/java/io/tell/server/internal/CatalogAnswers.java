package io.tell.server.internal;

import io.tell.sql.Catalog;
import io.tell.sql.SchemaPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The result columns and rows of a {@link CatalogQuery}, from Tell's catalog. */
final class CatalogAnswers {
    private CatalogAnswers() {
    }

    static List<PgColumn> columns(CatalogQuery query) {
        return switch (query.shape()) {
            case CURRENT_DATABASE -> columns("current_database");
            case CURRENT_SCHEMA -> columns("current_schema");
            case JDBC_TABLES, JDBC_COLUMNS, JDBC_PRIMARY_KEYS, JDBC_INDEX_INFO, JDBC_KEYS, JDBC_INDEX_KEYS_SETTING,
                 JDBC_SCHEMAS, JDBC_CATALOGS, JDBC_FIELDS, JDBC_TYPES, JDBC_TYPE_KINDS -> JdbcCatalog.columns(query);
            default -> PsqlCatalog.columns(query);
        };
    }

    /** The rows of {@code query} for a session whose names are found along {@code path}. */
    static List<Object[]> rows(CatalogQuery query, Catalog catalog, String database, SchemaPath path,
                               List<Object> parameters) {
        PgCatalogView view = new PgCatalogView(catalog.snapshot(), database, path);
        return switch (query.shape()) {
            case CURRENT_DATABASE -> List.<Object[]>of(new Object[] {database});
            case CURRENT_SCHEMA -> List.<Object[]>of(new Object[] {view.currentSchema()});
            case JDBC_TABLES, JDBC_COLUMNS, JDBC_PRIMARY_KEYS, JDBC_INDEX_INFO, JDBC_KEYS, JDBC_INDEX_KEYS_SETTING,
                 JDBC_SCHEMAS, JDBC_CATALOGS, JDBC_FIELDS, JDBC_TYPES, JDBC_TYPE_KINDS -> JdbcCatalog.rows(query, view, parameters);
            default -> PsqlCatalog.rows(query, view, parameters);
        };
    }

    /** Columns from {@code name} or {@code name:type} (type a {@link PgType} name; text when left out). */
    static List<PgColumn> columns(String... specs) {
        List<PgColumn> out = new ArrayList<>(specs.length);
        for (String spec : specs) {
            int colon = spec.lastIndexOf(':');
            PgType type = colon < 0 ? PgType.TEXT : PgType.valueOf(spec.substring(colon + 1).toUpperCase(Locale.ROOT));
            out.add(new PgColumn(colon < 0 ? spec : spec.substring(0, colon), type, -1, false));
        }
        return out;
    }
}
