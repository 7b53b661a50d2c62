package com.bloceclat.game;

import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A private race's link: open until {@link #expiresAt} or until a second player used it ({@link #matchId}). */
@Entity
@Table(name = "private_race")
public class PrivateRace extends PanacheEntityBase {

    /** The link's secret. */
    @Id
    public String code;

    @Column(name = "host_subject", nullable = false)
    public String hostSubject;

    @Column(name = "host_name", nullable = false)
    public String hostName;

    @Column(nullable = false)
    public String level;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "expires_at", nullable = false)
    public OffsetDateTime expiresAt;

    @Column(name = "match_id")
    public UUID matchId;

    @Column(name = "guest_subject")
    public String guestSubject;
}
