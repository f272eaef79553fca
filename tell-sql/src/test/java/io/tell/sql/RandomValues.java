package io.tell.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Random;
import java.util.UUID;

/** Random column types and values for seeded tests. */
public final class RandomValues {
    private final Random random;

    public RandomValues(Random random) {
        this.random = random;
    }

    public ColumnType type() {
        SqlType t = SqlType.values()[random.nextInt(SqlType.values().length)];
        return switch (t) {
            case DECIMAL -> {
                int p = 1 + random.nextInt(random.nextBoolean() ? 18 : 60);
                yield ColumnType.decimal(p, random.nextInt(p + 1));
            }
            case VARCHAR -> ColumnType.varchar(1 + random.nextInt(random.nextBoolean() ? 10 : 300));
            case CHAR -> ColumnType.character(1 + random.nextInt(20));
            case VARBINARY -> ColumnType.varbinary(1 + random.nextInt(random.nextBoolean() ? 10 : 300));
            default -> new ColumnType(t, 0, 0, 0);
        };
    }

    /** A random value of {@code type} in its canonical class, sometimes an edge value. */
    public Object value(ColumnType type) {
        boolean edge = random.nextInt(8) == 0;
        return switch (type.type()) {
            case SMALLINT -> edge ? pick(Short.MIN_VALUE, Short.MAX_VALUE, (short) 0) : (short) random.nextInt();
            case INTEGER -> edge ? pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0) : random.nextInt(random.nextBoolean() ? 100 : Integer.MAX_VALUE);
            case BIGINT -> edge ? pick(Long.MIN_VALUE, Long.MAX_VALUE, 0L) : random.nextLong();
            case DECIMAL -> {
                int digits = 1 + random.nextInt(type.precision());
                BigInteger unscaled = new BigInteger(BigInteger.TEN.pow(digits).bitLength() - 1, random);
                BigDecimal d = new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), type.scale());
                yield d.precision() - d.scale() > type.precision() - type.scale() ? BigDecimal.ZERO.setScale(type.scale()) : d;
            }
            case REAL -> edge ? pick(Float.NaN, Float.NEGATIVE_INFINITY, -0.0f, Float.MAX_VALUE) : random.nextFloat() * 1e6f - 5e5f;
            case DOUBLE -> edge ? pick(Double.NaN, Double.POSITIVE_INFINITY, -0.0, Double.MIN_VALUE) : random.nextGaussian() * 1e12;
            case VARCHAR -> string(random.nextInt(type.length() + 1), edge);
            case CHAR -> type.coerce(string(random.nextInt(type.length() + 1), edge));
            case BOOLEAN -> random.nextBoolean();
            case DATE -> edge ? pick(LocalDate.MIN, LocalDate.MAX, LocalDate.EPOCH) : LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
            case TIMESTAMP -> edge ? pick(LocalDateTime.MIN, LocalDateTime.MAX)
                    : LocalDateTime.of(1900 + random.nextInt(300), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000_000));
            case TIME -> edge ? pick(LocalTime.MIN, LocalTime.MAX, LocalTime.NOON) : LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000_000L));
            case VARBINARY -> {
                byte[] b = new byte[random.nextInt(type.length() + 1)];
                random.nextBytes(b);
                yield b;
            }
            case TIMESTAMPTZ -> LocalDateTime.of(1900 + random.nextInt(300), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000_000))
                    .atOffset(java.time.ZoneOffset.UTC);
            case UUID -> edge ? pick(new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, Long.MAX_VALUE))
                    : new UUID(random.nextLong(), random.nextLong());
        };
    }

    private String string(int codePoints, boolean wide) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            int cp = switch (wide ? random.nextInt(4) : 0) {
                case 0 -> 'a' + random.nextInt(26);
                case 1 -> random.nextInt(0x80);
                case 2 -> 0x4E00 + random.nextInt(0x1000);
                default -> 0x1F600 + random.nextInt(0x40);
            };
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }
}
