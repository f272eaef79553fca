package io.tell.sql.exec;

import java.util.function.Supplier;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;

/** TEMPORARY minimal version (replaced on merge). */
public final class AggregateCompiler {
    private AggregateCompiler() {
    }

    public static Supplier<Accumulator> compile(AggregateCall call, RelDataType inputRowType) {
        int arg = call.getArgList().isEmpty() ? -1 : call.getArgList().get(0);
        return switch (call.getAggregation().getKind()) {
            case COUNT -> () -> new Accumulator() {
                long n;

                public void add(Object[] row) {
                    if (arg < 0 || row[arg] != null) {
                        n++;
                    }
                }

                public Object result() {
                    return n;
                }
            };
            case MAX, MIN -> () -> new Accumulator() {
                Object v;

                public void add(Object[] row) {
                    Object x = row[arg];
                    if (x != null && (v == null || (Rows.compare(x, v) > 0) == (call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.MAX))) {
                        v = x;
                    }
                }

                public Object result() {
                    return v;
                }
            };
            default -> throw new UnsupportedOperationException(call.toString());
        };
    }
}
