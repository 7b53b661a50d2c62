package com.bloceclat.game;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;

import com.bloceclat.engine.Level;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A player waiting for an online race on a level, until matched ({@link #matchId}) or cancelled. */
@Entity
@Table(name = "race_ticket")
public class RaceTicket extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(nullable = false)
    public String subject;

    @Column(nullable = false)
    public String name;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public Level level;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** When the player last joined or asked for this ticket. */
    @Column(name = "seen_at", nullable = false)
    public OffsetDateTime seenAt;

    @Column(name = "match_id")
    public UUID matchId;

    @Column(nullable = false)
    public boolean cancelled;

    /**
     * The oldest ticket waiting on {@code level} of anyone but {@code subject}, asked for since {@code seenSince}, its
     * row locked: a leave of that ticket committed meanwhile is seen (PostgreSQL reads a locked row again), so nobody
     * is matched with a player who has just left.
     */
    public static RaceTicket oldestWaiting(Level level, String subject, OffsetDateTime seenSince) {
        return find("level = ?1 and matchId is null and cancelled = false and subject <> ?2 and seenAt >= ?3 "
                + "order by createdAt", level, subject, seenSince).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResult();
    }

    /** The player's ticket waiting on {@code level}, its row locked (a leave committed meanwhile is seen). */
    public static RaceTicket waitingOf(Level level, String subject) {
        return find("level = ?1 and matchId is null and cancelled = false and subject = ?2", level, subject)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /**
     * Cancels the player's tickets waiting on levels other than {@code level}: a player waits on one level at a time.
     * A ticket that another level's join has just matched keeps its match (PostgreSQL reads the locked row again).
     */
    public static int leaveOtherLevels(Level level, String subject) {
        return update("cancelled = true where subject = ?1 and level <> ?2 and matchId is null and cancelled = false",
                subject, level);
    }

    /**
     * Drops (cancels) the tickets waiting on {@code level} not asked for since {@code seenBefore}: their players closed
     * the page long ago. Passed over by matchmaking, they stayed in the waiting tickets' index for the retention's 90
     * days, and every join of the level read past them, under the level's lock.
     */
    public static int dropStale(Level level, OffsetDateTime seenBefore) {
        return update("cancelled = true where level = ?1 and matchId is null and cancelled = false and seenAt < ?2",
                level, seenBefore);
    }

    /** Serialises matchmaking on one level until the transaction ends (a PostgreSQL advisory lock). */
    public static void lockLevel(Level level) {
        getEntityManager().createNativeQuery("SELECT pg_advisory_xact_lock(hashtext(:key))")
                .setParameter("key", "race:" + level.name()).getSingleResult();
    }
}
