package io.tell.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.hibernate.model.Author;
import io.tell.hibernate.model.Book;
import io.tell.hibernate.model.Review;
import io.tell.hibernate.model.Tag;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.Persistence;
import jakarta.persistence.PersistenceException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hibernate.exception.ConstraintViolationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A JPA application on Tell through Hibernate ORM 6 and {@link TellDialect}: Hibernate creates
 * the schema (identity and sequence ids, foreign keys by ALTER TABLE, a unique constraint),
 * entities with one-to-many and many-to-many relations are stored and read back, JPQL with
 * joins, fetch joins, aggregates, pagination and bulk updates runs, and {@code @Version} and
 * Tell's write conflicts surface as {@link OptimisticLockException}. Subclasses say where Tell
 * runs (embedded, over Redis).
 */
abstract class JpaScenarios {
    private EntityManagerFactory emf;

    /** The JDBC URL of a fresh database for one test. */
    abstract String url();

    @BeforeEach
    void open() {
        emf = Persistence.createEntityManagerFactory("tell", Map.of("jakarta.persistence.jdbc.url", url()));
    }

    @AfterEach
    void close() {
        emf.close();
    }

    @Test
    void entitiesAndRelationsRoundTrip() {
        long[] ids = inTx(em -> {
            Author ann = new Author("Ann");
            Book first = ann.write(new Book("Alpha", 120, new BigDecimal("12.50"), LocalDate.of(2020, 5, 1), Book.Genre.NOVEL));
            Tag classic = new Tag("classic");
            em.persist(classic);
            first.getTags().add(classic);
            first.review(5, "great");
            first.review(3, "fine");
            em.persist(ann);
            return new long[] {ann.getId(), first.getId(), classic.getId()};
        });
        assertNotEquals(0, ids[0]);
        inTx(em -> {
            Book b = em.find(Book.class, ids[1]);
            assertEquals("Alpha", b.getTitle());
            assertEquals(new BigDecimal("12.50"), b.getPrice());
            assertEquals(LocalDate.of(2020, 5, 1), b.getPublished());
            assertEquals(Book.Genre.NOVEL, b.getGenre());
            assertEquals("Ann", b.getAuthor().getName());
            assertEquals(List.of("classic"), b.getTags().stream().map(Tag::getLabel).toList());
            assertEquals(2, b.getReviews().size());
            assertEquals(2026, b.getReviews().get(0).getWritten().getYear());
            Review gone = b.getReviews().remove(0); // orphan removal deletes it
            assertNotNull(gone.getId());
            return null;
        });
        long reviews = inTx(em -> em.createQuery("select count(r) from Review r", Long.class).getSingleResult());
        assertEquals(1, reviews);
    }

    @Test
    void jpqlJoinsAggregatesAndPages() {
        inTx(em -> {
            Tag poem = new Tag("poem");
            em.persist(poem);
            for (String name : List.of("Ann", "Bob", "Cy")) {
                Author a = new Author(name);
                for (int i = 0; i < name.length() * 2; i++) {
                    Book b = a.write(new Book(name + "-" + i, 100 + 50 * i, new BigDecimal(10 + i), LocalDate.of(2000 + i, 1, 1),
                            i % 2 == 0 ? Book.Genre.NOVEL : Book.Genre.POETRY));
                    if (i % 2 == 1) {
                        b.getTags().add(poem);
                    }
                }
                em.persist(a);
            }
            return null;
        });
        inTx(em -> {
            List<String> bobs = em.createQuery("select b.title from Book b join b.author a where a.name = :n"
                    + " order by b.title", String.class).setParameter("n", "Bob").getResultList();
            assertEquals(List.of("Bob-0", "Bob-1", "Bob-2", "Bob-3", "Bob-4", "Bob-5"), bobs);
            List<Object[]> perAuthor = em.createQuery("select a.name, count(b), avg(b.pages), max(b.price) from Author a"
                    + " left join a.books b group by a.name order by a.name", Object[].class).getResultList();
            assertEquals(3, perAuthor.size());
            assertEquals("Ann", perAuthor.get(0)[0]);
            assertEquals(6L, perAuthor.get(0)[1]);
            assertEquals(225.0, ((Number) perAuthor.get(0)[2]).doubleValue(), 0.001);
            assertEquals(0, new BigDecimal("15").compareTo((BigDecimal) perAuthor.get(0)[3]));
            List<String> page = em.createQuery("select b.title from Book b order by b.title", String.class)
                    .setFirstResult(3).setMaxResults(4).getResultList();
            assertEquals(List.of("Ann-3", "Ann-4", "Ann-5", "Bob-0"), page);
            List<String> poems = em.createQuery("select distinct b.author.name from Book b join b.tags t"
                    + " where t.label = 'poem' and b.genre = :g order by b.author.name", String.class)
                    .setParameter("g", Book.Genre.POETRY).getResultList();
            assertEquals(List.of("Ann", "Bob", "Cy"), poems);
            Author cy = em.createQuery("select a from Author a left join fetch a.books where a.name = 'Cy'", Author.class)
                    .getSingleResult();
            assertEquals(4, cy.getBooks().size());
            List<Long> since = em.createQuery("select count(b) from Book b where b.published >= :d", Long.class)
                    .setParameter("d", LocalDate.of(2003, 1, 1)).getResultList();
            assertEquals(List.of(7L), since); // Ann and Bob 2003-2005, Cy 2003
            return null;
        });
        int updated = inTx(em -> em.createQuery("update Book b set b.pages = b.pages + 1 where b.pages >= 300")
                .executeUpdate());
        assertEquals(4, updated); // Ann's and Bob's books 4 and 5
        long bumped = inTx(em -> em.createQuery("select count(b) from Book b where mod(b.pages, 50) = 1", Long.class)
                .getSingleResult());
        assertEquals(4, bumped);
    }

