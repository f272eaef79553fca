package io.tell.hibernate.model;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A book: sequence id (pooled, 10 at a time), @Version, many-to-one author, many-to-many tags, one-to-many reviews. */
@Entity
public class Book {
    public enum Genre { NOVEL, POETRY, ESSAY }

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "book_ids")
    @SequenceGenerator(name = "book_ids", sequenceName = "book_seq", allocationSize = 10)
    private Long id;

    @Version
    private int version;

    @Column(nullable = false, length = 80)
    private String title;

    private int pages;

    @Column(precision = 8, scale = 2)
    private BigDecimal price;

    private LocalDate published;

    @Enumerated(EnumType.STRING)
    @Column(length = 10)
    private Genre genre;

    @ManyToOne
    private Author author;

    @ManyToMany
    private Set<Tag> tags = new HashSet<>();

    @OneToMany(mappedBy = "book", cascade = CascadeType.ALL, orphanRemoval = true)
    private List<Review> reviews = new ArrayList<>();

    protected Book() {
    }

    public Book(String title, int pages, BigDecimal price, LocalDate published, Genre genre) {
        this.title = title;
        this.pages = pages;
        this.price = price;
        this.published = published;
        this.genre = genre;
    }

    public Long getId() {
        return id;
    }

    public int getVersion() {
        return version;
    }

    public String getTitle() {
        return title;
    }

    public void setTitle(String title) {
        this.title = title;
    }

    public int getPages() {
        return pages;
    }

    public void setPages(int pages) {
        this.pages = pages;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public LocalDate getPublished() {
        return published;
    }

    public Genre getGenre() {
        return genre;
    }

    public Author getAuthor() {
        return author;
    }

    void setAuthor(Author author) {
        this.author = author;
    }

    public Set<Tag> getTags() {
        return tags;
    }

    public List<Review> getReviews() {
        return reviews;
    }

    public Review review(int stars, String text) {
        Review r = new Review(this, stars, text);
        reviews.add(r);
        return r;
    }
}
