package io.tell.bench.ch;

/**
 * One of the CH-benCHmark's 22 analytical queries.
 *
 * @param number 1 to 22, as in the benchmark (and TPC-H, whose queries they adapt)
 * @param title a few words on what it asks
 * @param sql the query, in SQL that Tell, H2 and PostgreSQL accept
 */
public record ChQuery(int number, String title, String sql) {

    /** "Q7 (volume shipping)". */
    public String label() {
        return "Q" + number + " (" + title + ")";
    }
}
