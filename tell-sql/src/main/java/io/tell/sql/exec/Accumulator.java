package io.tell.sql.exec;

/** TEMPORARY (replaced on merge). */
public interface Accumulator {
    void add(Object[] row);

    Object result();
}
