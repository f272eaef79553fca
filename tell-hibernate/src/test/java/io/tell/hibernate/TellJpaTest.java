package io.tell.hibernate;

import java.util.UUID;

/** The JPA scenarios on an embedded Tell (a named in-memory database the pool's connections share). */
class TellJpaTest extends JpaScenarios {
    @Override
    String url() {
        return "jdbc:tell:mem:jpa-" + UUID.randomUUID();
    }
}
