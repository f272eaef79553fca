package io.tell.bench.tpcc;

/**
 * The outcome of one transaction type over the measured interval.
 *
 * @param committed executions that committed
 * @param rolledBack executions rolled back on purpose (New-Order's unused item)
 * @param retried attempts aborted by a conflict and run again with the same input
 * @param errors executions that failed with any other SQL error
 */
public record TypeResult(TransactionType type, long committed, long rolledBack, long retried, long errors,
                         LatencySummary latency) {

    /** Conflict aborts as a share of all attempts, in percent: the abort rate of the paper. */
    public double abortPercent() {
        long attempts = committed + rolledBack + retried + errors;
        return attempts == 0 ? 0 : 100.0 * retried / attempts;
    }
}
