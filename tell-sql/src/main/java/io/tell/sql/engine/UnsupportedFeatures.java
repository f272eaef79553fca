package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Match;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableSpool;
import org.apache.calcite.rel.core.Uncollect;

/**
 * Names, before planning, the SQL features a statement uses that Calcite parses and validates
 * but Tell does not execute, so that such a statement fails with a message about the feature
 * (0A000) rather than one about the planner's internals.
 */
final class UnsupportedFeatures {
    private UnsupportedFeatures() {
    }

    /** FEATURE_NOT_SUPPORTED naming the first such feature in {@code rel}. */
    static void check(RelNode rel) {
        String feature = switch (rel) {
            case Match m -> "MATCH_RECOGNIZE is";
            case RepeatUnion r -> "recursive queries (WITH RECURSIVE) are";
            case TableSpool t -> "recursive queries (WITH RECURSIVE) are";
            case Uncollect u -> "UNNEST is";
            case Sample s -> "TABLESAMPLE is";
            case Snapshot s -> "temporal tables (FOR SYSTEM_TIME AS OF) are";
            case TableFunctionScan t -> "table functions are";
            case Aggregate a when a.getGroupType() != Aggregate.Group.SIMPLE -> "GROUPING SETS, ROLLUP and CUBE are";
            default -> null;
        };
        if (feature != null) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, feature + " not supported");
        }
        for (RelNode input : rel.getInputs()) {
            check(input);
        }
    }
}
