package io.tell.sql.engine;

import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The golden SQL scripts on the embedded store; {@code GoldenSqlRedisIT} runs them on Redis. */
class GoldenSqlTest {
    static Stream<String> scripts() {
        return Stream.of("ddl.sql", "dml.sql", "queries.sql", "joins.sql", "subqueries.sql", "aggregates.sql",
                "expressions.sql", "errors.sql", "transactions.sql", "sequences.sql", "alter.sql", "views.sql", "upsert.sql", "checks.sql", "foreign_keys.sql", "types.sql", "merge.sql", "information_schema.sql", "schemas.sql", "functions.sql", "windows.sql");
    }

    @ParameterizedTest
    @MethodSource("scripts")
    void script(String name) throws Exception {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession session = node.openSession()) {
            GoldenScript.run(name, session);
        }
    }
}
