package io.tell.hibernate;

import java.util.Map;
import java.util.UUID;

/**
 * The JPA scenarios with every table and sequence in a schema of their own: Hibernate creates the schema and
 * qualifies each name with it ({@code hibernate.default_schema}).
 */
class TellJpaSchemaTest extends JpaScenarios {
    @Override
    String url() {
        return "jdbc:tell:mem:jpa-schema-" + UUID.randomUUID();
    }

    @Override
    Map<String, Object> properties() {
        return Map.of("hibernate.default_schema", "library", "jakarta.persistence.create-database-schemas", "true");
    }
}
