package io.tell.hibernate.model;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToOne;
import java.time.LocalDateTime;

/** A review: identity id, belongs to a book. */
@Entity
public class Review {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @ManyToOne(optional = false)
    private Book book;

    private int stars;

    private String text;

    private LocalDateTime written;

    protected Review() {
    }

    Review(Book book, int stars, String text) {
        this.book = book;
        this.stars = stars;
        this.text = text;
        this.written = LocalDateTime.of(2026, 1, 2, 3, 4, 5);
    }

    public Long getId() {
        return id;
    }

    public int getStars() {
        return stars;
    }

    public LocalDateTime getWritten() {
        return written;
    }
}
