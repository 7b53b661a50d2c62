package com.bloceclat.game;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A logged-in player, known by the subject of their Keycloak token. */
@Entity
@Table(name = "player")
public class Player extends PanacheEntityBase {

    @Id
    public String subject;

    @Column(nullable = false)
    public String name;

    @Column(name = "first_seen_at", nullable = false)
    public OffsetDateTime firstSeenAt;

    @Column(name = "last_seen_at", nullable = false)
    public OffsetDateTime lastSeenAt;

    /** Creates the player on first sight, otherwise refreshes the name and the last-seen time; safe under races. */
    public static void seen(String subject, String name, OffsetDateTime at) {
        getEntityManager().createNativeQuery("""
                INSERT INTO player (subject, name, first_seen_at, last_seen_at) VALUES (:subject, :name, :at, :at)
                ON CONFLICT (subject) DO UPDATE SET name = EXCLUDED.name, last_seen_at = EXCLUDED.last_seen_at
                """)
                .setParameter("subject", subject)
                .setParameter("name", name)
                .setParameter("at", at)
                .executeUpdate();
    }
}
