package io.tell.sql.engine;

import static io.tell.sql.engine.EngineSmokeTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An index key may be an expression of parameters (or of an outer row's columns), not only a plain one. */
class IndexKeyExpressionTest {

    @Test
    void aParameterExpressionIsLookedUpInThePrimaryKey() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE dept (id INTEGER PRIMARY KEY, name VARCHAR(10))");
            run(s, "INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'hr')");
            String plan = String.join("\n", run(s, "EXPLAIN PLAN FOR SELECT name FROM dept WHERE id = ? + 1"));
            assertTrue(plan.contains("TellIndexScan(table=[[PUBLIC, DEPT]], index=[PRIMARY KEY], key=[[+(?0, 1)]]"), plan);
            assertEquals(List.of("[ops]"), run(s, "SELECT name FROM dept WHERE id = ? + 1", 1));
            assertEquals(List.of(), run(s, "SELECT name FROM dept WHERE id = ? + 1", 7));
            assertEquals(List.of(), run(s, "SELECT name FROM dept WHERE id = ? + 1", (Object) null));
        }
    }
}
