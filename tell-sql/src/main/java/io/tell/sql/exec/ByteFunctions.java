package io.tell.sql.exec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The string functions over byte strings (BINARY, VARBINARY), counting bytes where the string
 * functions count code points: {@code ||}, SUBSTRING, POSITION, OCTET_LENGTH (also of text: its
 * UTF-8 bytes) and CHAR_LENGTH (of bytes: their number, as PostgreSQL's length(bytea)).
 */
final class ByteFunctions {
    private ByteFunctions() {
    }

    /** Whether {@code call}'s first operand is a byte string (then these functions apply). */
    static boolean applies(RexCall call) {
        List<RexNode> operands = call.getOperands();
        return !operands.isEmpty() && SqlTypeUtil.isBinary(operands.get(0).getType());
    }

    static Expr concat(List<Expr> operands) {
        return Strict.nary(operands, values -> {
            int n = 0;
            for (Object v : values) {
                n += ((byte[]) v).length;
            }
            byte[] out = new byte[n];
            int at = 0;
            for (Object v : values) {
                byte[] b = (byte[]) v;
                System.arraycopy(b, 0, out, at, b.length);
                at += b.length;
            }
            return out;
        });
    }

    static Expr length(Expr operand) {
        return Strict.unary(operand, v -> v instanceof byte[] b ? b.length : ((String) v).getBytes(StandardCharsets.UTF_8).length);
    }

    /** {@code SUBSTRING(b FROM start [FOR length])}, 1-based, in bytes. */
    static Expr substring(List<Expr> operands) {
        if (operands.size() == 2) {
            return Strict.binary(operands.get(0), operands.get(1),
                    (b, start) -> substring((byte[]) b, ((Number) start).longValue(), Long.MAX_VALUE / 2));
        }
        return Strict.ternary(operands.get(0), operands.get(1), operands.get(2), (b, start, length) -> {
            long n = ((Number) length).longValue();
            if (n < 0) {
                throw ExecErrors.data("negative substring length not allowed");
            }
            return substring((byte[]) b, ((Number) start).longValue(), n);
        });
    }

    private static byte[] substring(byte[] b, long start, long length) {
        long from = Math.max(start, 1);
        long to = Math.min(start + length, b.length + 1L); // exclusive, 1-based
        return to <= from ? new byte[0] : Arrays.copyOfRange(b, (int) from - 1, (int) to - 1);
    }

    /** {@code POSITION(needle IN b)}: the 1-based byte index of needle, 0 when absent. */
    static Expr position(List<Expr> operands) {
        if (operands.size() != 2) {
            throw ExecErrors.unsupported("POSITION ... FROM over byte strings");
        }
        return Strict.binary(operands.get(0), operands.get(1), (needle, b) -> indexOf((byte[]) b, (byte[]) needle) + 1);
    }

    private static int indexOf(byte[] b, byte[] needle) {
        for (int i = 0; i + needle.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
