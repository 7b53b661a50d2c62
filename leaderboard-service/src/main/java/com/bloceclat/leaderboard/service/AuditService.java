package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.NotFoundException;

import com.bloceclat.leaderboard.AuditAction;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.GameRecord;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.common.events.GameFinished;

/** What admins do to games: re-validate one, strike a record. Every action is kept in the audit trail. */
@ApplicationScoped
public class AuditService {

    /** How the reason of a strike made by a re-validation begins; the validator's words follow. */
    public static final String REVALIDATION_STRIKE = "re-validation:";

    Clock clock = Clock.systemUTC();

    @Inject
    CheatDetector detector;

    @Inject
    LeaderboardConfig config;

    /** Thrown when an action does not apply to the game as it stands. */
    public static class ConflictException extends RuntimeException {
        public ConflictException(String message) {
            super(message);
        }
    }

    /**
     * Validates the game's replay again with the engine as it is now and judges it by the {@link RecordPolicy} with the
     * facts received, at the time of the re-validation: a game rejected as finished "in the future" because
     * game-service's clock ran ahead (its claims are signed, so only a wrong clock, not a forger, dates them) becomes
     * what it earns once that time has come, instead of staying rejected for good. A game that has become a record
     * gets one; a record that no longer holds is struck with the new reason, and a record a re-validation struck that
     * holds again is back on the boards (an admin's strike stays). The cheat detector measures the game
     * again. The old and new verdicts (and the detector's figures) go to the audit trail.
     */
    @Transactional
    public GameAudit revalidate(UUID gameId, String actor) {
        // the audit row locked: two re-validations of a game, or one and the cheat detector's measure, one at a time
        GameAudit audit = require(gameId, LockModeType.PESSIMISTIC_WRITE);
        Outcome before = audit.outcome;
        String unjudgeable = Verdict.unjudgeable(audit.replay);
        if (unjudgeable != null) {
            // kept as it was judged: this engine's rules are not the game's, so it says nothing of the game
            throw new ConflictException("Game " + gameId + " is not re-validated: its replay is of " + unjudgeable);
        }
        Verdict validated = Verdict.of(audit.replay);
        RecordPolicy.Facts facts = new RecordPolicy.Facts(GameFinished.Mode.valueOf(audit.mode),
                audit.playerSubject != null,
                audit.seedSource == null ? null : GameFinished.SeedSource.valueOf(audit.seedSource), audit.day,
                audit.practice, audit.createdAt == null ? null : audit.createdAt.toInstant(), audit.finishedAt.toInstant());
        RecordPolicy.Decision decision = RecordPolicy.decide(validated, facts,
                GameFinishedService.taken(validated, facts, audit.playerSubject, gameId),
                clock.instant(), config.clockSkew());
        Verdict verdict = validated.judged(decision);
        audit.judged(verdict);
        OffsetDateTime now = OffsetDateTime.now(clock);
        GameRecord record = GameRecord.findById(gameId, LockModeType.PESSIMISTIC_WRITE);
        String detail = (before == verdict.outcome() ? "unchanged: " + before : before + " → " + verdict.outcome())
                + (verdict.reason() == null ? "" : " (" + verdict.reason() + ")");
        if (verdict.outcome() == Outcome.RECORD && record == null) {
            GameRecord.of(audit, decision.board() == RecordPolicy.Board.DAILY ? audit.day : null).persist();
        } else if (verdict.outcome() == Outcome.RECORD && record != null && record.struck()
                && record.strikeReason != null && record.strikeReason.startsWith(REVALIDATION_STRIKE)) {
            // a strike a re-validation made (the engine or this replica's clock wrong then), now found wrong: lifted;
            // an admin's own strike stays. The record still held its seed (struck records keep it), so no other took it
            record.lift();
            detail += "; the strike of a re-validation lifted";
        } else if (verdict.outcome() != Outcome.RECORD && record != null && !record.struck()) {
            record.strike(actor, REVALIDATION_STRIKE + " " + verdict.outcome() + " (" + verdict.reason() + ")", now);
            detail += "; record struck";
        }
        CheatDetector.Check check = detector.measureAndStore(audit, now);
        if (check != null) {
            detail += "; cheat detector: " + detector.describe(check);
        }
        AuditAction.log(gameId, AuditAction.Kind.REVALIDATE, actor, now, detail);
        detector.logFlag(audit, check, now);
        return audit;
    }

    /** Takes a record off every leaderboard, keeping it, who struck it and why. */
    @Transactional
    public GameAudit strike(UUID gameId, String actor, String reason) {
        GameAudit audit = require(gameId, LockModeType.NONE);
        // the record row locked: strikes of one record at once are one strike and 409s (they were all answered 200,
        // each writing over the last one's who and why); not the audit row, which the cheat detector holds while it
        // measures
        GameRecord record = GameRecord.findById(gameId, LockModeType.PESSIMISTIC_WRITE);
        if (record == null) {
            throw new ConflictException("Game " + gameId + " is not a record (" + audit.outcome + ")");
        }
        boolean overRevalidation = record.struck() && record.strikeReason != null
                && record.strikeReason.startsWith(REVALIDATION_STRIKE);
        if (record.struck() && !overRevalidation) {
            // the reason is the audit's to show (withheld there while a daily game's day is not over: a strike by
            // re-validation carries the validator's words)
            throw new ConflictException("The record of game " + gameId + " was already struck by " + record.struckBy
                    + " at " + record.struckAt + "; its audit says why.");
        }
        // over a re-validation's strike, which a later re-validation lifts if the replay holds again: the admin's
        // judgement (of the player, not only the replay) becomes the strike, and stays
        OffsetDateTime now = OffsetDateTime.now(clock);
        record.strike(actor, reason, now);
        AuditAction.log(gameId, AuditAction.Kind.STRIKE, actor, now,
                overRevalidation ? reason + " (over the strike of a re-validation)" : reason);
        return audit;
    }

    private static GameAudit require(UUID gameId, LockModeType lock) {
        GameAudit audit = GameAudit.findById(gameId, lock);
        if (audit == null) {
            throw new NotFoundException("No game " + gameId + " has been received");
        }
        return audit;
    }
}
