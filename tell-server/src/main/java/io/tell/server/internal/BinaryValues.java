package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.UUID;

/**
 * Values in PostgreSQL's binary format (the type's send/recv functions): big-endian integers
 * and IEEE floats, dates as days and times and timestamps as microseconds since 2000-01-01
 * (integer_datetimes), numerics as base-10000 digit groups with weight, sign and display scale.
 */
final class BinaryValues {
    private static final LocalDate EPOCH = LocalDate.of(2000, 1, 1);
    private static final LocalDateTime EPOCH_TIME = EPOCH.atStartOfDay();
    private static final int NUMERIC_NEGATIVE = 0x4000;
    private static final int NUMERIC_NAN = 0xC000;
    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

    private BinaryValues() {
    }

    /** Writes {@code v} (not null) as {@code type}'s binary form, without the length prefix. */
    static void write(PgType type, Object v, ByteBuf out) {
        switch (type) {
            case BOOL -> out.writeByte((Boolean) v ? 1 : 0);
            case INT2 -> out.writeShort(((Number) v).shortValue());
            case INT4 -> out.writeInt(((Number) v).intValue());
            case INT8 -> out.writeLong(((Number) v).longValue());
            case FLOAT4 -> out.writeFloat(((Number) v).floatValue());
            case FLOAT8 -> out.writeDouble(((Number) v).doubleValue());
            case NUMERIC -> writeNumeric((BigDecimal) v, out);
            case DATE -> out.writeInt((int) ChronoUnit.DAYS.between(EPOCH, (LocalDate) v));
            case TIME -> out.writeLong(((LocalTime) v).toNanoOfDay() / 1000);
            case TIMESTAMP -> out.writeLong(ChronoUnit.MICROS.between(EPOCH_TIME, (LocalDateTime) v));
            case TIMESTAMPTZ -> out.writeLong(ChronoUnit.MICROS.between(EPOCH_TIME,
                    ((OffsetDateTime) v).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));
            case BYTEA -> out.writeBytes((byte[]) v);
            case UUID -> out.writeLong(((UUID) v).getMostSignificantBits()).writeLong(((UUID) v).getLeastSignificantBits());
            case TEXT, VARCHAR, BPCHAR -> out.writeCharSequence(TextValues.format(v), StandardCharsets.UTF_8);
        }
    }

    /** A binary parameter value of {@code type} as the object the engine takes; 22P03 when the bytes do not fit the type. */
    static Object read(PgType type, byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        Object v = switch (type) {
            case BOOL -> fixed(in, 1).readByte() != 0;
            case INT2 -> fixed(in, 2).readShort();
            case INT4 -> fixed(in, 4).readInt();
            case INT8 -> fixed(in, 8).readLong();
            case FLOAT4 -> fixed(in, 4).readFloat();
            case FLOAT8 -> fixed(in, 8).readDouble();
            case NUMERIC -> readNumeric(in);
            case DATE -> EPOCH.plusDays(fixed(in, 4).readInt());
            case TIME -> LocalTime.ofNanoOfDay(checkedMicros(fixed(in, 8).readLong()) * 1000);
            case TIMESTAMP -> EPOCH_TIME.plus(fixed(in, 8).readLong(), ChronoUnit.MICROS);
            case TIMESTAMPTZ -> EPOCH_TIME.plus(fixed(in, 8).readLong(), ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
            case BYTEA -> all(in, bytes);
            case UUID -> new UUID(fixed(in, 16).readLong(), in.readLong());
            case TEXT, VARCHAR, BPCHAR -> new String(all(in, bytes), StandardCharsets.UTF_8);
        };
        if (in.isReadable()) {
            throw badBinary(type);
        }
        return v;
    }

    /** The whole value, which a variable-length type reads as it is. */
    private static byte[] all(ByteBuf in, byte[] bytes) {
        in.skipBytes(in.readableBytes());
        return bytes;
    }

    private static long checkedMicros(long micros) {
        if (micros < 0 || micros >= 86_400_000_000L) {
            throw badBinary(PgType.TIME);
        }
        return micros;
    }

    private static ByteBuf fixed(ByteBuf in, int size) {
        if (in.readableBytes() != size) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "a binary value of " + in.readableBytes()
                    + " bytes where " + size + " are expected");
        }
        return in;
    }

    private static TellException badBinary(PgType type) {
        return TellException.of(ErrorCode.DATA_EXCEPTION, "invalid binary value for " + type.name().toLowerCase(Locale.ROOT));
    }

    private static void writeNumeric(BigDecimal d, ByteBuf out) {
        int dscale = Math.max(d.scale(), 0);
        BigDecimal abs = d.abs().setScale(dscale);
        // Align the fraction to whole base-10000 groups, then cut the unscaled digits into groups.
        int fractionGroups = (dscale + 3) / 4;
        BigInteger unscaled = abs.setScale(fractionGroups * 4).unscaledValue();
        ArrayDeque<Short> groups = new ArrayDeque<>();
        while (unscaled.signum() > 0) {
            BigInteger[] qr = unscaled.divideAndRemainder(TEN_THOUSAND);
            groups.addFirst(qr[1].shortValue());
            unscaled = qr[0];
        }
        int weight = groups.size() - fractionGroups - 1;
        while (!groups.isEmpty() && groups.peekLast() == 0) {
            groups.removeLast();
        }
        while (!groups.isEmpty() && groups.peekFirst() == 0) {
            groups.removeFirst();
            weight--;
        }
        out.writeShort(groups.size());
        out.writeShort(groups.isEmpty() ? 0 : weight);
        out.writeShort(d.signum() < 0 ? NUMERIC_NEGATIVE : 0);
        out.writeShort(dscale);
        for (short g : groups) {
            out.writeShort(g);
        }
    }

    private static BigDecimal readNumeric(ByteBuf in) {
        if (in.readableBytes() < 8) {
            throw badBinary(PgType.NUMERIC);
        }
        int ndigits = in.readUnsignedShort();
        int weight = in.readShort();
        int sign = in.readUnsignedShort();
        int dscale = in.readUnsignedShort();
        if (sign == NUMERIC_NAN) {
            throw TellException.of(ErrorCode.VALUE_OUT_OF_RANGE, "NaN is not a DECIMAL value");
        }
        if (sign != 0 && sign != NUMERIC_NEGATIVE || in.readableBytes() != ndigits * 2 || dscale > 1000) {
            throw badBinary(PgType.NUMERIC);
        }
        BigInteger unscaled = BigInteger.ZERO;
        for (int i = 0; i < ndigits; i++) {
            int g = in.readShort();
            if (g < 0 || g >= 10_000) {
                throw badBinary(PgType.NUMERIC);
            }
            unscaled = unscaled.multiply(TEN_THOUSAND).add(BigInteger.valueOf(g));
        }
        // The last group has weight (weight - ndigits + 1): a power of 10000 to scale by.
        BigDecimal value = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - ndigits + 1));
        value = value.setScale(dscale, RoundingMode.DOWN);
        return sign == NUMERIC_NEGATIVE ? value.negate() : value;
    }
}
