package io.tell.hibernate.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.ManyToOne;
import java.time.LocalTime;
import java.util.UUID;

/** A file attached to a book: a UUID id made by Hibernate, a digest (VARBINARY), the content (a BLOB) and a TIME. */
@Entity
public class Attachment {
    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    @ManyToOne(optional = false)
    private Book book;

    @Column(length = 32, nullable = false)
    private byte[] digest;

    @Lob
    private byte[] content;

    private LocalTime availableFrom;

    private java.time.Instant uploaded;

    private java.time.OffsetDateTime reviewed;

    protected Attachment() {
    }

    public Attachment(Book book, byte[] digest, byte[] content, LocalTime availableFrom) {
        this.book = book;
        this.digest = digest;
        this.content = content;
        this.availableFrom = availableFrom;
    }

    public UUID getId() {
        return id;
    }

    public Book getBook() {
        return book;
    }

    public byte[] getDigest() {
        return digest;
    }

    public byte[] getContent() {
        return content;
    }

    public LocalTime getAvailableFrom() {
        return availableFrom;
    }

    public java.time.Instant getUploaded() {
        return uploaded;
    }

    public java.time.OffsetDateTime getReviewed() {
        return reviewed;
    }

    public Attachment stamped(java.time.Instant uploaded, java.time.OffsetDateTime reviewed) {
        this.uploaded = uploaded;
        this.reviewed = reviewed;
        return this;
    }
}
