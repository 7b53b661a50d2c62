package com.bloceclat.game;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;


import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A Kafka message waiting in the transactional outbox (written with the change it announces). */
@Entity
@Table(name = "outbox")
public class OutboxMessage extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "msg_key", nullable = false)
    public String key;

    @Column(nullable = false)
    public String payload;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** What the relay sends as the record's {@code bloc-match} header, or null for none (V13__outbox_live_match.sql). */
    @Column(name = "live_match")
    public String liveMatch;

    /**
     * A message to send, as the relay reads it (plain values, not managed entities); {@code liveMatch} its
     * {@code bloc-match} header, null for none.
     */
    public record Pending(long id, String topic, String key, String payload, String liveMatch) {
    }

    /**
     * Writes a message into the outbox, in the caller's transaction, and answers its id; the relay sends it once that
     * has committed. Plain JDBC on the transaction's connection (one statement, no entity in Hibernate's session):
     * every move writes one.
     */
    public static long enqueue(String topic, String key, String payload) {
        return enqueue(topic, key, payload, null);
    }

    /** {@link #enqueue(String, String, String)} with the record's {@code bloc-match} header ({@link #liveMatch}). */
    public static long enqueue(String topic, String key, String payload, String liveMatch) {
        return Jdbc.work(c -> {
            try (PreparedStatement q = c.prepareStatement("INSERT INTO outbox (topic, msg_key, payload, created_at, "
                    + "live_match) VALUES (?, ?, ?, ?, ?) RETURNING id")) {
                q.setString(1, topic);
                q.setString(2, key);
                q.setString(3, payload);
                q.setObject(4, OffsetDateTime.now(ZoneOffset.UTC));
                q.setString(5, liveMatch);
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    return r.getLong(1);
                }
            }
        });
    }

    /**
     * The oldest messages still to send (sent ones are deleted, parked ones left aside), locked; rows another relay
     * (another replica) holds are skipped rather than waited for, so replicas share the work.
     */
    public static List<Pending> nextPending(int limit) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager().createNativeQuery(
                "SELECT id, topic, msg_key, payload, live_match FROM outbox WHERE parked_at IS NULL ORDER BY id LIMIT :limit "
                + "FOR UPDATE SKIP LOCKED")
                .setParameter("limit", limit)
                .getResultList();
        return rows.stream()
                .map(r -> new Pending(((Number) r[0]).longValue(), (String) r[1], (String) r[2], (String) r[3],
                        (String) r[4]))
                .toList();
    }

    /** Deletes these messages once sent, in one statement (native: no query translation on every relay pass). */
    public static int deleteSent(List<Long> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return getEntityManager().createNativeQuery("DELETE FROM outbox WHERE id IN (:ids)")
                .setParameter("ids", ids)
                .executeUpdate();
    }

    /** Sets a message aside for good, with the reason it cannot be sent; the relay never picks it again. */
    public static void park(long id, String reason) {
        getEntityManager().createNativeQuery("UPDATE outbox SET parked_at = now(), parked_reason = :reason WHERE id = :id")
                .setParameter("reason", reason.length() > 1000 ? reason.substring(0, 1000) : reason)
                .setParameter("id", id)
                .executeUpdate();
    }
}
