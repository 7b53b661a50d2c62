package com.bloceclat.leaderboard;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A canary seen on Kafka: when game-service sent it and when this service stored it. */
@Entity
@Table(name = "canary")
public class Canary extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "sent_at", nullable = false)
    public OffsetDateTime sentAt;

    @Column(name = "seen_at", nullable = false)
    public OffsetDateTime seenAt;

    /** Stores the canary unless it is already known: a redelivered message changes nothing. */
    public static void seen(UUID id, OffsetDateTime sentAt, OffsetDateTime seenAt) {
        getEntityManager().createNativeQuery("""
                INSERT INTO canary (id, sent_at, seen_at) VALUES (:id, :sentAt, :seenAt)
                ON CONFLICT (id) DO NOTHING
                """)
                .setParameter("id", id)
                .setParameter("sentAt", sentAt)
                .setParameter("seenAt", seenAt)
                .executeUpdate();
    }
}
