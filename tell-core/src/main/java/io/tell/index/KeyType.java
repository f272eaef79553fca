package io.tell.index;

/**
 * The SQL types an index key column may have, with the Java values {@link KeyEncoder} takes
 * and returns for them. Numbers of another Java class are converted when the value fits.
 */
public enum KeyType {
    /** {@link Boolean}; false sorts before true. */
    BOOLEAN,
    /** {@link Short}. */
    SMALLINT,
    /** {@link Integer}. */
    INTEGER,
    /** {@link Long}. */
    BIGINT,
    /** {@link java.math.BigDecimal} of any precision and scale; 1.0 and 1.00 are the same key. */
    DECIMAL,
    /** {@link Float}; -0.0 equals 0.0, every NaN is one value that sorts after +Infinity. */
    REAL,
    /** {@link Double}; -0.0 equals 0.0, every NaN is one value that sorts after +Infinity. */
    DOUBLE,
    /** {@link String}, ordered by Unicode code point (binary collation). */
    VARCHAR,
    /** {@link String} with trailing spaces ignored (PAD SPACE): 'a' and 'a  ' are the same key. */
    CHAR,
    /** {@link java.time.LocalDate}. */
    DATE,
    /** {@link java.time.LocalDateTime} (TIMESTAMP WITHOUT TIME ZONE), to the nanosecond. */
    TIMESTAMP,
    /** {@link java.time.LocalTime} (TIME WITHOUT TIME ZONE), to the nanosecond. */
    TIME,
    /** {@code byte[]}, ordered as unsigned bytes; a value sorts before every longer value it begins. */
    VARBINARY,
    /** {@link java.util.UUID}, ordered as its 16 bytes unsigned (as PostgreSQL orders uuid). */
    UUID,
    /** {@link java.time.OffsetDateTime} (TIMESTAMP WITH TIME ZONE): an instant, encoded as its UTC date-time; decoded at UTC. */
    TIMESTAMPTZ
}
