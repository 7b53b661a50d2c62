package com.bloceclat.leaderboard;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Sort;

/** One thing an admin (or the cheat detector) did to a game; the audit trail only grows. */
@Entity
@Table(name = "audit_action")
public class AuditAction extends PanacheEntityBase {

    public enum Kind {
        REVALIDATE, STRIKE,
        /** The cheat detector found the player's rounds to be the AI's (actor {@code cheat-detector}). */
        FLAGGED_SUSPICIOUS
    }

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "game_id", nullable = false)
    public UUID gameId;

    @Enumerated(EnumType.STRING)
    @Column(name = "action", nullable = false)
    public Kind kind;

    @Column(nullable = false)
    public String actor;

    @Column(nullable = false)
    public OffsetDateTime at;

    @Column(nullable = false, columnDefinition = "text")
    public String detail;

    public static AuditAction log(UUID gameId, Kind kind, String actor, OffsetDateTime at, String detail) {
        AuditAction action = new AuditAction();
        action.gameId = gameId;
        action.kind = kind;
        action.actor = actor;
        action.at = at;
        action.detail = detail;
        action.persist();
        return action;
    }

    public static List<AuditAction> of(UUID gameId) {
        return list("gameId", Sort.ascending("at").and("id"), gameId);
    }
}
