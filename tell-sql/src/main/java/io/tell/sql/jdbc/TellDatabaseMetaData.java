package io.tell.sql.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * {@link DatabaseMetaData} of a {@link TellConnection}: the catalog as the node sees it now
 * (each call revalidates it against the store, which takes no session), with the capability
 * answers of {@link DatabaseCapabilities}. Relations are in their schemas (PUBLIC unless created
 * elsewhere) and in no catalog; {@code getCatalogs()} is empty. Search patterns take {@code %}, {@code _} and the
 * escape {@code \}. Tell has no procedures, functions, user-defined types, privileges or
 * version columns: those results are empty, with the columns JDBC defines.
 */
public final class TellDatabaseMetaData extends DatabaseCapabilities {
    private final TellConnection connection;

    TellDatabaseMetaData(TellConnection connection) {
        this.connection = connection;
    }

    private CatalogMetadata catalog() throws SQLException {
        connection.checkOpen();
        try {
            return new CatalogMetadata(connection.node().catalog().snapshot());
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
    }

    private static ResultSet empty(String... columns) {
        return new MetadataTable(columns).resultSet(null);
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    @Override
    public String getUserName() {
        return connection.user();
    }

    @Override
    public String getDatabaseProductName() {
        return "Tell";
    }

    @Override
    public String getDatabaseProductVersion() {
        return TellDriver.VERSION;
    }

    @Override
    public int getDatabaseMajorVersion() {
        return TellDriver.MAJOR_VERSION;
    }

    @Override
    public int getDatabaseMinorVersion() {
        return TellDriver.MINOR_VERSION;
    }

    @Override
    public String getDriverName() {
        return "Tell JDBC Driver";
    }

    @Override
    public String getDriverVersion() {
        return TellDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return TellDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return TellDriver.MINOR_VERSION;
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        return catalog().tables(catalog, schemaPattern, tableNamePattern, types).resultSet(null);
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return catalog().columns(catalog, schemaPattern, tableNamePattern, columnNamePattern).resultSet(null);
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return catalog().primaryKeys(catalog, schema, table).resultSet(null);
    }

    /** Every index is an exact B+tree, so {@code approximate} changes nothing. */
    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return catalog().indexInfo(catalog, schema, table, unique).resultSet(null);
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return catalog().importedKeys(catalog, schema, table).resultSet(null);
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return catalog().exportedKeys(catalog, schema, table).resultSet(null);
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
                                       String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return catalog().crossReference(parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema,
                foreignTable).resultSet(null);
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return catalog().bestRowIdentifier(catalog, schema, table).resultSet(null);
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return catalog().schemas(catalog, schemaPattern).resultSet(null);
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        connection.checkOpen();
        return empty("TABLE_CAT");
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        connection.checkOpen();
        return new MetadataTable("TABLE_TYPE").add("SEQUENCE").add("TABLE").add("VIEW").resultSet(null);
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        connection.checkOpen();
        return JdbcTypes.typeInfo().resultSet(null);
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        connection.checkOpen();
        return new MetadataTable("NAME", "MAX_LEN:INTEGER", "DEFAULT_VALUE", "DESCRIPTION")
                .add("ApplicationName", 0, null, "the application using the connection (kept, not used)")
                .add("ClientHostname", 0, null, "the host the application runs on (kept, not used)")
                .add("ClientUser", 0, null, "the application's user (kept, not used)")
                .resultSet(null);
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern) {
        return empty("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED1", "RESERVED2", "RESERVED3",
                "REMARKS", "PROCEDURE_TYPE:SMALLINT", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
                                         String columnNamePattern) {
        return empty("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "COLUMN_NAME", "COLUMN_TYPE:SMALLINT",
                "DATA_TYPE:INTEGER", "TYPE_NAME", "PRECISION:INTEGER", "LENGTH:INTEGER", "SCALE:SMALLINT", "RADIX:SMALLINT",
                "NULLABLE:SMALLINT", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE:INTEGER", "SQL_DATETIME_SUB:INTEGER",
                "CHAR_OCTET_LENGTH:INTEGER", "ORDINAL_POSITION:INTEGER", "IS_NULLABLE", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) {
        return empty("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE:SMALLINT",
                "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
                                        String columnNamePattern) {
        return empty("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "COLUMN_NAME", "COLUMN_TYPE:SMALLINT",
                "DATA_TYPE:INTEGER", "TYPE_NAME", "PRECISION:INTEGER", "LENGTH:INTEGER", "SCALE:SMALLINT", "RADIX:SMALLINT",
                "NULLABLE:SMALLINT", "REMARKS", "CHAR_OCTET_LENGTH:INTEGER", "ORDINAL_POSITION:INTEGER", "IS_NULLABLE",
                "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern) {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE",
                "IS_GRANTABLE");
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern) {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE", "IS_GRANTABLE");
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) {
        return empty("SCOPE:SMALLINT", "COLUMN_NAME", "DATA_TYPE:INTEGER", "TYPE_NAME", "COLUMN_SIZE:INTEGER",
                "BUFFER_LENGTH:INTEGER", "DECIMAL_DIGITS:SMALLINT", "PSEUDO_COLUMN:SMALLINT");
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "CLASS_NAME", "DATA_TYPE:INTEGER", "REMARKS",
                "BASE_TYPE:SMALLINT");
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SUPERTYPE_CAT", "SUPERTYPE_SCHEM", "SUPERTYPE_NAME");
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME");
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
                                   String attributeNamePattern) {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "ATTR_NAME", "DATA_TYPE:INTEGER", "ATTR_TYPE_NAME",
                "ATTR_SIZE:INTEGER", "DECIMAL_DIGITS:INTEGER", "NUM_PREC_RADIX:INTEGER", "NULLABLE:INTEGER", "REMARKS",
                "ATTR_DEF", "SQL_DATA_TYPE:INTEGER", "SQL_DATETIME_SUB:INTEGER", "CHAR_OCTET_LENGTH:INTEGER",
                "ORDINAL_POSITION:INTEGER", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE",
                "SOURCE_DATA_TYPE:SMALLINT");
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
                                      String columnNamePattern) {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE:INTEGER", "COLUMN_SIZE:INTEGER",
                "DECIMAL_DIGITS:INTEGER", "NUM_PREC_RADIX:INTEGER", "COLUMN_USAGE", "REMARKS", "CHAR_OCTET_LENGTH:INTEGER",
                "IS_NULLABLE");
    }
}
