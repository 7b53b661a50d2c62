package com.bloceclat.game;

import java.time.OffsetDateTime;
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

    @Column(name = "sent_at")
    public OffsetDateTime sentAt;

    /**
     * The oldest unsent messages, locked; rows another relay (another replica) holds are skipped rather than waited
     * for, so replicas share the work.
     */
    @SuppressWarnings("unchecked")
    public static List<OutboxMessage> nextUnsent(int limit) {
        return getEntityManager().createNativeQuery(
                "SELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED",
                OutboxMessage.class)
                .setParameter("limit", limit)
                .getResultList();
    }

    /** Marks these messages sent, in one statement (native: no query translation on every pass of the relay). */
    public static int markSent(List<Long> ids, OffsetDateTime at) {
        if (ids.isEmpty()) {
            return 0;
        }
        return getEntityManager().createNativeQuery("UPDATE outbox SET sent_at = :at WHERE id IN (:ids)")
                .setParameter("at", at)
                .setParameter("ids", ids)
                .executeUpdate();
    }

    public static long unsent() {
        return count("sentAt is null");
    }
}
