package io.tell.server.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What a Bind message carries, made into Tell's parameter values and the portal's result formats. */
final class BindValues {
    private BindValues() {
    }

    /** The values for Tell's {@code ?} in order (a {@code $n} used twice is given twice). */
    static List<Object> decode(PgStatement statement, FrontendMessage.Bind b) {
        PgType[] types = statement.parameterTypes();
        if (b.values().size() != types.length) {
            throw new PgError("08P01", "bind message supplies " + b.values().size() + " parameters, but prepared statement \""
                    + b.statement() + "\" requires " + types.length);
        }
        boolean[] binary = formats(b.parameterFormats(), types.length, "parameter");
        Object[] values = new Object[types.length];
        for (int i = 0; i < values.length; i++) {
            byte[] raw = b.values().get(i);
            if (raw != null) {
                values[i] = value(raw, types[i], binary[i], i + 1);
            }
        }
        if (!(statement instanceof PgStatement.Sql s)) {
            return Arrays.asList(values); // a catalog query reads its $n in their own order
        }
        List<Object> ordered = new ArrayList<>(s.order().length);
        for (int n : s.order()) {
            ordered.add(values[n - 1]);
        }
        return ordered;
    }

    private static Object value(byte[] raw, PgType type, boolean binary, int n) {
        try {
            return binary ? BinaryValues.read(type, raw) : TextValues.parse(new String(raw, StandardCharsets.UTF_8), type);
        } catch (TellException e) {
            throw TellException.of(e.code(), "parameter $" + n + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "parameter $" + n + ": invalid " + type + " value: " + e.getMessage(), e);
        }
    }

    /** The statement's columns with the formats Bind asked for (none: all text; one: all alike; else one each). */
    static List<PgColumn> resultColumns(List<PgColumn> columns, short[] resultFormats) {
        boolean[] binary = formats(resultFormats, columns.size(), "result");
        List<PgColumn> out = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            out.add(columns.get(i).withBinary(binary[i]));
        }
        return out;
    }

    private static boolean[] formats(short[] codes, int count, String what) {
        boolean[] binary = new boolean[count];
        if (codes.length == 1) {
            Arrays.fill(binary, codes[0] == 1);
        } else if (codes.length == count) {
            for (int i = 0; i < count; i++) {
                binary[i] = codes[i] == 1;
            }
        } else if (codes.length != 0) {
            throw new PgError("08P01", "bind message has " + codes.length + " " + what + " formats but " + count + " "
                    + what + (count == 1 ? "" : "s"));
        }
        return binary;
    }
}
