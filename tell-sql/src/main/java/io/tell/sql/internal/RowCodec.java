package io.tell.sql.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * Encodes rows ({@code Object[]}, one canonical value per column, see
 * {@link io.tell.sql.SqlType#javaClass()}) for one schema (the column types in order). The
 * format is in {@code docs/sql-rows.md}: a format byte, the column count, a null bitmap, then
 * each non-null value in column order. A row written before columns were added (ALTER TABLE
 * ADD COLUMN) has fewer: the missing ones decode as their {@code fills}; a row written after
 * (read under an older schema) has more, and the extra ones are not read. Immutable and
 * thread-safe.
 */
public final class RowCodec {
    /** The format byte every row starts with. */
    public static final int FORMAT = 1;

    private final ColumnType[] types;
    private final Object[] fills;

    public RowCodec(List<ColumnType> types) {
        this(types, new Object[types.size()]);
    }

    /** With {@code fills[i]} the value of column {@code i} in rows that end before it. */
    public RowCodec(List<ColumnType> types, Object[] fills) {
        this.types = types.toArray(ColumnType[]::new);
        this.fills = fills.clone();
        if (this.fills.length != this.types.length) {
            throw new IllegalArgumentException(fills.length + " fills for " + types.size() + " columns");
        }
    }

    public int columnCount() {
        return types.length;
    }

    /**
     * The bytes of {@code row}. Values must already have their column's Java class (as
     * {@link ColumnType#coerce} makes them); a DECIMAL must fit its scale exactly.
     */
    public byte[] encode(Object[] row) {
        if (row.length != types.length) {
            throw new IllegalArgumentException("row has " + row.length + " values, schema " + types.length);
        }
        ByteSink out = new ByteSink();
        out.write(FORMAT);
        out.writeVarint(types.length);
        int bitmap = out.size();
        for (int i = 0; i < (types.length + 7) / 8; i++) {
            out.write(0);
        }
        int bits = 0;
        for (int i = 0; i < types.length; i++) {
            if (row[i] == null) {
                bits |= 1 << (i % 8);
            } else {
                write(out, types[i], row[i], i);
            }
            if (i % 8 == 7 || i == types.length - 1) {
                out.set(bitmap + i / 8, bits);
                bits = 0;
            }
        }
        return out.toByteArray();
    }

    public Object[] decode(byte[] bytes) {
        ByteSource in = new ByteSource(bytes);
        int count = header(in);
        int bitmap = in.position();
        in.skip((count + 7) / 8);
        Object[] row = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            if (i >= count) {
                row[i] = fills[i];
            } else if (!isNull(bytes, bitmap, i)) {
                row[i] = read(in, types[i]);
            }
        }
        if (count == types.length && !in.atEnd()) {
            throw ByteSource.corrupt("row has bytes after its last column");
        }
        return row;
    }

    /** Column {@code column} of an encoded row, skipping the values before it without decoding them. */
    public Object decodeColumn(byte[] bytes, int column) {
        ByteSource in = new ByteSource(bytes);
        int count = header(in);
        if (column >= count) {
            return fills[column];
        }
        int bitmap = in.position();
        if (isNull(bytes, bitmap, column)) {
            return null;
        }
        in.skip((count + 7) / 8);
        for (int i = 0; i < column; i++) {
            if (!isNull(bytes, bitmap, i)) {
                skip(in, types[i]);
            }
        }
        return read(in, types[column]);
    }

    /**
     * Only the columns at {@code columns} (ascending positions), in that order: one pass that
     * skips the others without building their values.
     */
    public Object[] decode(byte[] bytes, int[] columns) {
        ByteSource in = new ByteSource(bytes);
        int count = header(in);
        int bitmap = in.position();
        in.skip((count + 7) / 8);
        Object[] out = new Object[columns.length];
        int next = 0;
        for (int i = 0; i < types.length && next < columns.length; i++) {
            boolean wanted = columns[next] == i;
            if (i >= count) {
                if (wanted) {
                    out[next++] = fills[i];
                }
            } else if (isNull(bytes, bitmap, i)) {
                next += wanted ? 1 : 0;
            } else if (wanted) {
                out[next++] = read(in, types[i]);
            } else {
                skip(in, types[i]);
            }
        }
        return out;
    }

    /** The number of columns an encoded row holds (more than this codec's when written under a later layout). */
    public static int columns(byte[] bytes) {
        return header(new ByteSource(bytes));
    }

    /** Reads the format and returns the row's column count. */
    private static int header(ByteSource in) {
        int format = in.read();
        if (format != FORMAT) {
            throw ByteSource.corrupt("unknown row format " + format);
        }
        long n = in.readVarint();
        if (n < 0 || n > 100_000) {
            throw ByteSource.corrupt("row has " + n + " columns");
        }
        return (int) n;
    }

    private static boolean isNull(byte[] bytes, int bitmap, int column) {
        return (bytes[bitmap + column / 8] & (1 << (column % 8))) != 0;
    }

    private static void write(ByteSink out, ColumnType type, Object v, int column) {
        if (!type.type().javaClass().isInstance(v)) {
            throw TellException.of(ErrorCode.TYPE_MISMATCH, "column " + column + " of type " + type
                    + " needs a " + type.type().javaClass().getSimpleName() + ", not " + v.getClass().getName());
        }
        switch (type.type()) {
            case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
            case SMALLINT, INTEGER, BIGINT -> out.writeSignedVarint(((Number) v).longValue());
            case DECIMAL -> {
                BigDecimal d;
                try {
                    d = ((BigDecimal) v).setScale(type.scale());
                } catch (ArithmeticException e) {
                    throw TellException.of(ErrorCode.VALUE_OUT_OF_RANGE, v + " does not fit the scale of " + type, e);
                }
                out.writeBytes(d.unscaledValue().toByteArray());
            }
            case REAL -> out.writeFixed(Float.floatToIntBits((Float) v), 4);
            case DOUBLE -> out.writeFixed(Double.doubleToLongBits((Double) v), 8);
            case VARCHAR -> out.writeString((String) v);
            case CHAR -> out.writeString(stripTrailingSpaces((String) v));
            case DATE -> out.writeSignedVarint(((LocalDate) v).toEpochDay());
            case TIMESTAMP -> writeTimestamp(out, (LocalDateTime) v);
            case TIME -> out.writeVarint(((LocalTime) v).toNanoOfDay());
            case TIMESTAMPTZ -> writeTimestamp(out, ((OffsetDateTime) v).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
            case VARBINARY -> out.writeBytes((byte[]) v);
            case UUID -> {
                out.writeFixed(((UUID) v).getMostSignificantBits(), 8);
                out.writeFixed(((UUID) v).getLeastSignificantBits(), 8);
            }
        }
    }

    private static Object read(ByteSource in, ColumnType type) {
        return switch (type.type()) {
            case BOOLEAN -> in.read() != 0;
            case SMALLINT -> (short) narrow(in.readSignedVarint(), Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER -> (int) narrow(in.readSignedVarint(), Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> in.readSignedVarint();
            case DECIMAL -> new BigDecimal(new BigInteger(in.readBytes()), type.scale());
            case REAL -> Float.intBitsToFloat((int) in.readFixed(4));
            case DOUBLE -> Double.longBitsToDouble(in.readFixed(8));
            case VARCHAR -> in.readString();
            case CHAR -> pad(in.readString(), type.length());
            case DATE -> LocalDate.ofEpochDay(in.readSignedVarint());
            case TIMESTAMP -> readTimestamp(in);
            case TIME -> LocalTime.ofNanoOfDay(in.readVarint());
            case TIMESTAMPTZ -> readTimestamp(in).atOffset(ZoneOffset.UTC);
            case VARBINARY -> in.readBytes();
            case UUID -> new UUID(in.readFixed(8), in.readFixed(8));
        };
    }

    /** A date-time as its epoch second (as if UTC, zigzag varint) and nanoseconds (varint). */
    private static void writeTimestamp(ByteSink out, LocalDateTime t) {
        out.writeSignedVarint(t.toEpochSecond(ZoneOffset.UTC));
        out.writeVarint(t.getNano());
    }

    private static LocalDateTime readTimestamp(ByteSource in) {
        return LocalDateTime.ofEpochSecond(in.readSignedVarint(), (int) in.readVarint(), ZoneOffset.UTC);
    }

    /**
     * An integer read for a narrower type than the one it was written under: a node whose catalog
     * predates an ALTER COLUMN … TYPE that widened the column reads a row written after it. The
     * transaction retries (40001) and then reads under the newer catalog.
     */
    private static long narrow(long v, long min, long max) {
        if (v < min || v > max) {
            throw TellException.of(ErrorCode.TX_CONFLICT, "a stored integer " + v + " is wider than its column's type in"
                    + " this transaction's catalog, which a later ALTER COLUMN ... TYPE widened; retry");
        }
        return v;
    }

    private static void skip(ByteSource in, ColumnType type) {
        switch (type.type()) {
            case BOOLEAN -> in.skip(1);
            case SMALLINT, INTEGER, BIGINT, DATE, TIME -> in.readVarint();
            case REAL -> in.skip(4);
            case DOUBLE -> in.skip(8);
            case UUID -> in.skip(16);
            case DECIMAL, VARCHAR, CHAR, VARBINARY -> in.skipBytes();
            case TIMESTAMP, TIMESTAMPTZ -> {
                in.readVarint();
                in.readVarint();
            }
        }
    }

    private static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static String pad(String s, int length) {
        int n = s.codePointCount(0, s.length());
        return n >= length ? s : s + " ".repeat(length - n);
    }
}
