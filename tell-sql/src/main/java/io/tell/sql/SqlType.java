package io.tell.sql;

import io.tell.index.KeyType;

/**
 * The SQL column types Tell supports, each with the one Java class its values have inside Tell
 * (what {@link ColumnType#coerce} returns and the row codec decodes).
 */
public enum SqlType {
    /** {@link Short}. */
    SMALLINT(Short.class, KeyType.SMALLINT),
    /** {@link Integer}. */
    INTEGER(Integer.class, KeyType.INTEGER),
    /** {@link Long}. */
    BIGINT(Long.class, KeyType.BIGINT),
    /** {@link java.math.BigDecimal} with exactly the column's scale. */
    DECIMAL(java.math.BigDecimal.class, KeyType.DECIMAL),
    /** {@link Float}. */
    REAL(Float.class, KeyType.REAL),
    /** {@link Double}. */
    DOUBLE(Double.class, KeyType.DOUBLE),
    /** {@link String} of at most the column's length in code points. */
    VARCHAR(String.class, KeyType.VARCHAR),
    /** {@link String} of exactly the column's length in code points, padded with spaces. */
    CHAR(String.class, KeyType.CHAR),
    /** {@link Boolean}. */
    BOOLEAN(Boolean.class, KeyType.BOOLEAN),
    /** {@link java.time.LocalDate}. */
    DATE(java.time.LocalDate.class, KeyType.DATE),
    /** {@link java.time.LocalDateTime}, without time zone, to the nanosecond. */
    TIMESTAMP(java.time.LocalDateTime.class, KeyType.TIMESTAMP),
    /** {@link java.time.LocalTime}, without time zone, to the nanosecond. */
    TIME(java.time.LocalTime.class, KeyType.TIME),
    /** {@code byte[]} of at most the column's length (VARBINARY, BYTEA, BLOB); never changed in place. */
    VARBINARY(byte[].class, KeyType.VARBINARY),
    /** {@link java.util.UUID}. */
    UUID(java.util.UUID.class, KeyType.UUID),
    /** {@link java.time.OffsetDateTime} at UTC: an instant (TIMESTAMP WITH TIME ZONE, PostgreSQL's timestamptz). */
    TIMESTAMPTZ(java.time.OffsetDateTime.class, KeyType.TIMESTAMPTZ);

    private final Class<?> javaClass;
    private final KeyType keyType;

    SqlType(Class<?> javaClass, KeyType keyType) {
        this.javaClass = javaClass;
        this.keyType = keyType;
    }

    public Class<?> javaClass() {
        return javaClass;
    }

    /** How index keys encode values of this type. */
    public KeyType keyType() {
        return keyType;
    }
}