    @Test
    void versionConflictsAreOptimisticLockFailures() {
        long id = inTx(em -> {
            Author a = new Author("Vera");
            Book b = a.write(new Book("Draft", 10, BigDecimal.ONE, LocalDate.of(2024, 1, 1), Book.Genre.ESSAY));
            em.persist(a);
            return b.getId();
        });
        EntityManager one = emf.createEntityManager();
        EntityManager two = emf.createEntityManager();
        try {
            one.getTransaction().begin();
            two.getTransaction().begin();
            Book mine = one.find(Book.class, id);
            Book theirs = two.find(Book.class, id);
            mine.setTitle("Final");
            one.getTransaction().commit();
            theirs.setPages(99);
            PersistenceException e = assertThrows(PersistenceException.class, () -> two.getTransaction().commit());
            assertTrue(causedBy(e, OptimisticLockException.class), () -> "expected an optimistic-lock failure: " + e);
        } finally {
            if (two.getTransaction().isActive()) {
                two.getTransaction().rollback();
            }
            one.close();
            two.close();
        }
        Book b = inTx(em -> em.find(Book.class, id));
        assertEquals("Final", b.getTitle());
        assertEquals(10, b.getPages());
        assertEquals(1, b.getVersion());
    }

    @Test
    void uniqueViolationsNameTheirConstraint() {
        inTx(em -> {
            em.persist(new Tag("dup"));
            return null;
        });
        PersistenceException e = assertThrows(PersistenceException.class, () -> inTx(em -> {
            em.persist(new Tag("dup"));
            return null;
        }));
        ConstraintViolationException cve = cause(e, ConstraintViolationException.class);
        assertNotNull(cve, () -> "expected a constraint violation: " + e);
        assertEquals("23505", cve.getSQLState());
        assertNotNull(cve.getConstraintName(), cve::getMessage);
    }

    @Test
    void enumColumnsAreCheckedByTheDatabase() {
        inTx(em -> {
            Author a = new Author("Eve");
            a.write(new Book("E", 1, BigDecimal.ONE, LocalDate.of(2021, 1, 1), Book.Genre.POETRY));
            em.persist(a);
            return null;
        });
        PersistenceException e = assertThrows(PersistenceException.class, () -> inTx(em ->
                em.createNativeQuery("update Book set genre = 'COMIC'").executeUpdate()));
        ConstraintViolationException cve = cause(e, ConstraintViolationException.class);
        assertNotNull(cve, () -> "expected Hibernate's CHECK on the enum column to refuse the value: " + e);
        assertEquals("23514", cve.getSQLState());
    }

    private <T> T inTx(Function<EntityManager, T> work) {
        EntityManager em = emf.createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        return cause(t, type) != null;
    }

    private static <X extends Throwable> X cause(Throwable t, Class<X> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}
