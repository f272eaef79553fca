package io.tell.sql.exec;

/** COUNT(*) (no arguments) or COUNT(x, …): the rows whose arguments are all non-null. */
final class CountAccumulator implements Accumulator {
    private final int[] args;
    private final IntegerType type;
    private long count;

    CountAccumulator(int[] args, IntegerType type) {
        this.args = args;
        this.type = type;
    }

    @Override
    public void add(Object[] row) {
        for (int arg : args) {
            if (row[arg] == null) {
                return;
            }
        }
        count++;
    }

    @Override
    public void merge(Accumulator other) {
        count += ((CountAccumulator) other).count;
    }

    @Override
    public Object result() {
        return type.box(count);
    }
}
